/**
 * Settings of the reference implementation (REFERENCE_*), wherever the harness starts it:
 * `svc-harness reference`, the embedded target of `certify` (neither SVC_BASE_URL nor
 * SVC_IMAGE) and the reference's container image (scripts/image/entry.ts). Same validators
 * and sources as the other groups: the environment, then `.env`, validated before the
 * reference starts so that a typo or a bad value stops it (exit 2) with a message naming
 * the variable and a valid example. Unknown or set-but-empty REFERENCE_ names are an error.
 * The reference itself takes typed options only (reference/options.ts): this is the one
 * place that turns the environment into them.
 */
import { z } from 'zod';
import { SettingsError } from '../errors.js';
import { registerSecret } from '../secrets/mask.js';
import { describeFields, type SettingHelp } from './describe.js';
import { readSettingSources } from './sources.js';
import { baseUrl, credential, firstIssue, integer, ownedSettings, port, readableFile } from './validators.js';
import type { NetworkConditions, RateLimitOptions, RetryAfterForm } from '../../reference/http/conditions.js';
import { PERSONALITY_NAMES } from '../../reference/personality.js';
import type { ReferenceOptions, ReferenceTls } from '../../reference/options.js';

const PREFIX = 'REFERENCE_';
// The reference's forms, by type only: its network module (reference/http/conditions.ts) is
// not loaded by a command that never starts it. A form added there fails to compile here.
const RETRY_AFTER_FORMS = { seconds: true, date: true, none: true } satisfies Record<RetryAfterForm, true>;
const NUMBER = String.raw`\d+(?:\.\d+)?`;
const LATENCY = new RegExp(`^(${NUMBER})(?:,(${NUMBER}))?$`);
const RATE = new RegExp(`^(${NUMBER})/(workspace|client)$`);
const RATE_LIMIT_EXAMPLE =
  'e.g. 10/workspace,50/client or 10/workspace,50/client,retry-after=date (retry-after: seconds, date or none)';

/** Thrown by the parsers below and reported by `condition` as the field's issue. */
function malformed(name: string, raw: string, expected: string): Error {
  return new Error(`${name} must be ${expected}; got "${raw}"`);
}

/** A network condition: read by `parse` with its blanks removed ("10/workspace, 50/client" is fine). */
const condition = <T>(parse: (value: string) => T) =>
  z.string().transform((raw, ctx) => {
    try {
      return parse(raw.replace(/\s+/g, ''));
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
      return z.NEVER;
    }
  });

/** One of `values`, as written. */
const oneOf = <T extends string>(name: string, values: readonly T[]) =>
  z.string().transform((raw, ctx) => {
    if ((values as readonly string[]).includes(raw)) return raw as T;
    ctx.addIssue({ code: 'custom', message: `${name} must be ${values.join(' or ')}, got "${raw}"` });
    return z.NEVER;
  });

function parseLatency(raw: string): Pick<NetworkConditions, 'latencyMs' | 'jitterMs'> {
  const match = LATENCY.exec(raw);
  if (!match)
    throw malformed(
      'REFERENCE_LATENCY_MS',
      raw,
      'milliseconds, optionally with a jitter after a comma, e.g. 60 or 60,5 (60 ms ± 5 ms)',
    );
  const latencyMs = Number(match[1]);
  const jitterMs = match[2] === undefined ? 0 : Number(match[2]);
  if (jitterMs > latencyMs)
    throw malformed('REFERENCE_LATENCY_MS', raw, 'a jitter no larger than the latency, e.g. 60,5 (60 ms ± 5 ms)');
  return { latencyMs, jitterMs };
}

function parseRateLimit(raw: string): RateLimitOptions {
  const limit: RateLimitOptions = {};
  for (const item of raw.split(',')) {
    const rate = RATE.exec(item);
    const key = rate?.[2] === 'workspace' ? 'perWorkspace' : 'perClient';
    if (rate && limit[key] === undefined && Number(rate[1]) > 0) {
      limit[key] = Number(rate[1]);
    } else if (
      item.startsWith('retry-after=') &&
      limit.retryAfter === undefined &&
      Object.hasOwn(RETRY_AFTER_FORMS, item.slice(12))
    ) {
      limit.retryAfter = item.slice(12) as RetryAfterForm;
    } else {
      throw malformed(
        'REFERENCE_RATE_LIMIT',
        raw,
        `requests per second per workspace and/or per client address, each once, ${RATE_LIMIT_EXAMPLE}`,
      );
    }
  }
  if (limit.perWorkspace === undefined && limit.perClient === undefined) {
    throw malformed('REFERENCE_RATE_LIMIT', raw, `at least one rate, ${RATE_LIMIT_EXAMPLE}`);
  }
  return limit;
}

