/**
 * What the receiver answers (Events > Signature, 4): any 2xx acknowledges and any other
 * answer rejects. The reference receiver answers 204 and 401; the spec names them as what
 * the reference does, not as a rule, so whether a receiver matches them is only recorded
 * (observe). These checks read every exchange of the run so far; they send nothing.
 */
import { quantile } from '../../stats/summary.js';
import { tally } from '../context.js';
import { acknowledged, type Exchange } from '../sender.js';
import { check, receiverSuite } from '../registry.js';

const deliveries = (log: readonly Exchange[], purpose: 'valid' | 'invalid') => log.filter((e) => e.purpose === purpose);

receiverSuite('receiver-status', () => {
  check('RCV-STATUS-REJECT-401', async (t) => {
    const invalid = deliveries(t.sender.log, 'invalid');
    if (invalid.length === 0) t.skip('no delivery that must be rejected was sent');
    const other = invalid.filter((e) => e.status !== 401);
    t.measure('not_401', other.length);
    t.detail(
      other.length === 0
        ? `all ${invalid.length} deliveries that must be rejected were answered 401, as the reference receiver does`
        : `${other.length} of ${invalid.length} deliveries that must be rejected were answered otherwise than 401 (${tally(other)}); the spec requires only a non-2xx`,
    );
  });

  check('RCV-STATUS-SUCCESS-204', async (t) => {
    const acked = deliveries(t.sender.log, 'valid').filter(acknowledged);
    if (acked.length === 0) t.skip('no valid delivery was acknowledged');
    const other = acked.filter((e) => e.status !== 204);
    t.measure('not_204', other.length);
    t.detail(
      other.length === 0
        ? `all ${acked.length} acknowledgements were 204, as the reference receiver does`
        : `${other.length} of ${acked.length} acknowledgements were another 2xx than 204 (${tally(other)}); any 2xx acknowledges`,
    );
  });

  check('RCV-STATUS-CODES', async (t) => {
    const valid = deliveries(t.sender.log, 'valid');
    const invalid = deliveries(t.sender.log, 'invalid');
    const counts = (list: readonly Exchange[]) =>
      Object.fromEntries(
        tally(list)
          .split(', ')
          .filter(Boolean)
          .map((part) => part.split(' x'))
          .map(([k, n]) => [k, Number(n)]),
      );
    t.measureAll({ valid: counts(valid), invalid: counts(invalid) });
    t.detail(
      `valid deliveries: ${tally(valid) || 'none'}; deliveries that must be rejected: ${tally(invalid) || 'none'}`,
    );
  });

  check('RCV-ACK-LATENCY', async (t) => {
    const times = deliveries(t.sender.log, 'valid')
      .filter(acknowledged)
      .map((e) => e.durationMs);
    if (times.length === 0) t.skip('no valid delivery was acknowledged');
    const r = (q: number) => Math.round(quantile(times, q));
    const measurements = {
      acknowledgements: times.length,
      p50_ms: r(0.5),
      p95_ms: r(0.95),
      max_ms: r(1),
      timeout_ms: t.settings.timeoutMs,
      spec_timeout_ms: 30_000,
    };
    t.measureAll(measurements);
    t.detail(
      `${times.length} acknowledgements: median ${measurements.p50_ms} ms, p95 ${measurements.p95_ms} ms, max ${measurements.max_ms} ms (time-out used ${t.settings.timeoutMs} ms; the spec allows 30 000 ms)`,
    );
  });
});
