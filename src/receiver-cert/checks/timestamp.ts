/**
 * Timestamps (Events > Signature, 2 and 3): rejected beyond 300 s from the receiver's
 * clock, accepted within. The ±299/±301 s checks aim at the receiver's clock, not the
 * harness's: its offset comes from the Date headers of its answers (RCV-CLOCK-OFFSET),
 * and each verdict is drawn only when the bounds of the real difference (offset
 * uncertainty and time in flight included) stay on one side of 300 s; otherwise the
 * delivery is tried again, and after three inconclusive tries the check is skipped.
 */
import { skewBounds, type OffsetEstimate } from '../../clock/date-offset.js';
import { envelopeBody } from '../fixtures.js';
import { expectRejected, requireBaseline, type CheckFn, type ReceiverCheck } from '../context.js';
import { acknowledged, describeAnswer, unixSeconds, type Exchange } from '../sender.js';
import { sleep } from '../../clock/wait.js';
import { check, receiverSuite } from '../registry.js';
import { round1 } from '../../stats/summary.js';

const TOLERANCE_S = 300;
/**
 * Time allowed, in seconds, between computing a timestamp and the receiver reading its
 * clock: three recent round trips, within these bounds. A late arrival only makes the
 * verdict inconclusive (the delivery is tried again), never wrong.
 */
const ARRIVAL_ALLOWANCE_S = { min: 0.1, max: 1 };
const MAX_TRIES = 3;
/** Probes sent to narrow the clock offset, each timed to land on a second boundary. */
const REFINE_ROUNDS = 5;

/** Sends up to REFINE_ROUNDS unsigned probes (rejected deliveries), each aimed at the receiver's next second boundary. */
async function refineOffset(t: ReceiverCheck): Promise<void> {
  const { sender } = t;
  for (let round = 0; round < REFINE_ROUNDS; round++) {
    const est = sender.clock.estimate();
    if (est.basis !== 'date-headers') return;
    const rttMs = recentRoundTripMs(sender.log);
    if (est.hi - est.lo <= Math.max(0.05, (2 * rttMs) / 1000 + 0.02)) return;
    const at = sender.clock.nextProbeAtMs(Date.now(), rttMs);
    await sleep(at - Date.now());
    await sender.deliver({
      purpose: 'invalid',
      label: 'clock probe (unsigned)',
      body: envelopeBody().body,
      signature: null,
    });
  }
}

function recentRoundTripMs(log: readonly Exchange[]): number {
  const times = log
    .filter((e) => e.status !== null && e.purpose !== 'count')
    .slice(-10)
    .map((e) => e.durationMs);
  return times.length === 0 ? 5 : Math.min(...times);
}

type Direction = 'behind' | 'ahead';

/** The timestamp to send, computed at send time from the harness clock and the offset bounds. */
function timestampFor(
  nowMs: number,
  est: OffsetEstimate,
  allowanceS: number,
  direction: Direction,
  seconds: number,
  expect: 'reject' | 'accept',
): number {
  const now = nowMs / 1000;
  // Receiver clock at arrival lies in [now + lo, now + hi + allowance]. Choose the side that
  // keeps the true difference beyond 300 s (reject) or within it (accept).
  const earliest = Math.floor(now + est.lo);
  const latest = Math.ceil(now + est.hi + allowanceS);
  if (direction === 'behind') return expect === 'reject' ? earliest - seconds : latest - seconds;
  return expect === 'reject' ? latest + seconds : earliest + seconds;
}

function timestampCheck(direction: Direction, seconds: number, expect: 'reject' | 'accept'): CheckFn {
  return async (t) => {
    if (expect === 'reject') requireBaseline(t);
    const tries: string[] = [];
    for (let attempt = 1; attempt <= MAX_TRIES; attempt++) {
      const est = t.sender.clock.estimate();
      const allowanceS =
        Math.min(
          ARRIVAL_ALLOWANCE_S.max,
          Math.max(ARRIVAL_ALLOWANCE_S.min, (3 * recentRoundTripMs(t.sender.log)) / 1000),
        ) * attempt;
      let sent = 0;
      const exchange = await t.sender.deliver({
        purpose: expect === 'reject' ? 'invalid' : 'valid',
        label: `timestamp ${seconds} s ${direction}`,
        body: envelopeBody().body,
        timestamp: (nowMs) => String((sent = timestampFor(nowMs, est, allowanceS, direction, seconds, expect))),
      });
      const bounds = skewBounds(sent, exchange.sentAtMs, exchange.receivedAtMs, est)[direction];
      const range = `${bounds[0].toFixed(1)}-${bounds[1].toFixed(1)} s ${direction === 'behind' ? 'behind' : 'ahead of'} the receiver's clock`;
      t.measureAll({
        skew_min_s: round1(bounds[0]),
        skew_max_s: round1(bounds[1]),
        offset_ms: Math.round(est.offset * 1000),
        tries: attempt,
      });
      const acked = acknowledged(exchange);
      if (expect === 'accept') {
        if (acked) return t.detail(`acknowledged (${describeAnswer(exchange)}) a timestamp ${range}`);
        if (exchange.status === null) t.fail(`a timestamp ${range}: ${describeAnswer(exchange)}`, exchange);
        if (bounds[1] < TOLERANCE_S)
          t.fail(`rejected (${describeAnswer(exchange)}) a timestamp ${range}, within the 300 s tolerance`, exchange);
      } else {
        if (!acked) return t.detail(`rejected (${describeAnswer(exchange)}) a timestamp ${range}`);
        if (bounds[0] > TOLERANCE_S)
          t.fail(
            `acknowledged (${describeAnswer(exchange)}) a timestamp ${range}, beyond the 300 s tolerance`,
            exchange,
          );
      }
      tries.push(`try ${attempt}: ${describeAnswer(exchange)} for ${range}`);
    }
    t.skip(`inconclusive: the answer came too late to tell which side of 300 s the receiver saw (${tries.join('; ')})`);
  };
}

