/**
 * A capturing webhook receiver for developers of the service: point a staging endpoint at
 * the URL it prints and watch one line per delivery with its verdicts. It answers like the
 * spec's reference receiver: 204 when the signature (and the timestamp) check out, 401 when
 * they do not; without RECEIVER_SECRET every delivery is answered 204.
 */
import { readFileSync } from 'node:fs';
import { loadSettings, SettingsError, settingsHelp } from '../../config/settings.js';
import { CapturingReceiver, formatDeliveryLine, type ReceiverOptions } from '../../capturing-receiver/index.js';
import { registerSecret } from '../../secrets/mask.js';
import { writeLine } from '../../text/console.js';
import { untilStopSignal, type Command } from '../command.js';

const SETTINGS = [
  'RECEIVER_HOST',
  'RECEIVER_PORT',
  'RECEIVER_PUBLIC_URL',
  'RECEIVER_TLS_CERT',
  'RECEIVER_TLS_KEY',
  'RECEIVER_SECRET',
];

function readPem(file: string, name: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new SettingsError(`${name}: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

async function runReceiver(): Promise<number> {
  const settings = loadSettings();
  registerSecret(settings.RECEIVER_SECRET);
  const options: ReceiverOptions = {
    port: settings.RECEIVER_PORT,
    ...(settings.RECEIVER_HOST ? { host: settings.RECEIVER_HOST } : {}),
    ...(settings.RECEIVER_PUBLIC_URL ? { publicUrl: settings.RECEIVER_PUBLIC_URL } : {}),
    ...(settings.RECEIVER_TLS_CERT && settings.RECEIVER_TLS_KEY
      ? {
          tls: {
            cert: readPem(settings.RECEIVER_TLS_CERT, 'RECEIVER_TLS_CERT'),
            key: readPem(settings.RECEIVER_TLS_KEY, 'RECEIVER_TLS_KEY'),
          },
        }
      : {}),
  };
  const secret = settings.RECEIVER_SECRET;
  const receiver = await CapturingReceiver.start(options);
  const endpoint = receiver.createEndpoint({ path: '*', name: 'catch-all', rejectStaleTimestamp: true });
  if (secret !== undefined) endpoint.setSecret(secret);
  const print = (line: string): void => writeLine(process.stdout, line);
  endpoint.onSettled((delivery) => print(formatDeliveryLine(delivery)));

  // Listening before the banner: whoever reads it may signal at once.
  const stopSignal = untilStopSignal();
  print(`capturing receiver listening on port ${receiver.port}`);
  print(`  register any path under: ${receiver.publicUrl}/  (e.g. ${receiver.publicUrl}/hooks/staging)`);
  print(
    `  certificate: ${receiver.certificatePath === undefined ? settings.RECEIVER_TLS_CERT : `${receiver.certificatePath} (self-signed for this run)`}`,
  );
  print(
    secret !== undefined
      ? '  signing secret: set from RECEIVER_SECRET; answers 204, or 401 on a bad signature or a timestamp off by more than 300 s'
      : '  signing secret: not set (RECEIVER_SECRET); signatures are not checked, every delivery is answered 204',
  );
  print(`  stats: ${receiver.publicUrl}/_stats   stop: Ctrl-C`);

  const signal = await stopSignal;
  const stats = receiver.stats();
  await receiver.close();
  print(
    `\n${signal}: stopped after ${stats.total} deliveries (${stats.badSignatures} bad signatures, ${stats.duplicates} duplicates, ${stats.strays} strays)`,
  );
  return 0;
}

export const receiverCommand: Command = {
  words: ['receiver'],
  summary: 'Run the capturing webhook receiver alone, with a live log of deliveries.',
  description: 'Prints one line per delivery with its verdicts, until Ctrl-C.',
  settings: () => settingsHelp().filter((setting) => SETTINGS.includes(setting.name)),
  exitCodes: { 0: 'stopped by SIGINT or SIGTERM', 2: 'could not start (settings, port in use)' },
  run: runReceiver,
};
