/**
 * Retries, drop and endpoint states (Events > Retry and replay, 2-3; States and
 * transitions, webhook endpoint; Limits).
 *
 * - The early delays (1m, 5m) are measured at a low time scale, where they are long
 *   enough to be precise; the whole schedule at a high one (3600: 1m = 16.7 ms ... 24h =
 *   24 s). Delays are measured from the end of the failed attempt (its answer) to the
 *   arrival of the next, on the receiver's monotonic clock.
 * - "After six attempts the delivery is dropped" beside six retry delays: 1 + 6 retries
 *   = 7 attempts in all, or 6 in all. Both are accepted, and `detail` says which was seen;
 *   6 in all passes only if the sixth delay (24 h) still elapses before the drop (the
 *   endpoint is flagged no earlier than 24 h after the sixth attempt): a drop right after
 *   the sixth attempt leaves the schedule's 24 h delay out.
 * - The full-schedule endpoint must not auto-disable meanwhile (24 h scaled is shorter
 *   than the schedule): filler events of another type go to it every 2 h (scaled) and are
 *   acknowledged, so its failures are never 24 h consecutive.
 * - Auto-disable: whether the 24 h runs on a timer or is noticed at the next failure is
 *   not specified: a transition between 24 h and 24 h + one event interval (+ tolerance)
 *   after the first failed attempt is accepted.
 */
import type { CapturedDelivery } from '../src/receiver/types.js';
import type { EndpointStatus } from '../src/control/types.js';
import { assert, certifySuite, check, type CheckContext, type HookedEndpoint, type TestWorkspace } from '../src/suite/index.js';
import {
  SPEC_AUTO_DISABLE_MS,
  SPEC_RETRY_DELAYS_MS,
  SPEC_RETRY_LABELS,
  arrivalSeries,
  gapSeries,
  describeGap,
  describeTolerance,
  judgeWindow,
  lateToleranceMs,
  matchSchedule,
  retriesDueIn,
  round1,
  scaled,
  toleranceMs,
  type EventAttempts,
  type Tolerance,
} from '../src/suite/timing/schedule.js';
import { pollUntil, sleep } from '../src/clock/wait.js';
import { attemptsOf, chooseTimeScale, seconds, timingOf, within } from '../src/suite/timing/wait.js';

const HOUR_MS = 3_600_000;
const HIGH_SCALE = 3_600;
const LOW_SCALE = 60;
/**
 * At a low scale (1m = 1 s at 60): no earlier than max(150 ms, 10%), no later than
 * max(400 ms, 10%). A loaded machine delays an attempt (timers, TLS, event loops), it
 * never makes one early, so lateness gets the larger floor.
 */
const EARLY_TOLERANCE: Tolerance = { floorMs: 150, lateFloorMs: 400, fraction: 0.1 };
/**
 * At a high scale: -max(100 ms, 10%) / +max(500 ms, 10%). The 1m and 5m delays (16.7
 * and 83 ms at 3600) are below the scheduling latency of a loaded machine, so their
 * lateness is mostly covered by the floor (HOOK-RETRY-EARLY-SCHEDULE measures them
 * precisely at a low scale); from 30m on (500 ms) a wrong schedule is far outside it.
 */