receiverSuite('receiver-timestamp', () => {
  check('RCV-CLOCK-OFFSET', async (t) => {
    await refineOffset(t);
    const est = t.sender.clock.estimate();
    const ms = (s: number) => Math.round(s * 1000);
    t.measureAll({
      offset_ms: ms(est.offset),
      offset_lo_ms: ms(est.lo),
      offset_hi_ms: ms(est.hi),
      date_headers: est.samples,
      basis: est.basis,
    });
    if (est.basis === 'assumed') {
      t.detail(
        `no Date header in the receiver's answers: the ±299/±301 s checks assume the clocks agree within ±${est.hi} s`,
      );
      return;
    }
    const side = est.offset >= 0 ? 'ahead of' : 'behind';
    let detail = `receiver clock ${Math.abs(est.offset).toFixed(3)} s ${side} the harness (between ${est.lo.toFixed(3)} and ${est.hi.toFixed(3)} s, from ${est.samples} Date headers)`;
    if (est.basis === 'inconsistent-date-headers')
      detail += '; the Date headers disagree (several servers with different clocks?), so the median is used with ±1 s';
    if (Math.abs(est.offset) > 5)
      detail += `; a ${Math.round(Math.abs(est.offset))} s difference eats into the 300 s window: check NTP on both sides`;
    t.detail(detail);
  });

  check('RCV-REJECT-TIMESTAMP-PAST-301', timestampCheck('behind', 301, 'reject'));

  check('RCV-REJECT-TIMESTAMP-FUTURE-301', timestampCheck('ahead', 301, 'reject'));

  check('RCV-ACCEPT-TIMESTAMP-PAST-299', timestampCheck('behind', 299, 'accept'));

  check('RCV-ACCEPT-TIMESTAMP-FUTURE-299', timestampCheck('ahead', 299, 'accept'));

  check('RCV-REJECT-TIMESTAMP-MISSING', (t) =>
    expectRejected(t, [
      { purpose: 'invalid', label: 'no header', body: envelopeBody().body, timestamp: null },
      { purpose: 'invalid', label: 'empty header', body: envelopeBody().body, timestamp: '' },
    ]),
  );

  check('RCV-REJECT-TIMESTAMP-NON-NUMERIC', (t) =>
    expectRejected(t, [
      { purpose: 'invalid', label: '"abc"', body: envelopeBody().body, timestamp: 'abc' },
      { purpose: 'invalid', label: '"now"', body: envelopeBody().body, timestamp: 'now' },
    ]),
  );

  // These carry the current time in a form other than Unix seconds: a lenient parser
  // (parseInt, Date.parse) still reads a fresh time from them, so accepting them defeats no
  // replay protection; the spec's form is Unix seconds, hence `should`.
  check('RCV-REJECT-TIMESTAMP-LENIENT', (t) =>
    expectRejected(t, [
      {
        purpose: 'invalid',
        label: 'ISO 8601 date of now',
        body: envelopeBody().body,
        timestamp: (nowMs) => new Date(nowMs).toISOString(),
      },
      {
        purpose: 'invalid',
        label: 'now followed by "abc"',
        body: envelopeBody().body,
        timestamp: (nowMs) => `${unixSeconds(nowMs)}abc`,
      },
    ]),
  );

  check('RCV-REJECT-TIMESTAMP-MILLISECONDS', (t) =>
    expectRejected(t, [
      {
        purpose: 'invalid',
        label: 'now in Unix milliseconds',
        body: envelopeBody().body,
        timestamp: (nowMs) => String(nowMs),
      },
    ]),
  );
});
