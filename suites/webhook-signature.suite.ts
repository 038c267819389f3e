/**
 * Signatures and timestamps (Events > Signature): the signature is the lowercase hex
 * HMAC-SHA256 of the raw body under the endpoint's secret; the timestamp is the delivery
 * time of each attempt in Unix seconds and is not signed.
 */
import type { CapturedDelivery } from '../src/capturing-receiver/types.js';
import { assert, certifySuite, check, type CheckContext } from '../src/suite/index.js';
import { measureClockOffset } from '../src/suite/webhook-observation/clock.js';
import { eventTour, firedData, idOf, settle, typeCounts, typeOf } from '../src/suite/webhook-observation/events.js';
import { describeBadSignature, signatureOf, timestampOf } from '../src/suite/webhook-observation/signature.js';
import { describeClock, readTimestamp, timestampOffsetsMs } from '../src/suite/webhook-observation/timestamps.js';
import { describeHarnessClock, harnessClock } from '../src/clock/source.js';
import type { Tour } from '../src/suite/webhook-observation/events.js';
import type { ClockOffset } from '../src/suite/webhook-observation/clock.js';

/** The scale at which the first two retries come 1 s and 5 s after the failures. */
const RETRY_SCALE = 60;
const FIRST_RETRIES_MS = [60_000, 300_000];
/** Longest wait for the scaled retries this suite accepts in one check. */
const MAX_SCHEDULE_MS = 40_000;
/** Room around the scaled schedule for dispatch and delivery. */
const SCHEDULE_SLACK_MS = 8_000;
/** Consecutive timestamps must be as far apart as their arrivals, within this. */
const INTERVAL_TOLERANCE_MS = 1_500;
/** Events > Signature, 3: a receiver rejects a timestamp further than this from its clock. */
const RECEIVER_WINDOW_MS = 300_000;
/** A service clock further than this from the harness's warns (HOOK-TIMESTAMP-CLOCK-SYNC). */
const CLOCK_SYNC_MS = 5_000;

/** Fails when some event types of the tour never arrived: the rule was not checked on them. */
function expectWholeTour(tour: Tour): void {
  assert(
    tour.missing.length === 0,
    `no delivery of ${tour.missing.join(', ')} arrived, so the rule could not be checked on them (see HOOK-ENVELOPE)`,
  );
}

/** A time scale giving the first `retries` retries within MAX_SCHEDULE_MS, or a skip. */
async function retryScale(t: CheckContext, retries: number): Promise<{ scale: number; waitMs: number }> {
  const { max_time_scale: max } = await t.capabilities();
  const scale = Math.max(1, Math.min(max, RETRY_SCALE));
  const scheduleMs = FIRST_RETRIES_MS.slice(0, retries).reduce((sum, ms) => sum + ms, 0) / scale;
  if (scheduleMs > MAX_SCHEDULE_MS) {
    t.skip(
      `needs time scale ${RETRY_SCALE} to see ${retries} retries within ${MAX_SCHEDULE_MS / 1000} s; the target's max_time_scale is ${max} (${Math.round(scheduleMs / 1000)} s)`,
    );
  }
  return { scale, waitMs: scheduleMs + SCHEDULE_SLACK_MS };
}

/** Fires one event at an endpoint that fails its first `failures` attempts, and waits for attempt failures + 1. */
async function failedThenAcked(t: CheckContext, failures: number) {
  const { scale, waitMs } = await retryScale(t, failures);
  const [workspace, clock] = await Promise.all([t.workspace({ timeScale: scale }), measureClockOffset(t.api)]);
  const hook = await t.hookEndpoint(workspace, ['mailer.email.sent']);
  hook.inbox.failFirst(failures, { status: 500 });
  const eventId = await workspace.fireEvent('mailer.email.sent', firedData('mailer.email.sent'));
  const attempts = (ds: readonly CapturedDelivery[]) => ds.filter((d) => idOf(d) === eventId);
  const { deliveries, timedOut } = await settle(
    hook.inbox,
    (ds) => attempts(ds).length > failures,
    waitMs,
    `attempt ${failures + 1} of ${eventId}`,
  );
  const seen = attempts(deliveries);
  assert(
    !timedOut,
    `after ${failures} answered 500, attempt ${failures + 1} of ${eventId} did not arrive within ${Math.round(waitMs / 1000)} s at time scale ${scale}; ${seen.length} attempt(s) arrived`,
  );
  return { hook, eventId, attempts: seen.slice(0, failures + 1), clock, scale };
}

/**
 * Three attempts of one event (two answered 500), their timestamps read, and the assertions no
 * stall can cause (unreadable, equal or skewed timestamps); `offInterval` says how two attempts'
 * timestamps differ from their arrivals by more than INTERVAL_TOLERANCE_MS, which a stall can.
 */
