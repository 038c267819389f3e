/**
 * What the receiver answers (Events > Signature, 4): the reference receiver answers 204 on
 * success and 401 on a bad delivery; any 2xx acknowledges and any other answer rejects,
 * so other codes are `should`, and the codes seen are recorded. These checks read every
 * exchange of the run so far; they send nothing.
 */
import { quantile } from '../timing.js';
import { skip, tally, type CheckFn } from '../context.js';
import { acknowledged, type Exchange } from '../sender.js';

const deliveries = (log: readonly Exchange[], purpose: 'valid' | 'invalid') => log.filter((e) => e.purpose === purpose);

export const statusReject401: CheckFn = async (env) => {
  const invalid = deliveries(env.sender.log, 'invalid');
  if (invalid.length === 0) skip('no delivery that must be rejected was sent');
  const other = invalid.filter((e) => e.status !== 401);
  if (other.length === 0) return { passed: true, detail: `all ${invalid.length} deliveries that must be rejected were answered 401` };
  const labels = [...new Set(other.map((e) => e.label))].slice(0, 5).join('; ');
  return { passed: false, detail: `${other.length} of ${invalid.length} deliveries that must be rejected were not answered 401 (${tally(other)}), e.g. ${labels}` };
};

export const statusSuccess204: CheckFn = async (env) => {
  const acked = deliveries(env.sender.log, 'valid').filter(acknowledged);
  if (acked.length === 0) skip('no valid delivery was acknowledged');
  const other = acked.filter((e) => e.status !== 204);
  if (other.length === 0) return { passed: true, detail: `all ${acked.length} acknowledgements were 204` };
  return { passed: false, detail: `${other.length} of ${acked.length} acknowledgements were not 204 (${tally(other)})` };
};

export const statusCodes: CheckFn = async (env) => {
  const valid = deliveries(env.sender.log, 'valid');
  const invalid = deliveries(env.sender.log, 'invalid');
  const counts = (list: readonly Exchange[]) => Object.fromEntries(tally(list).split(', ').filter(Boolean).map((part) => part.split(' x')).map(([k, n]) => [k, Number(n)]));
  return {
    passed: true,
    detail: `valid deliveries: ${tally(valid) || 'none'}; deliveries that must be rejected: ${tally(invalid) || 'none'}`,
    measurements: { valid: counts(valid), invalid: counts(invalid) },
  };
};

export const ackLatency: CheckFn = async (env) => {
  const times = deliveries(env.sender.log, 'valid').filter(acknowledged).map((e) => e.durationMs);
  if (times.length === 0) skip('no valid delivery was acknowledged');
  const r = (q: number) => Math.round(quantile(times, q));
  const measurements = { acknowledgements: times.length, p50_ms: r(0.5), p95_ms: r(0.95), max_ms: r(1), timeout_ms: env.settings.timeoutMs, spec_timeout_ms: 30_000 };
  return {
    passed: true,
    detail: `${times.length} acknowledgements: median ${measurements.p50_ms} ms, p95 ${measurements.p95_ms} ms, max ${measurements.max_ms} ms (time-out used ${env.settings.timeoutMs} ms; the spec allows 30 000 ms)`,
    measurements,
  };
};