const FULL_TOLERANCE: Tolerance = { floorMs: 100, lateFloorMs: 500, fraction: 0.1 };
/** Un-scaled: ±max(1 s, 2%) around 60 s (±1.2 s). */
const REAL_TIME_TOLERANCE: Tolerance = { floorMs: 1_000, fraction: 0.02 };
/** The 24 h auto-disable at a high scale: ±max(250 ms, 2%) (24 s ± 480 ms at 3600). */
const DISABLE_TOLERANCE: Tolerance = { floorMs: 250, fraction: 0.02 };
/** Slack for the service to send an attempt that falls due, on top of the tolerance. */
const ARRIVAL_SLACK_MS = 3_000;
/** Filler events (acknowledged) to the full-schedule endpoint, in spec time. */
const FILLER_EVERY_MS = 2 * HOUR_MS;
/** Failing events to the auto-disable endpoint, in spec time. */
const DISABLE_EVENT_EVERY_MS = HOUR_MS;
/** How long a disabled endpoint is watched for deliveries, in spec time. */
const SILENT_WINDOW_MS = 3 * HOUR_MS;
/** A delivery arriving this soon after the poll that read `disabled` was in flight at the transition. */
const IN_FLIGHT_GRACE_MS = 500;
/** After a drop, how long "no more attempts" is watched, in spec time (also the flag's allowance). */
const AFTER_DROP_WATCH_MS = 2 * HOUR_MS;
const MIN_AFTER_DROP_WATCH_REAL_MS = 1_500;
const POLL_MS = 100;
const FLAG_POLL_MS = 250;
const SCHEDULE_EVENT = 'mailer.reply.received';
const FILLER_EVENT = 'workspace.plan.upgraded';
const DISABLE_EVENT = 'mailer.email.sent';

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/** Fires `fire` now and then every `everyMs` until stopped; counts events and errors. */
function repeatedly(fire: () => Promise<unknown>, everyMs: number) {
  let stopped = false;
  const stats = { fired: 0, errors: [] as string[] };
  const loop = (async () => {
    while (!stopped) {
      try {
        await fire();
        stats.fired++;
      } catch (error) {
        stats.errors.push((error as Error).message);
      }
      const until = performance.now() + everyMs;
      while (!stopped && performance.now() < until) await sleep(Math.min(50, until - performance.now()));
    }
  })();
  return {
    stats,
    stop: async () => {
      stopped = true;
      await loop;
    },
  };
}

/** Polls the endpoint's status in the background; remembers when flagged and disabled were first read. */
function watchStatus(workspace: TestWorkspace, endpointId: string, everyMs: number) {
  let stopped = false;
  const seen: {
    polls: number;
    errors: number;
    lastSentAtMs?: number;
    flagged?: { afterMs: number; byMs: number; state: string };
    disabled?: { afterMs: number; byMs: number };
    last?: EndpointStatus;
  } = { polls: 0, errors: 0 };
  const loop = (async () => {
    while (!stopped) {
      const sentAtMs = performance.now();
      try {
        const status = await workspace.getEndpoint(endpointId);
        const byMs = performance.now();
        const afterMs = seen.lastSentAtMs ?? sentAtMs;
        seen.polls++;
        seen.last = status;
        if (status.flagged && !seen.flagged) seen.flagged = { afterMs, byMs, state: status.state };
        if (status.state === 'disabled' && !seen.disabled) seen.disabled = { afterMs, byMs };
      } catch {
        seen.errors++;
      }
      seen.lastSentAtMs = sentAtMs;
      await sleep(everyMs);
    }
  })();
  return {
    seen,
    stop: async () => {
      stopped = true;
      await loop;
    },
  };
}

/** Waits until `done()` holds (checked every POLL_MS) or `deadlineMs` (monotonic) passes. */
async function until(done: () => boolean, deadlineMs: number): Promise<boolean> {
  while (!done()) {
    if (performance.now() >= deadlineMs) return false;
    await sleep(Math.min(POLL_MS / 2, Math.max(1, deadlineMs - performance.now())));
  }
  return true;
}

// --- The full schedule: one observation for HOOK-RETRY-FULL-SCHEDULE and HOOK-DROP-AND-FLAG --------

interface ScheduleObservation {
  scale: number;
  eventId: string;
  attempts: CapturedDelivery[];
  delaysMs: number[];
  /** The flag as read on the fresh endpoint. */
  initiallyFlagged: boolean;
  flagged?: { afterMs: number; byMs: number; state: string };
  disabledSeen: boolean;
  final?: EndpointStatus;
  fillers: { fired: number; errors: string[]; acked: number; total: number };
  /** Why the wait for attempts ended. */
  ended: 'flag-then-quiet' | 'extra-attempt' | 'no-flag-bound' | 'missing-attempt';
  /** Real ms watched for further attempts after the last one. */
  watchedAfterLastMs: number;
}

