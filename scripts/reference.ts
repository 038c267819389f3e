/**
 * `npm run reference`: starts the reference implementation on loopback and prints its
 * base URL and control URL. The control token is never printed: it is written to a
 * file readable only by the owner, whose path is printed instead.
 *
 * Environment: REFERENCE_PORT (default 0: a free port), REFERENCE_PROPAGATION_MS,
 * REFERENCE_ENVIRONMENT (staging | production), REFERENCE_CONTROL_TOKEN (else random),
 * REFERENCE_TOKEN_FILE (default reports/reference-control-token).
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { startReference } from '../reference/index.js';

function numberFromEnv(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`);
  return value;
}

const environment = process.env.REFERENCE_ENVIRONMENT ?? 'staging';
if (environment !== 'staging' && environment !== 'production') {
  throw new Error(`REFERENCE_ENVIRONMENT must be staging or production, got "${environment}"`);
}

const reference = await startReference({
  port: numberFromEnv('REFERENCE_PORT') ?? 0,
  propagationMs: numberFromEnv('REFERENCE_PROPAGATION_MS'),
  environment,
  controlToken: process.env.REFERENCE_CONTROL_TOKEN || undefined,
});

const tokenFile = resolve(process.env.REFERENCE_TOKEN_FILE ?? 'reports/reference-control-token');
mkdirSync(dirname(tokenFile), { recursive: true });
writeFileSync(tokenFile, reference.controlToken + '\n', { mode: 0o600 });
chmodSync(tokenFile, 0o600); // an existing file keeps its old mode otherwise

process.stdout.write(
  [
    `reference (${environment}) listening`,
    `  base URL:           ${reference.baseUrl}`,
    `  control URL:        ${reference.controlUrl}`,
    `  control token file: ${tokenFile}`,
    `  e.g. SVC_BASE_URL=${reference.baseUrl} SVC_CONTROL_URL=${reference.controlUrl} SVC_CONTROL_TOKEN="$(cat ${tokenFile})"`,
    'Ctrl-C to stop.',
    '',
  ].join('\n'),
);

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  process.stdout.write(`\n${signal}: stopping the reference…\n`);
  await reference.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
