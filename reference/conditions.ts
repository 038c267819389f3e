import { RETRY_AFTER_FORMS, type NetworkConditions, type RateLimitOptions, type RetryAfterForm } from './http/conditions.js';
import type { ReferenceOptions } from './index.js';

// The conditions a reference started from the environment plays (README: "Network
// conditions"), read in this one place by both commands that start it (`npm run reference`
// and the embedded target of `npm run certify`), so the two never read a variable differently.

export type ReferenceConditions = Pick<ReferenceOptions, 'network' | 'tls' | 'maxTimeScale'>;

type Env = Record<string, string | undefined>;

const NUMBER = String.raw`\d+(?:\.\d+)?`;
const LATENCY = new RegExp(`^(${NUMBER})(?:,(${NUMBER}))?$`);
const RATE = new RegExp(`^(${NUMBER})/(workspace|client)$`);

function malformed(name: string, raw: string, expected: string): Error {
  return new Error(`${name} must be ${expected}; got "${raw}"`);
}

/** The variable's value with blanks removed, or undefined when unset or empty. */
function read(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined) return undefined;
  const value = raw.replace(/\s+/g, '');
  return value === '' ? undefined : value;
}

function parseLatency(raw: string): Pick<NetworkConditions, 'latencyMs' | 'jitterMs'> {
  const match = LATENCY.exec(raw);
  if (!match) throw malformed('REFERENCE_LATENCY_MS', raw, 'milliseconds, optionally with a jitter after a comma, e.g. 60 or 60,5 (60 ms ± 5 ms)');
  const latencyMs = Number(match[1]);
  const jitterMs = match[2] === undefined ? 0 : Number(match[2]);
  if (jitterMs > latencyMs) throw malformed('REFERENCE_LATENCY_MS', raw, 'a jitter no larger than the latency, e.g. 60,5 (60 ms ± 5 ms)');
  return { latencyMs, jitterMs };
}

const RATE_LIMIT_EXAMPLE = 'e.g. 10/workspace,50/client or 10/workspace,50/client,retry-after=date (retry-after: seconds, date or none)';

function parseRateLimit(raw: string): RateLimitOptions {
  const limit: RateLimitOptions = {};
  for (const item of raw.split(',')) {
    const rate = RATE.exec(item);
    const key = rate?.[2] === 'workspace' ? 'perWorkspace' : 'perClient';
    if (rate && limit[key] === undefined && Number(rate[1]) > 0) {
      limit[key] = Number(rate[1]);
    } else if (item.startsWith('retry-after=') && limit.retryAfter === undefined && RETRY_AFTER_FORMS.includes(item.slice(12) as RetryAfterForm)) {
      limit.retryAfter = item.slice(12) as RetryAfterForm;
    } else {
      throw malformed('REFERENCE_RATE_LIMIT', raw, `requests per second per workspace and/or per client address, each once, ${RATE_LIMIT_EXAMPLE}`);
    }
  }
  if (limit.perWorkspace === undefined && limit.perClient === undefined) {
    throw malformed('REFERENCE_RATE_LIMIT', raw, `at least one rate, ${RATE_LIMIT_EXAMPLE}`);
  }
  return limit;
}

function parseNumber(name: string, raw: string, ok: (value: number) => boolean, expected: string): number {
  const value = /^[0-9.eE+-]+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isFinite(value) || !ok(value)) throw malformed(name, raw, expected);
  return value;
}

/**
 * The conditions the REFERENCE_* variables ask for; only the ones set appear in the result.
 * Throws an Error naming the variable, with a valid example, on a malformed value.
 */
