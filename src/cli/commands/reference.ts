/**
 * The reference implementation on loopback. The control token is never printed: it is
 * written to a file readable only by the owner, whose path is printed instead.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { SettingHelp } from '../../config/describe.js';
import { SettingsError } from '../../config/settings.js';
import { untilStopSignal, type Command } from '../command.js';

const SETTINGS: SettingHelp[] = [
  { name: 'REFERENCE_PORT', description: 'port to listen on; 0: any free port', default: '0' },
  { name: 'REFERENCE_PROPAGATION_MS', description: 'how long a revoked token stays accepted on a stale node' },
  { name: 'REFERENCE_ENVIRONMENT', description: 'staging or production (production refuses svc_test_ tokens)', default: 'staging' },
  { name: 'REFERENCE_CONTROL_TOKEN', description: 'the control token; default random' },
  { name: 'REFERENCE_PERSONALITY', description: 'reference; alternate: the other reasonable choice wherever the spec leaves one open; jsonwebtoken: session tokens verified with jsonwebtoken and jwks-rsa', default: 'reference' },
  { name: 'REFERENCE_OUTBOUND_HOST', description: 'deliver webhooks and fetch JWKS only from this host, as a service on another machine would; default anywhere' },
  { name: 'REFERENCE_LATENCY_MS', description: 'added to every round trip (API, control, deliveries, JWKS fetches), ms, optionally ± a jitter: 60 or 60,5' },
  { name: 'REFERENCE_RATE_LIMIT', description: 'token buckets on /v1, requests/s: 10/workspace,50/client[,retry-after=seconds|date|none]' },
  { name: 'REFERENCE_RESET_FRACTION', description: 'fraction of /v1 requests whose connection is reset before they are handled, e.g. 0.01' },
  { name: 'REFERENCE_SEED', description: 'seeds which requests are reset and the jitter', default: '1' },
  { name: 'REFERENCE_MAX_TIME_SCALE', description: 'the largest time scale a workspace may have', default: '3600' },
  { name: 'REFERENCE_TLS_CERT', description: 'serve HTTPS with this PEM certificate (with REFERENCE_TLS_KEY)' },
  { name: 'REFERENCE_TLS_KEY', description: 'the PEM private key of REFERENCE_TLS_CERT' },
  { name: 'REFERENCE_TLS_CLIENT_CA', description: 'require a client certificate issued by this PEM CA (mutual TLS)' },
  { name: 'REFERENCE_TOKEN_FILE', description: 'where the control token is written (mode 0600)', default: 'reports/reference-control-token' },
];

function numberFromEnv(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new SettingsError(`${name} must be a non-negative number, got "${raw}"`);
  return value;
}

async function runReference(): Promise<number> {
  const environment = process.env.REFERENCE_ENVIRONMENT ?? 'staging';
  if (environment !== 'staging' && environment !== 'production') {
    throw new SettingsError(`REFERENCE_ENVIRONMENT must be staging or production, got "${environment}"`);
  }
  // Imported here: the reference is not needed by any other command's start-up.
  const { startReference, parsePersonality, referenceOptionsFromEnv, describeConditions } = await import('../../../reference/index.js');
  let personality: ReturnType<typeof parsePersonality>;
  let conditions: ReturnType<typeof referenceOptionsFromEnv>;
  try {
    personality = parsePersonality(process.env.REFERENCE_PERSONALITY);
    conditions = referenceOptionsFromEnv(process.env);
  } catch (error) {
    throw new SettingsError((error as Error).message);
  }
  const reference = await startReference({
    port: numberFromEnv('REFERENCE_PORT') ?? 0,
    propagationMs: numberFromEnv('REFERENCE_PROPAGATION_MS'),
    environment,
    controlToken: process.env.REFERENCE_CONTROL_TOKEN || undefined,
    personality,
    outboundHost: process.env.REFERENCE_OUTBOUND_HOST || undefined,
    ...conditions,
  });
  const tokenFile = resolve(process.env.REFERENCE_TOKEN_FILE ?? 'reports/reference-control-token');
  mkdirSync(dirname(tokenFile), { recursive: true });
  writeFileSync(tokenFile, reference.controlToken + '\n', { mode: 0o600 });
  chmodSync(tokenFile, 0o600); // an existing file keeps its old mode otherwise
  // Listening before the banner: whoever reads it may signal at once.
  const stopSignal = untilStopSignal();
  process.stdout.write(
    [
      `reference (${environment}${personality && personality !== 'reference' ? `, ${personality} personality` : ''}) listening`,
      `  base URL:           ${reference.baseUrl}`,
      `  control URL:        ${reference.controlUrl}`,
      `  control token file: ${tokenFile}`,
      ...describeConditions(conditions).map((line) => `  ${line}`),
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
  settings: () => SETTINGS,
  exitCodes: { 0: 'stopped by SIGINT or SIGTERM', 2: 'could not start (settings, port in use)' },
  run: runReference,
};