function numberParser(name: string, ok: (value: number) => boolean, expected: string): (raw: string) => number {
  return (raw) => {
    const value = /^[0-9.eE+-]+$/.test(raw) ? Number(raw) : Number.NaN;
    if (!Number.isFinite(value) || !ok(value)) throw malformed(name, raw, expected);
    return value;
  };
}

// A default in `meta` is the reference's own (reference/index.ts), applied when the setting
// is unset; it is given here for --help only.
const FIELDS = z.object({
  REFERENCE_PORT: port('REFERENCE_PORT').optional().meta({
    description: 'port of the API and the control interface (under /_control); 0: any free port; the image: 8080',
    default: '0',
  }),
  REFERENCE_PROPAGATION_MS: integer('REFERENCE_PROPAGATION_MS', 0, 600_000)
    .optional()
    .meta({ description: 'how long a revoked token stays accepted on a stale node, ms', default: '2000' }),
  REFERENCE_ENVIRONMENT: oneOf('REFERENCE_ENVIRONMENT', ['staging', 'production'] as const)
    .optional()
    .meta({ description: 'staging or production (production refuses svc_test_ tokens)', default: 'staging' }),
  REFERENCE_CONTROL_TOKEN: credential('REFERENCE_CONTROL_TOKEN')
    .optional()
    .describe('the control token; default random (the image: CERTIFY_CONTROL_TOKEN, else required)'),
  REFERENCE_PUBLIC_BASE_URL: baseUrl('REFERENCE_PUBLIC_BASE_URL')
    .optional()
    .describe(
      'the base URL clients call it by (behind a port mapping), for the URLs it hands out; default its listening address (the image: CERTIFY_BASE_URL)',
    ),
  REFERENCE_PERSONALITY: oneOf('REFERENCE_PERSONALITY', PERSONALITY_NAMES).optional().meta({
    description:
      'reference; alternate: the other reasonable choice wherever the spec leaves one open; jsonwebtoken: session tokens verified with jsonwebtoken and jwks-rsa',
    default: 'reference',
  }),
  REFERENCE_OUTBOUND_HOST: z
    .string()
    .regex(/^[^\s/]+$/, 'REFERENCE_OUTBOUND_HOST must be a host name or address, e.g. 127.0.0.2')
    .optional()
    .describe(
      'deliver webhooks and fetch JWKS only from this host, as a service on another machine would; default anywhere',
    ),
  REFERENCE_LATENCY_MS: condition(parseLatency)
    .optional()
    .describe(
      'added to every round trip (API, control, deliveries, JWKS fetches), ms, optionally ± a jitter: 60 or 60,5',
    ),
  REFERENCE_RATE_LIMIT: condition(parseRateLimit)
    .optional()
    .describe('token buckets on /v1, requests/s: 10/workspace,50/client[,retry-after=seconds|date|none]'),
  REFERENCE_RESET_FRACTION: condition(
    numberParser(
      'REFERENCE_RESET_FRACTION',
      (v) => v >= 0 && v < 1,
      'a fraction at least 0 and below 1, e.g. 0.01 (1 request in 100)',
    ),
  )
    .optional()
    .describe('fraction of /v1 requests whose connection is reset before they are handled, e.g. 0.01'),
  REFERENCE_SEED: condition(
    numberParser(
      'REFERENCE_SEED',
      (v) => Number.isInteger(v) && v >= 0 && v < 2 ** 32,
      'a whole number from 0 to 4294967295, e.g. 42',
    ),
  )
    .optional()
    .meta({ description: 'seeds which requests are reset and the jitter', default: '1' }),
  REFERENCE_MAX_TIME_SCALE: condition(
    numberParser('REFERENCE_MAX_TIME_SCALE', (v) => v >= 1, 'a number ≥ 1 (1 = real time only), e.g. 600'),
  )
    .optional()
    .meta({ description: 'the largest time scale a workspace may have', default: '3600' }),
  REFERENCE_TLS_CERT: readableFile('REFERENCE_TLS_CERT')
    .optional()
    .describe('serve HTTPS with this PEM certificate (with REFERENCE_TLS_KEY)'),
  REFERENCE_TLS_KEY: readableFile('REFERENCE_TLS_KEY').optional().describe('the PEM private key of REFERENCE_TLS_CERT'),
  REFERENCE_TLS_CLIENT_CA: readableFile('REFERENCE_TLS_CLIENT_CA')
    .optional()
    .describe('require a client certificate issued by this PEM CA (mutual TLS)'),
  REFERENCE_TOKEN_FILE: z
    .string()
    .min(1)
    .default('reports/reference-control-token')
    .describe('where `svc-harness reference` writes the control token (mode 0600)'),
});

