/**
 * Settings of `svc-harness load` (LOAD_*), beside those of `certify` (settings.ts) and with
 * the same validators and sources: the environment, then `.env`, validated at start so that
 * a typo or a bad value stops the run (exit 2) with a message naming the setting. Unknown
 * LOAD_ names are an error, and so are the ones the load command sets for k6 itself. The
 * k6 scripts read most of them again from their environment (load/lib/env.ts), where a
 * k6-operator run sets them; k6EnvOf gives them the values this run validated.
 */
import { z } from 'zod';
import { durationSeconds } from '../../load/lib/duration.js';
import { describeFields, type SettingHelp } from './describe.js';
import { SettingsError } from './settings.js';
import { credential, decimal, firstIssue, flag, integer, ownedSettings } from './validators.js';

/** The spec's limit of active webhook endpoints per workspace. */
export const MAX_ENDPOINTS = 25;

/** A k6 duration (20s, 1m30s), kept as written: k6 reads it. */
const duration = (name: string) =>
  z.string().superRefine((text, ctx) => {
    try {
      durationSeconds(text);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: `${name}: ${(error as Error).message}` });
    }
  });

/** An http(s) URL, kept as written. */
const httpUrl = (name: string) =>
  z.string().superRefine((text, ctx) => {
    let protocol = '';
    try {
      protocol = new URL(text).protocol;
    } catch {
      // reported below
    }
    if (protocol !== 'http:' && protocol !== 'https:')
      ctx.addIssue({
        code: 'custom',
        message: `${name} must be an http or https URL (e.g. http://prometheus:9090/api/v1/write)`,
      });
  });

const FIELDS = z.object({
  LOAD_RATE: integer('LOAD_RATE', 1, 100_000)
    .optional()
    .describe('arrivals per second (calls; per token in rotation); default per scenario'),
  LOAD_DURATION: duration('LOAD_DURATION')
    .optional()
    .describe('measured phase as a k6 duration (20s, 1m30s); default per scenario'),
  LOAD_MAX_VUS: integer('LOAD_MAX_VUS', 1, 100_000)
    .optional()
    .describe(
      'VU cap of arrival-rate executors; default the rate × LOAD_P99_MS × 1.5 + 2, what holds the in-flight requests at the p99 budget',
    ),
  LOAD_P95_MS: decimal('LOAD_P95_MS', 0, 600_000).default(500).describe('p95 latency threshold of call placement'),
  LOAD_P99_MS: decimal('LOAD_P99_MS', 0, 600_000).default(1000).describe('p99 latency threshold of call placement'),
  LOAD_MAX_ERROR_RATE: decimal('LOAD_MAX_ERROR_RATE', 0, 1)
    .default(0.01)
    .describe('failed-request rate allowed for call placement'),
  LOAD_ABORT_ON_FAIL: flag('LOAD_ABORT_ON_FAIL').default(true).describe('false lets a run go on after a gate fails'),
  LOAD_ENDPOINTS: integer('LOAD_ENDPOINTS', 1, MAX_ENDPOINTS)
    .default(MAX_ENDPOINTS)
    .describe(`fan-out endpoints (at most ${MAX_ENDPOINTS})`),
  LOAD_FANOUT_P95_MS: decimal('LOAD_FANOUT_P95_MS', 0, 600_000)
    .default(1000)
    .describe(
      'fan-out: p95 of event created_at to arrival at the receiver (placement to arrival of the completed event gets this + 2000, the call lifecycle)',
    ),
  LOAD_FANOUT_P99_MS: decimal('LOAD_FANOUT_P99_MS', 0, 600_000)
    .default(2000)
    .describe('fan-out: p99 of event created_at to arrival (placement to completed arrival: this + 2000)'),
  LOAD_RECEIVER_WORKERS: integer('LOAD_RECEIVER_WORKERS', 1, 64)
    .default(1)
    .describe(
      'fan-out: receiver processes sharing its port (SO_REUSEPORT, Linux), counted as one; more than 1 when one core cannot keep up',
    ),
  LOAD_FANOUT_MAX_LOSS: decimal('LOAD_FANOUT_MAX_LOSS', 0, 1)
    .default(0)
    .describe('fan-out: fraction of expected deliveries allowed to be lost (never arrived within the drain window)'),
  LOAD_REVOCATION_GRACE_S: decimal('LOAD_REVOCATION_GRACE_S', 0, 60)
    .default(5)
    .describe(
      "rotation: how long after the old token's first 401 other nodes may still accept it; a 2xx later fails the run",
    ),
  LOAD_DRAIN_S: decimal('LOAD_DRAIN_S', 0, 3_600)
    .optional()
    .describe('fan-out: how long teardown waits for deliveries, in seconds; default 30, 15 with --smoke'),
  LOAD_INSTANCES: integer('LOAD_INSTANCES', 1, 10_000).default(1).describe('runners of a distributed run'),
  LOAD_TOKEN: credential('LOAD_TOKEN').optional().describe('place calls with this token instead of making one'),
  LOAD_AGENT_ID: z.string().min(1).optional().describe('place calls with this agent instead of finding one'),
  LOAD_REPORT_DIR: z.string().min(1).default('reports/load').describe('where reports go (or --report-dir)'),
  LOAD_K6_BINARY: z
    .string()
    .min(1)
    .optional()
    .describe('use this k6 v2 binary; default k6 on PATH, else .tools/k6 (built from its Go module)'),
  LOAD_ALLOW_PRODUCTION: flag('LOAD_ALLOW_PRODUCTION').default(false).describe('same as --allow-production'),
  LOAD_PROMETHEUS_RW_URL: httpUrl('LOAD_PROMETHEUS_RW_URL')
    .optional()
    .describe(
      "same as --prometheus-rw: Prometheus remote-write URL for k6's samples and each scenario's verdict and figures",
    ),
});

export type LoadSettings = z.output<typeof FIELDS>;

/** Set by the load command for k6 only (tokens and ids it made, where the summary goes). */
const LOAD_INTERNAL = new Set([
  'LOAD_OLD_TOKEN',
  'LOAD_OLD_TOKEN_ID',
  'LOAD_NEW_TOKEN',
  'LOAD_WORKSPACE_ID',
  'LOAD_SUMMARY_PATH',
  'LOAD_MERGED_VERDICT',
  'LOAD_RUN_ID',
  'LOAD_ENVIRONMENT',
]);
const KNOWN_NAMES = new Set(Object.keys(FIELDS.shape));

export function loadSettingsHelp(): SettingHelp[] {
  return describeFields(FIELDS.shape);
}

/** Validates the LOAD_ names of `sources` (environment over .env); other names are not this schema's. */
export function parseLoadSettings(sources: Record<string, string>): LoadSettings {
  const { owned, unknown } = ownedSettings(sources, ['LOAD_'], KNOWN_NAMES);
  const internal = unknown.find((name) => LOAD_INTERNAL.has(name));
  if (internal) throw new SettingsError(`${internal} is set by npm run load itself; remove it`);
  if (unknown.length > 0)
    throw new SettingsError(`unknown setting ${unknown.join(', ')} (known: ${[...KNOWN_NAMES].join(', ')})`);
  const result = FIELDS.safeParse(owned);
  if (!result.success) throw new SettingsError(firstIssue(result.error));
  return result.data;
}

/** The settings as k6 reads them from its environment (flags as true/false); unset ones are left out. */
export function k6EnvOf(settings: LoadSettings): Record<string, string> {
  return Object.fromEntries(
    Object.entries(settings)
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => [name, String(value)]),
  );
}
