/**
 * Settings of `svc-harness certify receiver` (TARGET_RECEIVER_*), beside those of
 * `certify` (settings.ts) and with the same validators and sources: the environment, then
 * `.env`, validated at start so that a typo or a bad value stops the run (exit 2) with a
 * message naming the setting. Unknown `TARGET_RECEIVER_` names are an error.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { SettingsError } from '../errors.js';
import { registerSecret } from '../secrets/mask.js';
import { describeFields, type SettingHelp } from './describe.js';
import { readSettingSources } from './sources.js';
import { firstIssue, flag, httpUrl, integer, ownedSettings, readableFile } from './validators.js';

const PREFIX = 'TARGET_RECEIVER_';
/** The spec's acknowledgement bound (Limits: webhook receiver time-out). */
export const SPEC_RECEIVER_TIMEOUT_MS = 30_000;
/** Shortest secret accepted: shorter ones could not be masked reliably in reports. */
const MIN_SECRET_LENGTH = 6;

const FIELDS = z.object({
  TARGET_RECEIVER_URL: httpUrl('TARGET_RECEIVER_URL', 'https://hooks.example.test/webhooks')
    .optional()
    .describe('the webhook receiver to certify (required)'),
  TARGET_RECEIVER_SECRET: z
    .string()
    .min(MIN_SECRET_LENGTH, `TARGET_RECEIVER_SECRET must be at least ${MIN_SECRET_LENGTH} characters`)
    .optional()
    .describe("its endpoint's signing secret (or TARGET_RECEIVER_SECRET_FILE); never printed"),
  TARGET_RECEIVER_SECRET_FILE: readableFile('TARGET_RECEIVER_SECRET_FILE')
    .optional()
    .describe('a file holding the signing secret'),
  TARGET_RECEIVER_COUNT_URL: httpUrl('TARGET_RECEIVER_COUNT_URL', 'https://hooks.example.test/count')
    .optional()
    .describe('where the receiver reports how many deliveries it processed, for the idempotency checks'),
  TARGET_RECEIVER_TIMEOUT_MS: integer('TARGET_RECEIVER_TIMEOUT_MS', 100, SPEC_RECEIVER_TIMEOUT_MS)
    .default(10_000)
    .describe('how long one delivery may wait for an answer'),
  TARGET_RECEIVER_RATE: integer('TARGET_RECEIVER_RATE', 1, 50).default(50).describe('deliveries per second, at most'),
  TARGET_RECEIVER_MAX_REQUESTS: integer('TARGET_RECEIVER_MAX_REQUESTS', 50, 10_000)
    .default(1_000)
    .describe('deliveries per run, at most'),
  TARGET_RECEIVER_MAX_RUN_SECONDS: integer('TARGET_RECEIVER_MAX_RUN_SECONDS', 10, 3_600)
    .default(600)
    .describe('whole-run deadline'),
  TARGET_RECEIVER_TIMING_SAMPLES: integer('TARGET_RECEIVER_TIMING_SAMPLES', 0, 500)
    .default(40)
    .describe('samples per prefix length of the constant-time probe; 0 skips it'),
  TARGET_RECEIVER_INSECURE_TLS: flag('TARGET_RECEIVER_INSECURE_TLS')
    .optional()
    .describe('accept an unverified certificate; default true on loopback only'),
  TARGET_RECEIVER_REPORT_DIR: z.string().min(1).default('reports/receiver-latest').describe('where reports go'),
  TARGET_RECEIVER_CHECKS: z
    .string()
    .optional()
    .describe('only these checks: ids or prefixes ending in *, comma-separated, like --checks'),
  TARGET_RECEIVER_EXPECTED_FAILURES: readableFile('TARGET_RECEIVER_EXPECTED_FAILURES')
    .optional()
    .describe(
      'a YAML or JSON file of RCV- check ids expected to fail, each with a reason and an optional expiry, like --expected-failures',
    ),
  TARGET_RECEIVER_STRICT: flag('TARGET_RECEIVER_STRICT')
    .default(false)
    .describe('an expected failure that passes fails the run (exit 1), like --strict'),
});

export interface ReceiverCertSettings {
  url: string;
  /** Never printed; registered with the masker before anything else happens. */
  secret: string;
  countUrl: string | undefined;
  timeoutMs: number;
  /** Requests per second, at most. */
  rate: number;
  maxRequests: number;
  maxRunMs: number;
  /** Samples per prefix length of the timing probe; 0 skips the probe. */
  timingSamples: number;
  insecureTls: boolean;
  reportDir: string;
  /** TARGET_RECEIVER_CHECKS, as given; undefined: every check. */
  checks: string | undefined;
  /** The seed of the run's generated choices (FAST_CHECK_SEED, or drawn). */
  seed: number;
  expectedFailures: string | undefined;
  strict: boolean;
}

