/**
 * The reference implementation on loopback. The control token is never printed: it is
 * written to a file readable only by the owner, whose path is printed instead.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { loadReferenceSettings, referenceSettingsHelp } from '../../config/reference-settings.js';
import { untilStopSignal, type Command } from '../command.js';

async function runReference(): Promise<number> {
  const { options, tokenFile: tokenPath } = loadReferenceSettings();
  // Imported here: the reference is not needed by any other command's start-up.
  const { startReference, describeConditions } = await import('../../../reference/index.js');
  const reference = await startReference(options);
  const tokenFile = resolve(tokenPath);
  mkdirSync(dirname(tokenFile), { recursive: true });
  writeFileSync(tokenFile, reference.controlToken + '\n', { mode: 0o600 });
  chmodSync(tokenFile, 0o600); // an existing file keeps its old mode otherwise
  // Listening before the banner: whoever reads it may signal at once.
  const stopSignal = untilStopSignal();
  process.stdout.write(
    [
      `reference (${options.environment ?? 'staging'}${options.personality && options.personality !== 'reference' ? `, ${options.personality} personality` : ''}) listening`,
      `  base URL:           ${reference.baseUrl}`,
      `  control URL:        ${reference.controlUrl}`,
      `  control token file: ${tokenFile}`,
      ...describeConditions(options).map((line) => `  ${line}`),
      `  e.g. SVC_BASE_URL=${reference.baseUrl} SVC_CONTROL_URL=${reference.controlUrl} SVC_CONTROL_TOKEN="$(cat ${tokenFile})"`,
      'Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
  const signal = await stopSignal;
  process.stdout.write(`\n${signal}: stopping the reference…\n`);
  await reference.close();
  return 0;
}

export const referenceCommand: Command = {
  words: ['reference'],
  summary: 'Run the bundled reference implementation on loopback.',
  description: 'Prints its base URL and control URL (the control token goes to a file), until Ctrl-C.',
  settings: referenceSettingsHelp,
  exitCodes: { 0: 'stopped by SIGINT or SIGTERM', 2: 'could not start (settings, port in use)' },
  run: runReference,
};
