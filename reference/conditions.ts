import type { ReferenceOptions } from './options.js';

// The conditions a reference plays (README: "Network conditions"), in words, for the banner
// of whatever starts it (`svc-harness reference`); the REFERENCE_* variables that ask for them
// are read by the harness's settings (src/config/reference-settings.ts).

export type ReferenceConditions = Pick<ReferenceOptions, 'network' | 'tls' | 'maxTimeScale'>;

/** One line per active condition, for a banner; none when the reference runs as on loopback. */
export function describeConditions(conditions: ReferenceConditions): string[] {
  const lines: string[] = [];
  const { network, tls, maxTimeScale } = conditions;
  if (network?.latencyMs || network?.jitterMs) {
    lines.push(
      `latency: ${network.latencyMs ?? 0} ms${network.jitterMs ? ` ± ${network.jitterMs} ms` : ''} on every round trip (API, control, deliveries, JWKS fetches)`,
    );
  }
  const limit = network?.rateLimit;
  if (limit && (limit.perWorkspace !== undefined || limit.perClient !== undefined)) {
    const rates = [
      ...(limit.perWorkspace !== undefined ? [`${limit.perWorkspace}/s per workspace`] : []),
      ...(limit.perClient !== undefined ? [`${limit.perClient}/s per client address`] : []),
    ];
    const form = limit.retryAfter ?? 'seconds';
    lines.push(
      `rate limit: ${rates.join(', ')} on /v1; 429 rate_limited ${form === 'none' ? 'without Retry-After' : `with Retry-After as ${form === 'date' ? 'an HTTP date' : 'seconds'}`}`,
    );
  }
  if (network?.resetFraction)
    lines.push(
      `resets: ${network.resetFraction} of /v1 requests have their connection reset (seed ${network.seed ?? 1})`,
    );
  if (maxTimeScale !== undefined) lines.push(`max_time_scale: ${maxTimeScale}`);
  if (tls)
    lines.push(
      `TLS: ${tls.certPath}${tls.clientCaPath ? `; client certificates required, from the CA in ${tls.clientCaPath}` : ''}`,
    );
  return lines;
}
