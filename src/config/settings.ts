/**
 * Settings of a certification run (../shared/contracts/runner.md, "Settings"):
 * the environment first, then `.env` in the working directory; validated at start so
 * that a typo or a bad value stops the run with a message naming the setting.
 */
import { z } from 'zod';
import { SettingsError } from '../errors.js';
import { describeFields, type SettingHelp } from './describe.js';
import { readSettingSources } from './sources.js';
import {
  baseUrl,
  credential,
  decimal,
  envList,
  firstIssue,
  flag,
  integer,
  ownedSettings,
  port,
  positiveMs,
  readableFile,
} from './validators.js';
import type { NetworkOptions } from '../http/dispatcher.js';

export { readSettingSources, SettingsError };

/**
 * The rotation's deploy phase by default: long enough for a disturbance a few seconds after
 * the new token appears to show, short enough to end within the fast tier's longest check.
 */
export const ROTATION_DEPLOY_DEFAULT_MS = 20_000;

const FIELDS = z.object({
  SVC_BASE_URL: baseUrl('SVC_BASE_URL')
    .optional()
    .describe('the service under test, without /v1; unset: the bundled reference on a free loopback port'),
  SVC_CONTROL_URL: baseUrl('SVC_CONTROL_URL')
    .optional()
    .describe('its control interface (contracts/control-interface.md)'),
  SVC_CONTROL_TOKEN: credential('SVC_CONTROL_TOKEN').optional().describe('bearer token of the control interface'),
  SVC_TOKEN: credential('SVC_TOKEN')
    .optional()
    .describe('a ready-made bearer token, for runs without a control interface'),
  SVC_CA_CERT: readableFile('SVC_CA_CERT')
    .optional()
    .describe("PEM file of certificate authorities trusted for the API and control interface, besides the system's"),
  SVC_CLIENT_CERT: readableFile('SVC_CLIENT_CERT')
    .optional()
    .describe('PEM client certificate (mutual TLS) for the API and control interface'),
  SVC_CLIENT_KEY: readableFile('SVC_CLIENT_KEY').optional().describe('PEM private key of SVC_CLIENT_CERT'),
  SVC_IMAGE: z
    .string()
    .min(1, 'SVC_IMAGE is empty')
    .optional()
    .describe('a container image of the service to start and certify (testcontainers)'),
  SVC_IMAGE_API_PORT: port('SVC_IMAGE_API_PORT').default(8080).describe("the image's API port"),
  SVC_IMAGE_CONTROL_PORT: port('SVC_IMAGE_CONTROL_PORT')
    .optional()
    .describe("the image's control port; default: the API port"),
  SVC_IMAGE_CONTROL_PATH: z
    .string()
    .regex(/^\/[^\s?#]*$/, 'SVC_IMAGE_CONTROL_PATH must be a path starting with /, e.g. /_control')
    .default('/_control')
    .describe('path of the control interface on the control port'),
  SVC_IMAGE_CONTROL_TOKEN: credential('SVC_IMAGE_CONTROL_TOKEN')
    .optional()
    .describe('control token given to the image; default: random per run'),
  SVC_IMAGE_ENV: envList('SVC_IMAGE_ENV')
    .default({})
    .describe('extra environment for the image: A=1,B=2 or a JSON object of strings'),
  SVC_IMAGE_STARTUP_TIMEOUT_MS: positiveMs('SVC_IMAGE_STARTUP_TIMEOUT_MS')
    .default(60_000)
    .describe('how long the image may take to become ready'),
  RECEIVER_PORT: port('RECEIVER_PORT').default(0).describe('port of the capturing webhook receiver; 0: any free port'),
  RECEIVER_HOST: z
    .string()
    .min(1, 'RECEIVER_HOST is empty')
    .optional()
    .describe('address the receiver listens on; default 127.0.0.1'),
  RECEIVER_PUBLIC_URL: baseUrl('RECEIVER_PUBLIC_URL')
    .optional()
    .describe(
      "the receiver's URL as the service must call it (a tunnel, for a remote service); default https://127.0.0.1:<port>",
    ),
  RECEIVER_TLS_CERT: readableFile('RECEIVER_TLS_CERT')
    .optional()
    .describe('PEM certificate of the receiver; default: a self-signed pair made for the run'),
  RECEIVER_TLS_KEY: readableFile('RECEIVER_TLS_KEY').optional().describe('PEM private key of the receiver'),
  IDP_HOST: z
    .string()
    .min(1, 'IDP_HOST is empty')
    .optional()
    .describe('address the test identity provider (JWKS) listens on; default 127.0.0.1'),
  IDP_PORT: port('IDP_PORT')
    .default(0)
    .describe('its port; one server serves every provider of the run, by path; 0: any free port'),
  IDP_PUBLIC_URL: baseUrl('IDP_PUBLIC_URL')
    .optional()
    .describe(
      'its base URL as the service must call it (a tunnel, for a remote service); default http://<IDP_HOST>:<port>',
    ),
  IDP_TLS_CERT: readableFile('IDP_TLS_CERT')
    .optional()
    .describe('PEM certificate: the identity provider serves HTTPS; default plain HTTP'),
  IDP_TLS_KEY: readableFile('IDP_TLS_KEY').optional().describe('PEM private key of the identity provider'),
  RECEIVER_SECRET: z.string().min(1).optional().describe('signing secret checked by the standalone receiver command'),
  CERTIFY_TIER: z
    .enum(['fast', 'full'], { message: 'CERTIFY_TIER must be fast or full' })
    .default('fast')
    .describe('fast (CI gate) or full (adds real-time checks: the 30 s time-out, un-scaled retries)'),
  CERTIFY_REPORT_DIR: z
    .string()
    .min(1)
    .default('reports/latest')
    .describe('where report.json, junit.xml, report.md and report.html go'),
  CERTIFY_MIN_COVERAGE: integer('CERTIFY_MIN_COVERAGE', 0, 100)
    .default(0)
    .describe(
      "percent of the tier's must checks that must run with a verdict (not skip); fewer fails the run (exit 1)",
    ),
  CERTIFY_CONTROL_ADAPTER: readableFile('CERTIFY_CONTROL_ADAPTER')
    .optional()
    .describe(
      'a module (.ts or .js) implementing the control operations, used instead of SVC_CONTROL_URL (README: Control adapters)',
    ),
  CERTIFY_RATE_LIMIT: decimal('CERTIFY_RATE_LIMIT', 0.1, 100_000)
    .optional()
    .describe(
      'most requests a second the whole run sends to the public API; 429s slow it further; default unlimited (429s still pace it)',
    ),
  CERTIFY_CONCURRENCY: integer('CERTIFY_CONCURRENCY', 1, 256).default(32).describe('most checks running at once'),
  CERTIFY_CHECKS: z
    .string()
    .optional()
    .describe(
      'only these checks: ids or prefixes ending in *, comma-separated; a run of fewer than its tier is partial, and CERTIFY_MIN_COVERAGE still counts the whole tier',
    ),
  CERTIFY_TARGET_VERSION: z
    .string()
    .trim()
    .min(1, 'CERTIFY_TARGET_VERSION is empty')
    .max(200, 'CERTIFY_TARGET_VERSION is longer than 200 characters')
    .optional()
    .describe(
      'the version or build of the service under test, as its owner names it (also --target-version); carried in every report and the attestation',
    ),
  CERTIFY_SIGNING_KEY: readableFile('CERTIFY_SIGNING_KEY')
    .optional()
    .describe(
      'path of a PKCS#8 PEM private key (ECDSA P-256 or Ed25519); the run also writes attestation.intoto.json, signed with it (the key is never printed)',
    ),
  CERTIFY_ROTATION_DEPLOY_MS: positiveMs('CERTIFY_ROTATION_DEPLOY_MS')
    .default(ROTATION_DEPLOY_DEFAULT_MS)
    .describe(
      "ROTATION-DEPLOY-PHASE: how long both tokens are used between the new token's creation and the old one's revocation; the default fits beside the fast tier's longest check, a real deployment takes minutes",
    ),
  CERTIFY_ALLOW_PRODUCTION: flag('CERTIFY_ALLOW_PRODUCTION')
    .default(false)
    .describe('allow a production (svc_live_) target, like --allow-production'),
  CERTIFY_EXPECTED_FAILURES: readableFile('CERTIFY_EXPECTED_FAILURES')
    .optional()
    .describe(
      'a YAML or JSON file of check ids expected to fail, each with a reason and an optional expiry (schemas/expected-failures.schema.json), like --expected-failures',
    ),
  CERTIFY_STRICT: flag('CERTIFY_STRICT')
    .default(false)
    .describe('an expected failure that passes fails the run (exit 1), like --strict'),
});

const SCHEMA = FIELDS.superRefine((settings, ctx) => {
  if (settings.SVC_CONTROL_URL && !settings.SVC_CONTROL_TOKEN) {
    ctx.addIssue({
      code: 'custom',
      path: ['SVC_CONTROL_TOKEN'],
      message: 'SVC_CONTROL_TOKEN is required when SVC_CONTROL_URL is set',
    });
  }
  if (!settings.SVC_BASE_URL && (settings.SVC_CONTROL_URL || settings.SVC_TOKEN || settings.CERTIFY_CONTROL_ADAPTER)) {
    ctx.addIssue({
      code: 'custom',
      path: ['SVC_BASE_URL'],
      message: 'SVC_BASE_URL is required when SVC_CONTROL_URL, SVC_TOKEN or CERTIFY_CONTROL_ADAPTER is set',
    });
  }
  if (settings.CERTIFY_CONTROL_ADAPTER && settings.SVC_CONTROL_URL) {
    ctx.addIssue({
      code: 'custom',
      path: ['CERTIFY_CONTROL_ADAPTER'],
      message: 'give CERTIFY_CONTROL_ADAPTER or SVC_CONTROL_URL, not both',
    });
  }
  if (settings.SVC_IMAGE && (settings.SVC_BASE_URL || settings.SVC_CONTROL_URL || settings.SVC_CONTROL_TOKEN)) {
    ctx.addIssue({
      code: 'custom',
      path: ['SVC_IMAGE'],
      message:
        'SVC_IMAGE cannot be combined with SVC_BASE_URL, SVC_CONTROL_URL or SVC_CONTROL_TOKEN (the image gives the target; use SVC_IMAGE_CONTROL_TOKEN)',
    });
  }
  if (Boolean(settings.RECEIVER_TLS_CERT) !== Boolean(settings.RECEIVER_TLS_KEY)) {
    ctx.addIssue({
      code: 'custom',
      path: ['RECEIVER_TLS_KEY'],
      message: 'RECEIVER_TLS_CERT and RECEIVER_TLS_KEY must be given together',
    });
  }
  if (Boolean(settings.SVC_CLIENT_CERT) !== Boolean(settings.SVC_CLIENT_KEY)) {
    ctx.addIssue({
      code: 'custom',
      path: ['SVC_CLIENT_KEY'],
      message: 'SVC_CLIENT_CERT and SVC_CLIENT_KEY must be given together',
    });
  }
  if (Boolean(settings.IDP_TLS_CERT) !== Boolean(settings.IDP_TLS_KEY)) {
    ctx.addIssue({
      code: 'custom',
      path: ['IDP_TLS_KEY'],
      message: 'IDP_TLS_CERT and IDP_TLS_KEY must be given together',
    });
  }
});

export type Settings = z.output<typeof SCHEMA>;

/** How the target is reached, from SVC_CA_CERT and SVC_CLIENT_CERT/KEY (proxies come from the environment). */
export function networkOf(settings: Settings, insecureTls = false): NetworkOptions {
  return {
    ...(settings.SVC_CA_CERT ? { caCertPath: settings.SVC_CA_CERT } : {}),
    ...(settings.SVC_CLIENT_CERT ? { clientCertPath: settings.SVC_CLIENT_CERT } : {}),
    ...(settings.SVC_CLIENT_KEY ? { clientKeyPath: settings.SVC_CLIENT_KEY } : {}),
    ...(insecureTls ? { insecureTls } : {}),
  };
}

export function settingsHelp(): SettingHelp[] {
  return describeFields(FIELDS.shape);
}

/** The settings as a JSON Schema of the strings a user writes (published as docs/schemas/settings.schema.json). */
export function settingsJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(FIELDS, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
}

const KNOWN_NAMES = new Set(Object.keys(FIELDS.shape));
const OWNED_PREFIXES = ['SVC_', 'RECEIVER_', 'IDP_', 'CERTIFY_'];

export function parseSettings(sources: Record<string, string>): Settings {
  const { owned, unknown } = ownedSettings(sources, OWNED_PREFIXES, KNOWN_NAMES);
  if (unknown.length > 0) {
    const names = [...KNOWN_NAMES].join(', ');
    throw new SettingsError(`unknown setting ${unknown.join(', ')} (known: ${names})`);
  }
  const result = SCHEMA.safeParse(owned);
  if (!result.success) throw new SettingsError(firstIssue(result.error));
  return result.data;
}

export function loadSettings(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Settings {
  return parseSettings(readSettingSources(env, cwd));
}