const KNOWN_NAMES = new Set(Object.keys(FIELDS.shape));

export function receiverSettingsHelp(): SettingHelp[] {
  return describeFields(FIELDS.shape);
}

/** Validates the TARGET_RECEIVER_* names of `sources`; other names are not this schema's. */
export function parseReceiverSettings(sources: Record<string, string>): ReceiverCertSettings {
  // Masked before anything else can print it, even when the rest of the settings is wrong.
  registerSecret(sources['TARGET_RECEIVER_SECRET']);
  const { owned, unknown } = ownedSettings(sources, [PREFIX], KNOWN_NAMES);
  if (unknown.length > 0) {
    throw new SettingsError(`unknown setting ${unknown.join(', ')} (known: ${[...KNOWN_NAMES].join(', ')})`);
  }
  const result = FIELDS.safeParse(owned);
  if (!result.success) throw new SettingsError(firstIssue(result.error));
  const s = result.data;
  if (s.TARGET_RECEIVER_URL === undefined) {
    throw new SettingsError('TARGET_RECEIVER_URL is required: the URL of the webhook receiver to certify');
  }
  if (s.TARGET_RECEIVER_SECRET !== undefined && s.TARGET_RECEIVER_SECRET_FILE !== undefined) {
    throw new SettingsError('give one of TARGET_RECEIVER_SECRET and TARGET_RECEIVER_SECRET_FILE, not both');
  }
  const secret = s.TARGET_RECEIVER_SECRET ?? readSecretFile(s.TARGET_RECEIVER_SECRET_FILE);
  const url = new URL(s.TARGET_RECEIVER_URL);
  return {
    url: s.TARGET_RECEIVER_URL,
    secret,
    countUrl: s.TARGET_RECEIVER_COUNT_URL,
    timeoutMs: s.TARGET_RECEIVER_TIMEOUT_MS,
    rate: s.TARGET_RECEIVER_RATE,
    maxRequests: s.TARGET_RECEIVER_MAX_REQUESTS,
    maxRunMs: s.TARGET_RECEIVER_MAX_RUN_SECONDS * 1000,
    timingSamples: s.TARGET_RECEIVER_TIMING_SAMPLES,
    // A self-signed certificate is the norm on loopback; elsewhere it must be asked for.
    insecureTls: s.TARGET_RECEIVER_INSECURE_TLS ?? isLoopback(url.hostname),
    reportDir: s.TARGET_RECEIVER_REPORT_DIR,
    checks: s.TARGET_RECEIVER_CHECKS,
    seed: seedOf(sources['FAST_CHECK_SEED']),
    expectedFailures: s.TARGET_RECEIVER_EXPECTED_FAILURES,
    strict: s.TARGET_RECEIVER_STRICT,
  };
}

/**
 * FAST_CHECK_SEED (`--seed`), as for `certify`, or one drawn for the run: it orders the
 * constant-time probe and picks its signatures, so one value in report.json repeats them.
 * Event ids stay fresh on every run: a receiver must not see a re-run as replays.
 */
function seedOf(given: string | undefined): number {
  if (given === undefined || given === '') return Date.now() % 2 ** 31;
  if (!/^\d+$/.test(given) || Number(given) >= 2 ** 31)
    throw new SettingsError(`FAST_CHECK_SEED must be a whole number below 2^31, got ${JSON.stringify(given)}`);
  return Number(given);
}

export function loadReceiverSettings(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): ReceiverCertSettings {
  return parseReceiverSettings(readSettingSources(env, cwd));
}

function readSecretFile(path: string | undefined): string {
  if (path === undefined) {
    throw new SettingsError(
      "TARGET_RECEIVER_SECRET or TARGET_RECEIVER_SECRET_FILE is required: the endpoint's signing secret",
    );
  }
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new SettingsError(
      `TARGET_RECEIVER_SECRET_FILE could not be read: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
    );
  }
  // One trailing line break is the file's, not the secret's.
  const secret = text.replace(/\r?\n$/, '');
  registerSecret(secret);
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new SettingsError(
      `TARGET_RECEIVER_SECRET_FILE must hold a secret of at least ${MIN_SECRET_LENGTH} characters`,
    );
  }
  return secret;
}

function isLoopback(hostname: string): boolean {
  return (
    hostname === 'localhost' || hostname === '[::1]' || hostname === '::1' || /^127\.\d+\.\d+\.\d+$/.test(hostname)
  );
}
