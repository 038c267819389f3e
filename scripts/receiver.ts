/**
 * `npm run receiver`: a capturing webhook receiver for developers of the service. Point a
 * staging webhook endpoint at the URL it prints and watch one line per delivery with its
 * verdicts. It answers like the spec's reference receiver: 204 when the signature (and
 * the timestamp) check out, 401 when they do not.
 *
 * Settings (environment, then .env): RECEIVER_PORT, RECEIVER_PUBLIC_URL,
 * RECEIVER_TLS_CERT and RECEIVER_TLS_KEY (PEM files), RECEIVER_SECRET (the endpoint's
 * signing secret; never printed). Without a secret every delivery is answered 204.
 */
import { readFileSync } from 'node:fs';
import { config as loadDotenv } from 'dotenv';
import { CapturingReceiver, formatDeliveryLine, type ReceiverOptions } from '../src/receiver/index.js';

class SettingsError extends Error {}

function readSettings(env: NodeJS.ProcessEnv): { options: ReceiverOptions; secret: string | undefined } {
  const options: ReceiverOptions = {};
  if (env['RECEIVER_PORT'] !== undefined && env['RECEIVER_PORT'] !== '') {
    const port = Number(env['RECEIVER_PORT']);
    if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new SettingsError(`RECEIVER_PORT is not a port number: ${env['RECEIVER_PORT']}`);
    options.port = port;
  }
  if (env['RECEIVER_PUBLIC_URL']) {
    const url = env['RECEIVER_PUBLIC_URL'];
    if (!URL.canParse(url) || new URL(url).protocol !== 'https:') throw new SettingsError(`RECEIVER_PUBLIC_URL must be an https URL: ${url}`);
    options.publicUrl = url;
  }
  const certFile = env['RECEIVER_TLS_CERT'] || undefined;
  const keyFile = env['RECEIVER_TLS_KEY'] || undefined;
  if ((certFile === undefined) !== (keyFile === undefined)) throw new SettingsError('RECEIVER_TLS_CERT and RECEIVER_TLS_KEY go together: set both or neither');
  if (certFile !== undefined && keyFile !== undefined) options.tls = { cert: readPem(certFile, 'RECEIVER_TLS_CERT'), key: readPem(keyFile, 'RECEIVER_TLS_KEY') };
  return { options, secret: env['RECEIVER_SECRET'] || undefined };
}

function readPem(file: string, name: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new SettingsError(`${name}: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

async function main(): Promise<void> {
  loadDotenv({ quiet: true });
  const { options, secret } = readSettings(process.env);
  const receiver = await CapturingReceiver.start(options);
  const endpoint = receiver.createEndpoint({ path: '*', name: 'catch-all', rejectStaleTimestamp: true });
  if (secret !== undefined) endpoint.setSecret(secret);
  endpoint.onSettled((delivery) => console.log(formatDeliveryLine(delivery)));

  console.log(`capturing receiver listening on port ${receiver.port}`);
  console.log(`  register any path under: ${receiver.publicUrl}/  (e.g. ${receiver.publicUrl}/hooks/staging)`);
  const certificate = receiver.certificatePath === undefined ? process.env['RECEIVER_TLS_CERT'] : `${receiver.certificatePath} (self-signed for this run)`;
  console.log(`  certificate: ${certificate}`);
  console.log(
    secret !== undefined
      ? '  signing secret: set from RECEIVER_SECRET; answers 204, or 401 on a bad signature or a timestamp off by more than 300 s'
      : '  signing secret: not set (RECEIVER_SECRET); signatures are not checked, every delivery is answered 204',
  );
  console.log(`  stats: ${receiver.publicUrl}/_stats   stop: Ctrl-C`);

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    const stats = receiver.stats();
    void receiver.close().then(() => {
      console.log(`\n${signal}: stopped after ${stats.total} deliveries (${stats.badSignatures} bad signatures, ${stats.duplicates} duplicates, ${stats.strays} strays)`);
      process.exit(0);
    });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  const message = error instanceof SettingsError ? error.message : `receiver could not start: ${(error as Error).message ?? String(error)}`;
  console.error(message);
  process.exit(2);
});