async function stampedAttempts(t: CheckContext) {
  const { attempts, clock, scale } = await failedThenAcked(t, 2);
  const readings = attempts.map((delivery) => readTimestamp(delivery, clock));
  const start = attempts[0]?.receivedAtMs ?? 0;
  const startSeconds = readings[0]?.seconds ?? 0;
  t.measure(
    'arrival_ms',
    attempts.map((d) => d.receivedAtMs - start),
  );
  t.measure(
    'timestamp_ms',
    readings.map((r) => (r.seconds === undefined ? null : (r.seconds - startSeconds) * 1000)),
  );
  t.measure(
    'skew_ms',
    readings.map((r) => r.skewMs ?? null),
  );
  // Unreadable values first, then equal timestamps (the clearest symptom of reuse), then each against its arrival.
  readings.forEach((reading, i) =>
    assert(reading.skewMs !== undefined || !reading.problem, `attempt ${i + 1}: ${reading.problem}`),
  );
  const gap = (i: number) => (attempts[i]?.receivedAtMs ?? 0) - (attempts[i - 1]?.receivedAtMs ?? 0);
  for (let i = 1; i < attempts.length; i++) {
    const [a, b] = [readings[i - 1]?.seconds, readings[i]?.seconds];
    assert(
      a !== b,
      `attempts ${i} and ${i + 1}, ${(gap(i) / 1000).toFixed(1)} s apart, carry the same timestamp ${a}: expected each attempt's own delivery time`,
    );
  }
  readings.forEach((reading, i) => assert(!reading.problem, `attempt ${i + 1}: ${reading.problem}`));
  let offInterval: string | undefined;
  for (let i = 1; i < attempts.length && !offInterval; i++) {
    const stampGap = ((readings[i]?.seconds ?? 0) - (readings[i - 1]?.seconds ?? 0)) * 1000;
    if (Math.abs(stampGap - gap(i)) > INTERVAL_TOLERANCE_MS)
      offInterval = `attempts ${i} and ${i + 1} arrived ${gap(i)} ms apart but their timestamps are ${stampGap} ms apart (tolerance ${INTERVAL_TOLERANCE_MS} ms)`;
  }
  return { attempts, readings, clock, scale, offInterval };
}

