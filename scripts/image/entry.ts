/**
 * Entry point of the reference implementation's container image (`npm run image`):
 * starts it on all interfaces of the container and stops it on SIGTERM/SIGINT.
 * Bundled by esbuild into one file, so it uses no top-level await.
 *
 * Environment:
 * - REFERENCE_PORT: port of the public API and the control interface (default 8080;
 *   the control interface is under /_control).
 * - REFERENCE_CONTROL_TOKEN, else CERTIFY_CONTROL_TOKEN (which the harness sets): bearer
 *   token of the control interface (required: a random one could not be told to anyone,
 *   since the token is never logged).
 * - REFERENCE_PUBLIC_BASE_URL, else CERTIFY_BASE_URL (which the harness sets): the base URL
 *   clients use through the port mapping, for the transcript URLs the service hands out.
 * - REFERENCE_ENVIRONMENT (staging | production), REFERENCE_PROPAGATION_MS,
 *   REFERENCE_PERSONALITY (reference | alternate | jsonwebtoken): as for `npm run reference`.
 *
 * Webhook receivers outside the container are not on loopback, so their certificate is
 * verified: the harness copies the receiver's certificate into the container and names
 * it in NODE_EXTRA_CA_CERTS, which Node adds to its trusted roots at start.
 */
import { parsePersonality, startReference, type PersonalityName } from '../../reference/index.js';

function fail(message: string): never {
  process.stderr.write(`reference image: ${message}\n`);
  process.exit(2);
}

function numberFromEnv(name: string, fallback?: number): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) fail(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

const environment = process.env.REFERENCE_ENVIRONMENT || 'staging';
if (environment !== 'staging' && environment !== 'production') fail(`REFERENCE_ENVIRONMENT must be staging or production, got "${environment}"`);
const controlToken = process.env.REFERENCE_CONTROL_TOKEN || process.env.CERTIFY_CONTROL_TOKEN;
if (!controlToken) fail('REFERENCE_CONTROL_TOKEN (or CERTIFY_CONTROL_TOKEN) is required');
const port = numberFromEnv('REFERENCE_PORT', 8080)!;
let personality: PersonalityName | undefined;
try {
  personality = parsePersonality(process.env.REFERENCE_PERSONALITY);
} catch (error) {
  fail((error as Error).message);
}

startReference({ host: '0.0.0.0', port, controlToken, environment, personality, propagationMs: numberFromEnv('REFERENCE_PROPAGATION_MS'),
  publicBaseUrl: process.env.REFERENCE_PUBLIC_BASE_URL || process.env.CERTIFY_BASE_URL || undefined,
}).then(
  (reference) => {
    process.stdout.write(`reference (${environment}${personality && personality !== 'reference' ? `, ${personality} personality` : ''}) listening on port ${port}; control interface under /_control\n`);
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