async function observeSchedule(t: CheckContext): Promise<ScheduleObservation> {
  const delaysSpan = sum(SPEC_RETRY_DELAYS_MS);
  const scale = await chooseTimeScale(t, HIGH_SCALE, delaysSpan, 60_000, 'the whole retry schedule (38.6 h)');
  const delaysMs = SPEC_RETRY_DELAYS_MS.map((delay) => scaled(delay, scale));
  const workspace = await t.sharedWorkspace({ timeScale: scale });
  const hook = await t.hookEndpoint(workspace, [SCHEDULE_EVENT, FILLER_EVENT]);
  hook.inbox.respond({ eventType: SCHEDULE_EVENT, status: 500 });
  const initial = await workspace.getEndpoint(hook.registered.endpointId);
  const fillers = repeatedly(() => workspace.fireEvent(FILLER_EVENT, { plan: 'certify filler' }), scaled(FILLER_EVERY_MS, scale));
  const status = watchStatus(workspace, hook.registered.endpointId, FLAG_POLL_MS);
  const watchAfterDropMs = Math.max(MIN_AFTER_DROP_WATCH_REAL_MS, scaled(AFTER_DROP_WATCH_MS, scale));
  const attemptsNow = () => attemptsOf(hook.inbox.deliveries, eventId);
  let eventId = '';
  let ended: ScheduleObservation['ended'] = 'missing-attempt';
  let watchedAfterLastMs = 0;
  try {
    eventId = await workspace.fireEvent(SCHEDULE_EVENT, { certify: 'retry schedule' });
    const firstArrived = await until(() => attemptsNow().length >= 1, performance.now() + 10_000);
    if (firstArrived) {
      // Attempts 2..6: each within its delay + tolerance + slack of the previous one's end.
      let complete = true;
      for (let n = 2; n <= 6 && complete; n++) {
        const previous = attemptsNow()[n - 2]!;
        await until(() => previous.answer !== 'pending', performance.now() + 5_000);
        const delay = delaysMs[n - 2]!;
        complete = await until(() => attemptsNow().length >= n, timingOf(previous).endMs + delay + lateToleranceMs(delay, FULL_TOLERANCE) + ARRIVAL_SLACK_MS);
      }
      if (complete) {
        // After the 6th and the 7th: the next attempt, or the flag (the drop), whichever comes first.
        for (let n = 7; n <= 8; n++) {
          const previous = attemptsNow()[n - 2]!;
          await until(() => previous.answer !== 'pending', performance.now() + 5_000);
          const lastDelay = delaysMs[delaysMs.length - 1]!;
          const startMs = performance.now();
          await until(() => attemptsNow().length >= n || status.seen.flagged !== undefined, timingOf(previous).endMs + lastDelay + lateToleranceMs(lastDelay, FULL_TOLERANCE) + ARRIVAL_SLACK_MS);
          if (attemptsNow().length >= n) {
            if (n === 8) {
              ended = 'extra-attempt';
              break;
            }
            continue;
          }
          if (status.seen.flagged) {
            // Dropped: no more attempts should come.
            const quietStart = performance.now();
            const extra = await until(() => attemptsNow().length >= n, quietStart + watchAfterDropMs);
            ended = extra ? 'extra-attempt' : 'flag-then-quiet';
            watchedAfterLastMs = performance.now() - timingOf(previous).endMs;
          } else {
            ended = 'no-flag-bound';
            watchedAfterLastMs = performance.now() - Math.min(startMs, timingOf(previous).endMs);
          }
          break;
        }
      }
    }
  } finally {
    await fillers.stop();
    await status.stop();
  }
  let final: EndpointStatus | undefined;
  try {
    final = await workspace.getEndpoint(hook.registered.endpointId);
  } catch {
    final = status.seen.last;
  }
  const fillerDeliveries = hook.inbox.deliveries.filter((d) => d.verdicts.eventType === FILLER_EVENT);
  return {
    scale,
    eventId,
    attempts: attemptsNow(),
    delaysMs,
    initiallyFlagged: initial.flagged,
    ...(status.seen.flagged ? { flagged: status.seen.flagged } : {}),
    disabledSeen: status.seen.disabled !== undefined,
    ...(final ? { final } : {}),
    fillers: {
      fired: fillers.stats.fired,
      errors: fillers.stats.errors,
      total: fillerDeliveries.length,
      acked: fillerDeliveries.filter((d) => d.answeredStatus !== null && d.answeredStatus >= 200 && d.answeredStatus < 300).length,
    },
    ended,
    watchedAfterLastMs,
  };
}

// --- Auto-disable: one observation for HOOK-AUTO-DISABLE, HOOK-DISABLED-SILENT, HOOK-REENABLE -------