certifySuite('webhook-signature', () => {
  check(
    'HOOK-SIGNATURE-RAW-BODY',
    async (t) => {
      const tour = await eventTour(t, ['*']);
      expectWholeTour(tour);
      const bad: string[] = [];
      for (const { leg, delivery } of tour.deliveries) {
        if (delivery.verdicts.signature !== 'no-secret' && delivery.verdicts.signature.ok) continue;
        bad.push(`${typeOf(delivery) ?? '?'}: ${describeBadSignature(leg.hook.registered.secret, delivery)}`);
      }
      t.measure('deliveries', tour.deliveries.length);
      t.measure('bad_signatures', bad.length);
      assert(tour.deliveries.length > 0, 'no delivery arrived to check');
      assert(
        bad.length === 0,
        `${bad.length} of ${tour.deliveries.length} signatures are not the lowercase hex HMAC-SHA256 of the raw body; first ${bad[0]}`,
      );
      t.detail(
        `${tour.deliveries.length} deliveries (${typeCounts(tour.deliveries.map(({ delivery }) => delivery))}), every signature verified over the raw bytes`,
      );
    },
    { timeoutMs: 40_000 },
  );

  // One tour and one clock reading serve the three timestamp checks below.
  let timed: Promise<{ tour: Tour; clock: ClockOffset | undefined }> | undefined;
  const timedTour = (t: CheckContext) =>
    (timed ??= Promise.all([eventTour(t, ['*']), measureClockOffset(t.api)]).then(([tour, clock]) => ({
      tour,
      clock,
    })));

  check(
    'HOOK-TIMESTAMP-DELIVERY-TIME',
    async (t) => {
      const { tour, clock } = await timedTour(t);
      const readings = tour.deliveries.map(({ delivery }) => ({ delivery, reading: readTimestamp(delivery, clock) }));
      t.measure('clock_offset_ms', clock?.offsetMs ?? null);
      t.measure('clock_uncertainty_ms', clock?.uncertaintyMs ?? null);
      t.measure(
        'skew_ms',
        readings.map(({ reading }) => reading.skewMs ?? null),
      );
      assert(readings.length > 0, 'no delivery arrived to check');
      expectWholeTour(tour);
      const bad = readings.filter(({ reading }) => reading.problem);
      const first = bad[0];
      if (first)
        t.fail(
          `${bad.length} of ${readings.length} deliveries: ${typeOf(first.delivery) ?? '?'}: ${first.reading.problem}`,
        );
      const skews = readings.map(({ reading }) => reading.skewMs ?? 0);
      t.detail(
        `${readings.length} timestamps within ${Math.min(...skews)}..${Math.max(...skews)} ms of arrival; ${describeClock(clock)}`,
      );
    },
    { timeoutMs: 40_000 },
  );

  // The two below judge the timestamp against the harness's clock, uncorrected: a receiver
  // with a correct clock rejects what is more than 300 s off, however consistent the
  // service's own clock is. The harness's clock is named so a user can rule it out.
  check(
    'HOOK-TIMESTAMP-CLOCK-OFFSET',
    async (t) => {
      const { tour, clock } = await timedTour(t);
      const offsets = timestampOffsetsMs(tour.deliveries.map(({ delivery }) => delivery));
      assert(offsets.length > 0, 'no delivery with an integer timestamp arrived to check');
      const harness = harnessClock();
      const worst = offsets.reduce((a, b) => (Math.abs(b) > Math.abs(a) ? b : a));
      t.measure('harness_clock', harness);
      t.measure('worst_offset_ms', worst);
      t.measure('date_header_offset_ms', clock?.offsetMs ?? null);
      assert(
        Math.abs(worst) <= RECEIVER_WINDOW_MS,
        `a timestamp was ${(worst / 1000).toFixed(1)} s from the harness's clock at arrival: a receiver with a correct clock rejects beyond ${RECEIVER_WINDOW_MS / 1000} s (the service's Date headers say ${clock ? `${(clock.offsetMs / 1000).toFixed(1)} s` : 'nothing'}; ${describeHarnessClock(harness)})`,
      );
      t.detail(
        `${offsets.length} timestamps at most ${(Math.abs(worst) / 1000).toFixed(1)} s from the harness's clock at arrival (receivers reject beyond 300 s); ${describeHarnessClock(harness)}`,
      );
    },
    { timeoutMs: 40_000 },
  );

  check(
    'HOOK-TIMESTAMP-CLOCK-SYNC',
    async (t) => {
      const { tour } = await timedTour(t);
      const offsets = timestampOffsetsMs(tour.deliveries.map(({ delivery }) => delivery));
      assert(offsets.length > 0, 'no delivery with an integer timestamp arrived to check');
      const median = [...offsets].sort((a, b) => a - b)[Math.floor(offsets.length / 2)]!;
      t.measure('median_offset_ms', median);
      assert(
        Math.abs(median) <= CLOCK_SYNC_MS,
        `the service's timestamps run ${(median / 1000).toFixed(1)} s ${median > 0 ? 'ahead of' : 'behind'} the harness's clock (median of ${offsets.length}): its clock is off, and receivers allow only ${RECEIVER_WINDOW_MS / 1000} s in all (${describeHarnessClock(harnessClock())})`,
      );
      t.detail(
        `the service's timestamps are within ${(Math.abs(median) / 1000).toFixed(1)} s of the harness's clock (median of ${offsets.length}; warned beyond ${CLOCK_SYNC_MS / 1000} s)`,
      );
    },
    { timeoutMs: 40_000 },
  );

  check(
    'HOOK-TIMESTAMP-NOT-SIGNED',
    async (t) => {
      const { hook, attempts, scale } = await failedThenAcked(t, 1);
      const secret = hook.registered.secret;
      const [first, second] = attempts as [CapturedDelivery, CapturedDelivery];
      for (const [name, delivery] of [
        ['first', first],
        ['retried', second],
      ] as const) {
        const verdict = delivery.verdicts.signature;
        assert(
          verdict !== 'no-secret' && verdict.ok,
          `the ${name} attempt's signature does not verify over the body alone (timestamp ${timestampOf(delivery)}): ${describeBadSignature(secret, delivery)}`,
        );
      }
      const sameBody = first.rawBody.equals(second.rawBody);
      const differentTimestamps = timestampOf(first) !== timestampOf(second);
      t.measure('timestamps', [timestampOf(first), timestampOf(second)]);
      t.measure('same_body', sameBody);
      if (sameBody && differentTimestamps) {
        assert(
          signatureOf(first) === signatureOf(second),
          `two attempts with the same body and timestamps ${timestampOf(first)} and ${timestampOf(second)} carry different signatures: the timestamp is signed`,
        );
        t.detail(
          `same body, timestamps ${timestampOf(first)} and ${timestampOf(second)} (time scale ${scale}), same signature, verified over the body alone`,
        );
      } else {
        t.detail(
          `signatures verified over the body alone; the retry ${sameBody ? 'kept the same timestamp' : 'changed the body bytes'}, so equal signatures for different timestamps could not be observed`,
        );
      }
    },
    { timeoutMs: 60_000 },
  );

  // A timestamp off its arrival by more than the tolerance is measured once more on a fresh
  // endpoint and fails only if off both times: a wrong timestamp is wrong both times, a stall of
  // this machine (or the service's) between stamping and arrival seldom hits twice.
  check(
    'HOOK-TIMESTAMP-PER-ATTEMPT',
    async (t) => {
      const first = await stampedAttempts(t);
      const judged = first.offInterval ? await stampedAttempts(t) : first;
      const { readings, attempts, clock, scale } = judged;
      if (first.offInterval) t.measure('remeasured', [first.offInterval]);
      if (judged.offInterval)
        t.fail(first === judged ? judged.offInterval : `${first.offInterval}; measured again: ${judged.offInterval}`);
      t.detail(
        `${attempts.length} attempts at time scale ${scale}, timestamps ${readings.map((r) => r.header).join(', ')}, each matching its arrival; ${describeClock(clock)}${first.offInterval ? `; measured twice, the first time ${first.offInterval}` : ''}`,
      );
    },
    { timeoutMs: 2 * 60_000 },
  );
});