export type ReferenceSettingName = keyof typeof FIELDS.shape;

export interface ReferenceSettings {
  /** What `startReference` takes from the settings; only the ones set appear. */
  options: ReferenceOptions;
  /** Where `svc-harness reference` writes the control token. */
  tokenFile: string;
}

const KNOWN_NAMES = new Set<string>(Object.keys(FIELDS.shape));

export function referenceSettingsHelp(): SettingHelp[] {
  return describeFields(FIELDS.shape);
}

/** Validates the REFERENCE_ names of `sources`; other names are not this schema's. */
export function parseReferenceSettings(sources: Record<string, string>): ReferenceSettings {
  registerSecret(sources['REFERENCE_CONTROL_TOKEN']);
  const { owned, unknown } = ownedSettings(sources, [PREFIX], KNOWN_NAMES);
  if (unknown.length > 0)
    throw new SettingsError(`unknown setting ${unknown.join(', ')} (known: ${[...KNOWN_NAMES].join(', ')})`);
  // Before the fields: a path that names no file matters less than a missing half of the pair.
  const { REFERENCE_TLS_CERT: cert, REFERENCE_TLS_KEY: key, REFERENCE_TLS_CLIENT_CA: clientCa } = owned;
  if ((cert === undefined) !== (key === undefined)) {
    const [missing, given] =
      cert === undefined ? ['REFERENCE_TLS_CERT', 'REFERENCE_TLS_KEY'] : ['REFERENCE_TLS_KEY', 'REFERENCE_TLS_CERT'];
    throw new SettingsError(
      `${missing} must be set with ${given}: both paths of PEM files, e.g. REFERENCE_TLS_CERT=server.pem REFERENCE_TLS_KEY=server-key.pem`,
    );
  }
  if (clientCa !== undefined && cert === undefined) {
    throw new SettingsError(
      'REFERENCE_TLS_CLIENT_CA needs REFERENCE_TLS_CERT and REFERENCE_TLS_KEY (the server speaks TLS first), e.g. REFERENCE_TLS_CERT=server.pem REFERENCE_TLS_KEY=server-key.pem REFERENCE_TLS_CLIENT_CA=ca.pem',
    );
  }
  const result = FIELDS.safeParse(owned);
  if (!result.success) throw new SettingsError(firstIssue(result.error));
  const s = result.data;

  const network: NetworkConditions = {
    ...s.REFERENCE_LATENCY_MS,
    ...defined({
      rateLimit: s.REFERENCE_RATE_LIMIT,
      resetFraction: s.REFERENCE_RESET_FRACTION,
      seed: s.REFERENCE_SEED,
    }),
  };
  const tls: ReferenceTls | undefined =
    s.REFERENCE_TLS_CERT !== undefined && s.REFERENCE_TLS_KEY !== undefined
      ? {
          certPath: s.REFERENCE_TLS_CERT,
          keyPath: s.REFERENCE_TLS_KEY,
          ...defined({ clientCaPath: s.REFERENCE_TLS_CLIENT_CA }),
        }
      : undefined;
  const options: ReferenceOptions = {
    ...defined({
      port: s.REFERENCE_PORT,
      propagationMs: s.REFERENCE_PROPAGATION_MS,
      environment: s.REFERENCE_ENVIRONMENT,
      controlToken: s.REFERENCE_CONTROL_TOKEN,
      publicBaseUrl: s.REFERENCE_PUBLIC_BASE_URL,
      personality: s.REFERENCE_PERSONALITY,
      outboundHost: s.REFERENCE_OUTBOUND_HOST,
      maxTimeScale: s.REFERENCE_MAX_TIME_SCALE,
      tls,
    }),
    ...(Object.keys(network).length > 0 ? { network } : {}),
  };
  return { options, tokenFile: s.REFERENCE_TOKEN_FILE };
}

export function loadReferenceSettings(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): ReferenceSettings {
  return parseReferenceSettings(readSettingSources(env, cwd));
}

/** `fields` without the unset ones, so that the options name only what was asked for. */
function defined<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
}