interface DisableObservation {
  scale: number;
  intervalMs: number;
  firstFailureEndMs: number;
  window: { lowMs: number; highMs: number };
  toleranceMs: number;
  /** Relative to the end of the first failed attempt. */
  disabled?: { afterMs: number; byMs: number };
  eventsBefore: number;
  failuresBefore: number;
  notFailed: string[];
  silent?: {
    windowMs: number;
    eventsFired: number;
    arrivals: Array<{ eventId: string; attempt: number; afterDisableMs: number }>;
    inFlight: number;
    retriesDue: number;
  };
  reenable?: {
    stateAfter: string;
    activeAfterMs?: number;
    eventId: string;
    arrivedAfterMs?: number;
    answered?: number | string;
  };
}

async function observeDisable(t: CheckContext): Promise<DisableObservation> {
  const disableMs = SPEC_AUTO_DISABLE_MS;
  const scale = await chooseTimeScale(t, HIGH_SCALE, disableMs + SILENT_WINDOW_MS + DISABLE_EVENT_EVERY_MS, 45_000, 'the 24 h auto-disable period and the watch after it');
  const intervalMs = scaled(DISABLE_EVENT_EVERY_MS, scale);
  const periodMs = scaled(disableMs, scale);
  const tolerance = toleranceMs(periodMs, DISABLE_TOLERANCE);
  const workspace = await t.sharedWorkspace({ timeScale: scale });
  const hook: HookedEndpoint = await t.hookEndpoint(workspace, [DISABLE_EVENT]);
  const endpointId = hook.registered.endpointId;
  hook.inbox.failAll({ status: 500 });
  const events: string[] = [];
  const firing = repeatedly(async () => events.push(await workspace.fireEvent(DISABLE_EVENT, { certify: 'auto-disable' })), intervalMs);
  let stopped = false;
  const stopFiring = async () => {
    if (!stopped) await firing.stop();
    stopped = true;
  };
  try {
    const arrived = await within(hook.inbox, (all) => all.length >= 1 && all[0]!.answer !== 'pending', 10_000);
    if (!arrived) t.fail('the first event never reached the auto-disable endpoint within 10 s');
    const firstFailureEndMs = timingOf(arrived[0]!).endMs;
    const window = { lowMs: periodMs - tolerance, highMs: periodMs + intervalMs + tolerance };
    const polled = await pollUntil(
      () => workspace.getEndpoint(endpointId),
      (status) => status.state === 'disabled',
      { intervalMs: POLL_MS, timeoutMs: firstFailureEndMs + window.highMs + 2_000 - performance.now() },
    );
    const before = hook.inbox.deliveries.slice();
    const observation: DisableObservation = {
      scale,
      intervalMs,
      firstFailureEndMs,
      window,
      toleranceMs: tolerance,
      eventsBefore: events.length,
      failuresBefore: before.length,
      notFailed: before.filter((d) => d.answeredStatus !== 500 && d.answer !== 'pending').map((d) => `${d.verdicts.eventId} attempt ${d.attempt}: ${d.answeredStatus ?? d.answer}`),
    };
    if (!polled.ok) return observation;
    const disabledAt = polled.atMs;
    observation.disabled = {
      afterMs: (polled.previousSentAtMs ?? polled.sentAtMs) - firstFailureEndMs,
      byMs: polled.atMs - firstFailureEndMs,
    };

    // Disabled: keep firing for the silent window; nothing may arrive, retries of earlier deliveries included.
    const windowMs = scaled(SILENT_WINDOW_MS, scale);
    const firedAtDisable = events.length;
    await sleep(Math.max(0, disabledAt + windowMs - performance.now()));
    await stopFiring();
    const byEvent = new Map<string, EventAttempts>();
    for (const delivery of before) {
      const id = delivery.verdicts.eventId;
      if (!id) continue;
      byEvent.set(id, { failedAttempts: delivery.attempt, lastEndMs: timingOf(delivery).endMs });
    }
    const after = hook.inbox.deliveries
      .filter((d) => d.receivedAtMono > disabledAt)
      .map((d) => ({ eventId: d.verdicts.eventId ?? '?', attempt: d.attempt, afterDisableMs: round1(d.receivedAtMono - disabledAt) }));
    observation.silent = {
      windowMs,
      eventsFired: events.length - firedAtDisable,
      arrivals: after.filter((a) => a.afterDisableMs > IN_FLIGHT_GRACE_MS),
      inFlight: after.filter((a) => a.afterDisableMs <= IN_FLIGHT_GRACE_MS).length,
      retriesDue: retriesDueIn([...byEvent.values()], SPEC_RETRY_DELAYS_MS.map((d) => scaled(d, scale)), disabledAt, disabledAt + windowMs),
    };

    // Re-enable: answer 204 from now on, enable, expect `active` and a new event delivered.
    hook.inbox.reset();
    const enabledAt = performance.now();
    await workspace.enableEndpoint(endpointId);
    const active = await pollUntil(() => workspace.getEndpoint(endpointId), (status) => status.state === 'active', { intervalMs: POLL_MS, timeoutMs: 3_000 });
    const stateAfter = active.last.state;
    const firedAt = performance.now();
    const eventId = await workspace.fireEvent(DISABLE_EVENT, { certify: 're-enabled' });
    const delivered = await within(hook.inbox, (all) => all.some((d) => d.verdicts.eventId === eventId && d.answer !== 'pending'), 5_000);
    const delivery = delivered?.find((d) => d.verdicts.eventId === eventId);
    observation.reenable = {
      stateAfter,
      ...(active.ok ? { activeAfterMs: round1(active.atMs - enabledAt) } : {}),
      eventId,
      ...(delivery ? { arrivedAfterMs: round1(delivery.receivedAtMono - firedAt), answered: delivery.answeredStatus ?? delivery.answer } : {}),
    };
    return observation;
  } finally {
    await stopFiring();
  }
}

