/**
 * Entry point of the reference implementation's container image (`npm run image`):
 * starts it on all interfaces of the container and stops it on SIGTERM/SIGINT.
 * Bundled by esbuild into one file, so it uses no top-level await.
 *
 * Settings: the REFERENCE_* variables of `npm run reference` (src/config/reference-settings.ts),
 * with the image's own defaults:
 * - REFERENCE_PORT: port of the public API and the control interface (default 8080;
 *   the control interface is under /_control).
 * - REFERENCE_CONTROL_TOKEN, else CERTIFY_CONTROL_TOKEN (which the harness sets): bearer
 *   token of the control interface (required: a random one could not be told to anyone,
 *   since the token is never logged).
 * - REFERENCE_PUBLIC_BASE_URL, else CERTIFY_BASE_URL (which the harness sets): the base URL
 *   clients use through the port mapping, for the transcript URLs the service hands out.
 *
 * Webhook receivers outside the container are not on loopback, so their certificate is
 * verified: the harness copies the receiver's certificate into the container and names
 * it in NODE_EXTRA_CA_CERTS, which Node adds to its trusted roots at start.
 */
import { parseReferenceSettings, type ReferenceSettings } from '../../src/config/reference-settings.js';
import { readSettingSources } from '../../src/config/sources.js';
import { startReference } from '../../reference/index.js';

function fail(message: string): never {
  process.stderr.write(`reference image: ${message}\n`);
  process.exit(2);
}

const sources = readSettingSources();
let settings: ReferenceSettings;
try {
  settings = parseReferenceSettings(sources);
} catch (error) {
  fail((error as Error).message);
}
const { options } = settings;
const environment = options.environment ?? 'staging';
const controlToken = options.controlToken ?? (sources.CERTIFY_CONTROL_TOKEN || undefined);
if (!controlToken) fail('REFERENCE_CONTROL_TOKEN (or CERTIFY_CONTROL_TOKEN) is required');
const port = options.port ?? 8080;
const personality = options.personality;

startReference({
  ...options,
  host: '0.0.0.0',
  port,
  controlToken,
  publicBaseUrl: options.publicBaseUrl ?? (sources.CERTIFY_BASE_URL || undefined),
}).then(
  (reference) => {
    process.stdout.write(
      `reference (${environment}${personality && personality !== 'reference' ? `, ${personality} personality` : ''}) listening on port ${port}; control interface under /_control\n`,
    );
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      process.stdout.write(`${signal}: stopping the reference\n`);
      void reference.close().then(() => process.exit(0));
    };
    process.on('SIGTERM', () => stop('SIGTERM'));
    process.on('SIGINT', () => stop('SIGINT'));
  },
  (error: Error) => fail(`could not start: ${error.message}`),
);