export function referenceOptionsFromEnv(env: Env): ReferenceConditions {
  const result: ReferenceConditions = {};
  const network: NetworkConditions = {};
  const latency = read(env, 'REFERENCE_LATENCY_MS');
  if (latency !== undefined) Object.assign(network, parseLatency(latency));
  const rateLimit = read(env, 'REFERENCE_RATE_LIMIT');
  if (rateLimit !== undefined) network.rateLimit = parseRateLimit(rateLimit);
  const reset = read(env, 'REFERENCE_RESET_FRACTION');
  if (reset !== undefined) {
    network.resetFraction = parseNumber('REFERENCE_RESET_FRACTION', reset, (v) => v >= 0 && v < 1, 'a fraction at least 0 and below 1, e.g. 0.01 (1 request in 100)');
  }
  const seed = read(env, 'REFERENCE_SEED');
  if (seed !== undefined) {
    network.seed = parseNumber('REFERENCE_SEED', seed, (v) => Number.isInteger(v) && v >= 0 && v < 2 ** 32, 'a whole number from 0 to 4294967295, e.g. 42');
  }
  if (Object.keys(network).length > 0) result.network = network;

  const scale = read(env, 'REFERENCE_MAX_TIME_SCALE');
  if (scale !== undefined) {
    result.maxTimeScale = parseNumber('REFERENCE_MAX_TIME_SCALE', scale, (v) => v >= 1, 'a number ≥ 1 (1 = real time only), e.g. 600');
  }

  const certPath = env.REFERENCE_TLS_CERT || undefined;
  const keyPath = env.REFERENCE_TLS_KEY || undefined;
  const clientCaPath = env.REFERENCE_TLS_CLIENT_CA || undefined;
  if ((certPath === undefined) !== (keyPath === undefined)) {
    const missing = certPath === undefined ? 'REFERENCE_TLS_CERT' : 'REFERENCE_TLS_KEY';
    throw new Error(`${missing} must be set with ${missing === 'REFERENCE_TLS_CERT' ? 'REFERENCE_TLS_KEY' : 'REFERENCE_TLS_CERT'}: both paths of PEM files, e.g. REFERENCE_TLS_CERT=server.pem REFERENCE_TLS_KEY=server-key.pem`);
  }
  if (clientCaPath !== undefined && certPath === undefined) {
    throw new Error('REFERENCE_TLS_CLIENT_CA needs REFERENCE_TLS_CERT and REFERENCE_TLS_KEY (the server speaks TLS first), e.g. REFERENCE_TLS_CERT=server.pem REFERENCE_TLS_KEY=server-key.pem REFERENCE_TLS_CLIENT_CA=ca.pem');
  }
  if (certPath !== undefined && keyPath !== undefined) result.tls = { certPath, keyPath, ...(clientCaPath !== undefined ? { clientCaPath } : {}) };
  return result;
}

/** One line per active condition, for a banner; none when the reference runs as on loopback. */
export function describeConditions(conditions: ReferenceConditions): string[] {
  const lines: string[] = [];
  const { network, tls, maxTimeScale } = conditions;
  if (network?.latencyMs || network?.jitterMs) {
    lines.push(`latency: ${network.latencyMs ?? 0} ms${network.jitterMs ? ` ± ${network.jitterMs} ms` : ''} on every round trip (API, control, deliveries, JWKS fetches)`);
  }
  const limit = network?.rateLimit;
  if (limit && (limit.perWorkspace !== undefined || limit.perClient !== undefined)) {
    const rates = [
      ...(limit.perWorkspace !== undefined ? [`${limit.perWorkspace}/s per workspace`] : []),
      ...(limit.perClient !== undefined ? [`${limit.perClient}/s per client address`] : []),
    ];
    const form = limit.retryAfter ?? 'seconds';
    lines.push(`rate limit: ${rates.join(', ')} on /v1; 429 rate_limited ${form === 'none' ? 'without Retry-After' : `with Retry-After as ${form === 'date' ? 'an HTTP date' : 'seconds'}`}`);
  }
  if (network?.resetFraction) lines.push(`resets: ${network.resetFraction} of /v1 requests have their connection reset (seed ${network.seed ?? 1})`);
  if (maxTimeScale !== undefined) lines.push(`max_time_scale: ${maxTimeScale}`);
  if (tls) lines.push(`TLS: ${tls.certPath}${tls.clientCaPath ? `; client certificates required, from the CA in ${tls.clientCaPath}` : ''}`);
  return lines;
}