certifySuite('webhook-retry', () => {
  let schedule: Promise<ScheduleObservation> | undefined;
  let disable: Promise<DisableObservation> | undefined;
  // Each observation serves several checks: running the 38.6 h schedule or the 24 h disable twice would double the suite's time.
  const scheduleObservation = (t: CheckContext) => (schedule ??= observeSchedule(t));
  const disableObservation = (t: CheckContext) => (disable ??= observeDisable(t));

  check('HOOK-RETRY-EARLY-SCHEDULE', async (t: CheckContext) => {
    const delays = SPEC_RETRY_DELAYS_MS.slice(0, 2);
    const scale = await chooseTimeScale(t, LOW_SCALE, sum(delays), 30_000, 'the first two retry delays (1m + 5m)');
    const delaysMs = delays.map((delay) => scaled(delay, scale));
    const workspace = await t.workspace({ timeScale: scale });
    const hook = await t.hookEndpoint(workspace, [FILLER_EVENT]);
    hook.inbox.failFirst(2, { status: 500 });
    const eventId = await workspace.fireEvent(FILLER_EVENT, { certify: 'early schedule' });
    const boundMs = sum(delaysMs) * 1.5 + 10_000;
    const arrived = await within(hook.inbox, (all) => attemptsOf(all, eventId).length >= 3, boundMs);
    const attempts = attemptsOf(hook.inbox.deliveries, eventId);
    const timings = attempts.map(timingOf);
    const match = matchSchedule(timings, delaysMs, EARLY_TOLERANCE);
    t.measure('time_scale', scale);
    t.measure('tolerance', describeTolerance(EARLY_TOLERANCE));
    t.measure('expected_gaps_ms', delaysMs.map(round1));
    t.measure('observed_gaps_ms', match.gaps.map((gap) => round1(gap.observedMs)));
    t.measure('arrivals_ms', arrivalSeries(timings, delaysMs));
    t.measure('gaps', gapSeries(match));

    assert(arrived, `${eventId}: ${attempts.length} attempt(s) in ${seconds(boundMs)}, expected 3 (the first two answered 500, retries due 1m and 5m later at time scale ${scale})${match.firstMismatch ? `; ${describeGap(match.firstMismatch)}` : ''}`);
    if (match.firstMismatch) t.fail(`at time scale ${scale}: ${describeGap(match.firstMismatch)} (tolerance ${describeTolerance(EARLY_TOLERANCE)})`);
    t.detail(
      `time scale ${scale}, first two attempts answered 500: ` +
        match.gaps.map((gap) => `retry ${gap.retry} after ${round1(gap.observedMs)} ms (expected ${round1(gap.expectedMs)}, -${Math.round(gap.toleranceMs)}/+${Math.round(gap.lateToleranceMs)})`).join(', ') +
        `; gaps from the end of the failed attempt to the next arrival, tolerance ${describeTolerance(EARLY_TOLERANCE)}; the third attempt answered ${attempts[2]?.answeredStatus ?? attempts[2]?.answer}`,
    );
  }, { timeoutMs: 60_000 });

  check('HOOK-RETRY-FULL-SCHEDULE', async (t: CheckContext) => {
    const o = await scheduleObservation(t);
    const timings = o.attempts.map(timingOf);
    const match = matchSchedule(timings, o.delaysMs, FULL_TOLERANCE);
    const n = o.attempts.length;
    t.measure('time_scale', o.scale);
    t.measure('tolerance', describeTolerance(FULL_TOLERANCE));
    t.measure('expected_gaps_ms', o.delaysMs.map(round1));
    t.measure('observed_gaps_ms', match.gaps.map((gap) => round1(gap.observedMs)));
    t.measure('arrivals_ms', arrivalSeries(timings, o.delaysMs));
    t.measure('gaps', gapSeries(match));

    t.measure('attempts', n);
    t.measure('fillers', o.fillers);
    t.measure('watched_after_last_ms', round1(o.watchedAfterLastMs));
    const scaleNote = `time scale ${o.scale}, tolerance ${describeTolerance(FULL_TOLERANCE)} on each gap from the end of a failed attempt to the next arrival`;
    if (match.firstMismatch) t.fail(`${o.eventId}: ${describeGap(match.firstMismatch)} (the ${SPEC_RETRY_LABELS[match.firstMismatch.retry - 1]} delay; ${scaleNote})`);
    if (n < 6) {
      const delay = o.delaysMs[n - 1];
      t.fail(`${o.eventId}: only ${n} attempt(s); retry ${n} (${SPEC_RETRY_LABELS[n - 1]} = ${round1(delay ?? 0)} ms at time scale ${o.scale}) never came`);
    }
    if (n > 7) {
      const extra = timings[7]!.startMs - timings[6]!.endMs;
      t.fail(`${o.eventId}: an 8th attempt came ${round1(extra)} ms after the 7th: the schedule has six retries (7 attempts in all), then the delivery is dropped`);
    }
    if (n === 6) {
      const sixthEnd = timings[5]!.endMs;
      const lastDelay = o.delaysMs[5]!;
      const lowMs = lastDelay - toleranceMs(lastDelay, FULL_TOLERANCE);
      if (!o.flagged) t.fail(`${o.eventId}: 6 attempts, no 7th (the 24 h retry, due ${round1(lastDelay)} ms after the 6th) and no drop flagged within ${seconds(o.watchedAfterLastMs)}`);
      const flaggedAfter = o.flagged.byMs - sixthEnd;
      assert(
        flaggedAfter >= lowMs,
        `${o.eventId}: 6 attempts in all, dropped (endpoint flagged) ${seconds(flaggedAfter)} after the 6th: the 24 h delay (${seconds(lastDelay)} at time scale ${o.scale}) never passed; ` +
          `expected a 7th attempt then, or, reading "six attempts" as six in all, the drop no sooner than 24 h after the 6th`,
      );
    }
    const reading =
      n === 7 ? '7 attempts in all (1 + 6 retries: the reading that uses all six delays)' : '6 attempts in all (the "after six attempts" reading), the drop 24 h after the 6th';
    const after =
      o.ended === 'flag-then-quiet'
        ? `then the endpoint was flagged and nothing more came in ${seconds(o.watchedAfterLastMs)} after the last attempt`
        : `then no further attempt and no flag in ${seconds(o.watchedAfterLastMs)} (one more 24 h delay and tolerance; the flag is judged by HOOK-DROP-AND-FLAG)`;
    t.detail(
      `${reading}; ${scaleNote}; gaps ${match.gaps.map((gap) => `${SPEC_RETRY_LABELS[gap.retry - 1]} ${round1(gap.observedMs)} ms`).join(', ')}; ${after}; ` +
        `${o.fillers.acked} filler events acknowledged meanwhile, so the endpoint never had 24 h of consecutive failures`,
    );
  }, { timeoutMs: 110_000 });

  check('HOOK-DROP-AND-FLAG', async (t: CheckContext) => {
    const o = await scheduleObservation(t);
    const n = o.attempts.length;
    t.measure('time_scale', o.scale);
    t.measure('attempts', n);
    assert(!o.initiallyFlagged, 'a freshly created endpoint already reads flagged: true');
    assert(n >= 6, `the delivery was never exhausted: ${n} attempt(s) of ${o.eventId} (see HOOK-RETRY-FULL-SCHEDULE)`);
    assert(n <= 7, `the delivery was not dropped after the last attempt of the schedule: an attempt ${n} came (see HOOK-RETRY-FULL-SCHEDULE)`);
    const last = timingOf(o.attempts[n - 1]!);
    const allowanceMs = Math.max(MIN_AFTER_DROP_WATCH_REAL_MS, scaled(AFTER_DROP_WATCH_MS, o.scale)) + (n === 6 ? o.delaysMs[5]! + lateToleranceMs(o.delaysMs[5]!, FULL_TOLERANCE) : 0);
    t.measure('flag_allowance_ms', round1(allowanceMs));
    assert(o.flagged, `after the last of ${n} attempts failed, the endpoint never read flagged: true (polled for ${seconds(o.watchedAfterLastMs)}; last read ${JSON.stringify({ state: o.final?.state, flagged: o.final?.flagged })})`);
    const flaggedAfterMs = o.flagged.byMs - last.endMs;
    t.measure('flagged_after_last_attempt_ms', round1(flaggedAfterMs));
    assert(o.flagged.byMs >= last.startMs, `the endpoint read flagged: true ${seconds(last.startMs - o.flagged.byMs)} before attempt ${n} (the last) arrived: flagged before the delivery was dropped`);
    assert(o.flagged.afterMs - last.endMs <= allowanceMs, `the endpoint was first read flagged ${seconds(flaggedAfterMs)} after the last attempt failed, expected within ${seconds(allowanceMs)}`);
    assert(o.flagged.state === 'active', `when flagged, the endpoint's state was ${JSON.stringify(o.flagged.state)}, expected active`);
    assert(!o.disabledSeen, 'the endpoint read disabled during the schedule although filler events were acknowledged every 2 h (scaled)');
    assert(o.final?.flagged === true && o.final.state === 'active', `after the drop the endpoint reads ${JSON.stringify({ state: o.final?.state, flagged: o.final?.flagged })}, expected active and flagged`);
    t.detail(`after ${n} failed attempts the endpoint read flagged: true within ${seconds(Math.max(0, flaggedAfterMs))} of the last, state active (and still so at the end)`);
  }, { timeoutMs: 110_000 });

  check('HOOK-AUTO-DISABLE', async (t: CheckContext) => {
    const o = await disableObservation(t);
    t.measure('time_scale', o.scale);
    t.measure('event_interval_ms', round1(o.intervalMs));
    t.measure('window_ms', { low: round1(o.window.lowMs), high: round1(o.window.highMs) });
    t.measure('failures_before_disable', o.failuresBefore);
    t.measure('events_before_disable', o.eventsBefore);
    assert(o.notFailed.length === 0, `the receiver did not answer 500 to every attempt (${o.notFailed.slice(0, 3).join('; ')}): failures not consecutive, no verdict`);
    const period = `24 h (${seconds(scaled(SPEC_AUTO_DISABLE_MS, o.scale))} at time scale ${o.scale})`;
    if (!o.disabled) {
      t.fail(`after ${o.failuresBefore} consecutive failed attempts over ${seconds(o.window.highMs + 2_000)} (events every ${seconds(o.intervalMs)}), the endpoint never read disabled: expected disabled after ${period}`);
    }
    t.measure('disabled_after_ms', { after: round1(o.disabled.afterMs), by: round1(o.disabled.byMs) });
    const verdict = judgeWindow(o.disabled, o.window);
    assert(verdict !== 'early', `the endpoint read disabled ${seconds(o.disabled.byMs)} after the first failure, before ${period} minus ${Math.round(o.toleranceMs)} ms`);
    assert(verdict !== 'late', `the endpoint was still active ${seconds(o.disabled.afterMs)} after the first failure, later than ${period} + one event interval + ${Math.round(o.toleranceMs)} ms`);
    t.detail(
      `consecutive failures (every attempt answered 500, a new event every ${seconds(o.intervalMs)}): disabled between ${seconds(o.disabled.afterMs)} and ${seconds(o.disabled.byMs)} after the end of the first failed attempt; ` +
        `accepted ${seconds(o.window.lowMs)} to ${seconds(o.window.highMs)} (24 h ± ${Math.round(o.toleranceMs)} ms, ${describeTolerance(DISABLE_TOLERANCE)}, plus one event interval, whether the period runs on a timer or is noticed at the next failure)`,
    );
  }, { timeoutMs: 90_000 });

  check('HOOK-DISABLED-SILENT', async (t: CheckContext) => {
    const o = await disableObservation(t);
    if (!o.disabled || !o.silent) t.skip('the endpoint never became disabled (see HOOK-AUTO-DISABLE): nothing to observe');
    const s = o.silent;
    t.measure('window_ms', round1(s.windowMs));
    t.measure('events_fired', s.eventsFired);
    t.measure('retries_due_in_window', s.retriesDue);
    t.measure('arrivals', s.arrivals);
    assert(s.eventsFired > 0, 'no event could be fired while the endpoint was disabled: no verdict');
    assert(
      s.arrivals.length === 0,
      `${s.arrivals.length} deliveries reached the disabled endpoint in ${seconds(s.windowMs)}; first: ${s.arrivals[0]?.eventId} attempt ${s.arrivals[0]?.attempt}, ${s.arrivals[0]?.afterDisableMs} ms after it read disabled`,
    );
    t.detail(
      `disabled for ${seconds(s.windowMs)} (3 h at time scale ${o.scale}): ${s.eventsFired} new events fired and ${s.retriesDue} retries of earlier deliveries were due by the schedule; none arrived` +
        (s.inFlight > 0 ? ` (${s.inFlight} delivery arrived within ${IN_FLIGHT_GRACE_MS} ms of the poll that read disabled: in flight at the transition, not counted)` : ''),
    );
  }, { timeoutMs: 90_000 });

  check('HOOK-REENABLE', async (t: CheckContext) => {
    const o = await disableObservation(t);
    if (!o.disabled || !o.reenable) t.skip('the endpoint never became disabled (see HOOK-AUTO-DISABLE): nothing to re-enable');
    const r = o.reenable;
    t.measure('reenable', r);
    assert(r.stateAfter === 'active', `after enable, the endpoint reads state ${JSON.stringify(r.stateAfter)} (polled 3 s), expected active`);
    assert(r.arrivedAfterMs !== undefined, `after enable, ${r.eventId} did not arrive within 5 s`);
    t.detail(`enable: state active after ${r.activeAfterMs} ms; a new event arrived ${r.arrivedAfterMs} ms after being fired, answered ${r.answered}`);
  }, { timeoutMs: 90_000 });

  check('HOOK-RETRY-REAL-TIME', async (t: CheckContext) => {
    // Two events, first attempts answered 500 and 400 (both failures), at time scale 1.
    const workspace = await t.workspace({ timeScale: 1 });
    const cases = [
      { type: FILLER_EVENT, status: 500 },
      { type: DISABLE_EVENT, status: 400 },
    ] as const;
    const hook = await t.hookEndpoint(workspace, cases.map((c) => c.type));
    for (const c of cases) hook.inbox.failFirst(1, { status: c.status }, { eventType: c.type });
    const eventIds = await Promise.all(cases.map((c) => workspace.fireEvent(c.type, { certify: 'real time' })));
    const delayMs = SPEC_RETRY_DELAYS_MS[0]!;
    const boundMs = delayMs + lateToleranceMs(delayMs, REAL_TIME_TOLERANCE) + 10_000;
    await within(hook.inbox, (all) => eventIds.every((id) => attemptsOf(all, id).length >= 2), boundMs);
    t.measure('tolerance', describeTolerance(REAL_TIME_TOLERANCE));
    t.measure('expected_gap_ms', delayMs);
    const seen: string[] = [];
    const gaps: Record<string, number | null> = {};
    cases.forEach((c, i) => {
      const eventId = eventIds[i]!;
      const timings = attemptsOf(hook.inbox.deliveries, eventId).map(timingOf);
      const match = matchSchedule(timings, [delayMs], REAL_TIME_TOLERANCE);
      gaps[String(c.status)] = match.gaps[0] ? round1(match.gaps[0].observedMs) : null;
      t.measure('observed_gap_ms', gaps);
      if (timings.length < 2) t.fail(`${eventId}: the first attempt answered ${c.status} and no retry came within ${seconds(boundMs)} (expected one 60 s later, time scale 1)`);
      if (match.firstMismatch) t.fail(`time scale 1, first attempt answered ${c.status}: ${describeGap(match.firstMismatch)}`);
      seen.push(`after a ${c.status}, retry ${round1(match.gaps[0]!.observedMs)} ms after the failed attempt`);
    });
    t.detail(`time scale 1: ${seen.join('; ')} (expected 60 000 ms ${describeTolerance(REAL_TIME_TOLERANCE)})`);
  }, { timeoutMs: 100_000 });
});
