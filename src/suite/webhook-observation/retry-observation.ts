/**
 * What the webhook suites observe of retries before they judge: one retry timed after the
 * failures before it (timeRetry: the delivery suite's retry-on-failure checks and the retry
 * suite's delays timed on their own), the whole retry schedule to its drop and flag, and an
 * endpoint failing until it is auto-disabled, kept silent and re-enabled. Each schedule and
 * disable observation is made once and shared by the checks that read it; the tolerances
 * below are stated once for all of them.
 */
import type { CapturedDelivery, ProgrammedAnswer } from '../../capturing-receiver/types.js';
import type { EndpointStatus } from '../../control/types.js';
import type { CheckContext } from '../context.js';
import type { HookedEndpoint } from '../webhooks.js';
import type { TestWorkspace } from '../workspace.js';
import {
  SPEC_AUTO_DISABLE_MS,
  SPEC_RETRY_DELAYS_MS,
  matchSchedule,
  retriesDueIn,
  scaled,
  scaledDelays,
  toleranceMs,
  type EventAttempts,
  type GapVerdict,
  type ArrivalTolerance,
} from '../timing/schedule.js';
import { pollUntil, sleep } from '../../clock/wait.js';
import {
  ARRIVAL_SLACK_MS,
  attemptsOf,
  chooseTimeScale,
  firstAttempt,
  repeatedly,
  timingOf,
  within,
} from '../timing/wait.js';
import { chooseScale, SCALED_SPAN_BOUND_MS } from '../timing/budget.js';
import {
  fastestRoundTripMs,
  gapTolerance,
  SCHEDULE_JITTER,
  scheduleTolerance,
  TIMED_DELAY_MS,
  watchEventLoopDelay,
  type TimingError,
} from '../timing/error.js';
import { round1 } from '../../stats/summary.js';

/** The fastest of a few unauthenticated whoami round trips: the network part of the timing error. */
export const serviceRoundTripMs = (t: CheckContext): Promise<number> =>
  fastestRoundTripMs(() => t.api.whoami(undefined));

export const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

const HOUR_MS = 3_600_000;
const HIGH_SCALE = 3_600;
/**
 * How long to wait for an attempt beyond its delay before calling it missing: only how
 * long the observation waits, never the verdict (schedule tolerances come from
 * src/suite/timing/error.ts, measured per run).
 */
const WAIT_FRACTION = 0.25;
/** The scaled waits of a retry observation at their longest, for a check's time-out. */
export const WAIT_STRETCH = 1 + WAIT_FRACTION;
/** The 24 h auto-disable at a high scale: ±(1% + 250 ms) (24 s ± 490 ms at 3600), the status polled every 250 ms. */
export const DISABLE_TOLERANCE: ArrivalTolerance = { fraction: 0.01, errorMs: 250 };
/** Filler events (acknowledged) to the full-schedule endpoint, in spec time. */
const FILLER_EVERY_MS = 2 * HOUR_MS;
/** Failing events to the auto-disable endpoint, in spec time. */
const DISABLE_EVENT_EVERY_MS = HOUR_MS;
/** How long a disabled endpoint is watched for deliveries, in spec time. */
const SILENT_WINDOW_MS = 3 * HOUR_MS;
/** A delivery arriving this soon after the poll that read `disabled` was in flight at the transition. */
export const IN_FLIGHT_GRACE_MS = 500;
/** After a drop, how long "no more attempts" is watched, in spec time (also the flag's allowance). */
export const AFTER_DROP_WATCH_MS = 2 * HOUR_MS;
export const MIN_AFTER_DROP_WATCH_REAL_MS = 1_500;
/** What the full-schedule observation waits out, in spec time: the six delays, then the watch after the drop. */
export const SCHEDULE_SPAN_MS = sum(SPEC_RETRY_DELAYS_MS) + AFTER_DROP_WATCH_MS;
/**
 * The most the full-schedule observation may wait, in spec time, before each quarter more:
 * every delay, then the last once more for an attempt or a flag after the drop (a target
 * that never flags is waited out that long before the check fails).
 */
export const SCHEDULE_LONGEST_WAIT_MS =
  sum(SPEC_RETRY_DELAYS_MS) + SPEC_RETRY_DELAYS_MS[SPEC_RETRY_DELAYS_MS.length - 1]!;
/** What the auto-disable observation waits out, in spec time: the 24 h, one event interval, the silent window. */
export const DISABLE_SPAN_MS = SPEC_AUTO_DISABLE_MS + DISABLE_EVENT_EVERY_MS + SILENT_WINDOW_MS;
const POLL_MS = 100;
const FLAG_POLL_MS = 250;
const SCHEDULE_EVENT = 'mailer.reply.received';
export const FILLER_EVENT = 'workspace.plan.upgraded';
export const DISABLE_EVENT = 'mailer.email.sent';
/** A type the auto-disable endpoint never subscribed to: after re-enable, it must not get it either. */
const UNSUBSCRIBED_EVENT = 'mailer.campaign.completed';
/** How long after its own event arrives a re-enabled endpoint is watched for the other one (fired first). */
const UNSUBSCRIBED_WATCH_MS = 500;

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

/** What an endpoint's observed disable looked like, for judging the attempts that came after it. */
export interface DisableTransition {
  /** When the poll that read `disabled` answered (monotonic ms). */
  disabledAtMs: number;
  /** This process's longest stall between the transition and `atMs`. */
  stallMs: (atMs: number) => number;
  /** Events whose firing had been answered by then. */
  firedBefore: ReadonlySet<string>;
  /** Per event, its failed attempts by then. */
  lastFailedBefore: ReadonlyMap<string, EventAttempts>;
  /** The retry delays at the workspace's time scale. */
  delaysMs: readonly number[];
}

/**
 * Whether an attempt that arrived after the poll read `disabled` was in flight at the
 * transition: it arrived within IN_FLIGHT_GRACE_MS plus this process's own stall, or it was
 * already due by then (a retry due by the schedule, its jitter allowed, or the first attempt of
 * an event fired by then). The service may have started such an attempt before it disabled the
 * endpoint, and its own machine's stalls, which this process cannot see, may delay it.
 */
export function inFlightAtDisable(
  attempt: Pick<CapturedDelivery, 'attempt' | 'receivedAtMono'> & { verdicts: { eventId?: string | null } },
  transition: DisableTransition,
): boolean {
  const { disabledAtMs, lastFailedBefore, delaysMs } = transition;
  if (attempt.receivedAtMono - disabledAtMs <= IN_FLIGHT_GRACE_MS + transition.stallMs(attempt.receivedAtMono))
    return true;
  const eventId = attempt.verdicts.eventId ?? '';
  const last = lastFailedBefore.get(eventId);
  if (attempt.attempt === 1) return !last && transition.firedBefore.has(eventId);
  if (!last || attempt.attempt !== last.failedAttempts + 1) return false;
  const delay = delaysMs[last.failedAttempts - 1];
  return delay !== undefined && last.lastEndMs + delay * (1 - SCHEDULE_JITTER) <= disabledAtMs;
}

// --- One delay on its own: HOOK-RETRY-EARLY-SCHEDULE ---------------------------------------------

/** One retry delay measured on its own: retry `retry` (1-based) at `scale`, lasting `realMs` with the delays before it. */
export interface DelayPlan {
  retry: number;
  scale: number;
  realMs: number;
}

/** Whether the full schedule runs on a target of this largest scale (as observeSchedule decides) and times `delay` there. */
function fullScheduleTimes(delay: number, maxScale: number): boolean {
  const { scale, withinBound } = chooseScale(HIGH_SCALE, maxScale, SCHEDULE_SPAN_MS);
  return withinBound && scaled(delay, scale) >= TIMED_DELAY_MS;
}

/** A retry left untimed, and why. */
export interface UnplannedDelay extends DelayPlan {
  why: string;
}

/**
 * The retries the full schedule does not time (shorter than TIMED_DELAY_MS at its scale,
 * or all when it cannot run), each planned at the scale where it lasts TIMED_DELAY_MS;
 * those that would take longer than SCALED_SPAN_BOUND_MS at this target's largest scale,
 * or whose failures before them would auto-disable the endpoint first, are left unplanned.
 */
export function planShortDelays(maxScale: number): { planned: DelayPlan[]; unplanned: UnplannedDelay[] } {
  const planned: DelayPlan[] = [];
  const unplanned: UnplannedDelay[] = [];
  SPEC_RETRY_DELAYS_MS.forEach((delay, index) => {
    if (fullScheduleTimes(delay, maxScale)) return;
    const plan = delayPlan(index + 1, Math.max(1, Math.min(maxScale, Math.floor(delay / TIMED_DELAY_MS))));
    if (!measurableAlone(plan.retry))
      unplanned.push({ ...plan, why: 'the failures before it would auto-disable the endpoint first' });
    else if (plan.realMs > SCALED_SPAN_BOUND_MS)
      unplanned.push({ ...plan, why: `over the ${SCALED_SPAN_BOUND_MS / 1000} s bound on scaled time` });
    else planned.push(plan);
  });
  return { planned, unplanned };
}

/** Spec time of the longest retry measured on its own (its failures, then it): what a re-measurement may add to a check. */
export const LONGEST_ALONE_MS = Math.max(
  ...SPEC_RETRY_DELAYS_MS.map((_, index) =>
    measurableAlone(index + 1) ? sum(SPEC_RETRY_DELAYS_MS.slice(0, index + 1)) : 0,
  ),
);

/** Retry `retry` (1-based) measured on its own at `scale`. */
export function delayPlan(retry: number, scale: number): DelayPlan {
  return { retry, scale, realMs: scaled(sum(SPEC_RETRY_DELAYS_MS.slice(0, retry)), scale) };
}

/**
 * Whether a retry can be measured on its own: the failures before it must not last the 24 h
 * that auto-disable the endpoint (12 h can: 14.6 h of failures; 24 h cannot: 38.6 h).
 */
export function measurableAlone(retry: number): boolean {
  return sum(SPEC_RETRY_DELAYS_MS.slice(0, retry)) < SPEC_AUTO_DISABLE_MS;
}

/** What a timed retry saw: the attempts of one event up to the timed retry, and that retry's gap. */
export interface RetryTiming {
  scale: number;
  eventId: string;
  /** The event's attempts, the failed ones then the timed retry when it came (never more). */
  attempts: CapturedDelivery[];
  /** The timed retry's gap and verdict; undefined when it never came within `boundMs`. */
  gap?: GapVerdict;
  /** How long the retry was waited for after the first attempt arrived. */
  boundMs: number;
  /** The tolerance before any widening for a stall during the gap. */
  tolerance: ArrivalTolerance;
}

export interface RetryTimingPlan {
  /** Attempts answered with `answer` before the retry that is timed (1: the first retry). */
  failures: number;
  scale: number;
  /** How the failed attempts are answered; 500 unless given. */
  answer?: ProgrammedAnswer;
  /** Real time the failures themselves take (an answer held past the time-out), waited on top of the delays. */
  extraWaitMs?: number;
}

/**
 * Fails the first `failures` attempts of one event on a fresh endpoint and times the retry
 * that follows them: the one way every webhook suite times a retry delay. Fails the check
 * when not even the first attempt comes within ARRIVAL_SLACK_MS.
 */
export async function timeRetry(t: CheckContext, plan: RetryTimingPlan): Promise<RetryTiming> {
  const { failures, scale, extraWaitMs = 0 } = plan;
  const delaysMs = SPEC_RETRY_DELAYS_MS.slice(0, failures).map((delay) => scaled(delay, scale));
  const workspace = await t.workspace({ timeScale: scale });
  const hook = await t.hookEndpoint(workspace, [FILLER_EVENT]);
  hook.inbox.failFirst(failures, plan.answer ?? { status: 500 });
  const boundMs = extraWaitMs + sum(delaysMs) * (1 + WAIT_FRACTION) + ARRIVAL_SLACK_MS;
  const eventLoop = watchEventLoopDelay();
  let eventId: string;
  let eventLoopP99Ms: number;
  try {
    eventId = await workspace.fireEvent(FILLER_EVENT, { certify: `retry ${failures} delay` });
    await firstAttempt(t, hook.inbox, eventId);
    await within(hook.inbox, (all) => attemptsOf(all, eventId).length > failures, boundMs);
  } finally {
    // Stopped however the wait ends: a check failed here leaves no sampler running.
    eventLoopP99Ms = eventLoop.stop();
  }
  const error: TimingError = {
    eventLoopP99Ms,
    roundTripMs: await serviceRoundTripMs(t),
    stallBetween: eventLoop.stallBetween,
  };
  const attempts = attemptsOf(hook.inbox.deliveries, eventId).slice(0, failures + 1);
  const gap = matchSchedule(attempts.map(timingOf), delaysMs, gapTolerance(error)).gaps[failures - 1];
  return { scale, eventId, attempts, ...(gap ? { gap } : {}), boundMs, tolerance: scheduleTolerance(error) };
}

export type DelayMeasurement = DelayPlan & RetryTiming;

/** Times retry `plan.retry` on its own: its failures before it, at the plan's scale. */
export async function measureRetryDelay(t: CheckContext, plan: DelayPlan): Promise<DelayMeasurement> {
  return { ...plan, ...(await timeRetry(t, { failures: plan.retry, scale: plan.scale })) };
}

// --- The full schedule: one observation for HOOK-RETRY-FULL-SCHEDULE and HOOK-DROP-AND-FLAG --------

export interface ScheduleObservation {
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
  /** What this run could resolve while the schedule ran: the tolerance is built from it. */
  timingError: TimingError;
}

export async function observeSchedule(t: CheckContext): Promise<ScheduleObservation> {
  const scale = await chooseTimeScale(
    t,
    HIGH_SCALE,
    SCHEDULE_SPAN_MS,
    'the whole retry schedule (38.6 h) and the 2 h watch after its drop',
  );
  const delaysMs = scaledDelays(scale);
  const workspace = await t.sharedWorkspace({ timeScale: scale });
  const hook = await t.hookEndpoint(workspace, [SCHEDULE_EVENT, FILLER_EVENT]);
  hook.inbox.respond({ eventType: SCHEDULE_EVENT, status: 500 });
  const initial = await workspace.getEndpoint(hook.registered.endpointId);
  const fillers = repeatedly(
    () => workspace.fireEvent(FILLER_EVENT, { plan: 'certify filler' }),
    scaled(FILLER_EVERY_MS, scale),
  );
  const status = watchStatus(workspace, hook.registered.endpointId, FLAG_POLL_MS);
  const watchAfterDropMs = Math.max(MIN_AFTER_DROP_WATCH_REAL_MS, scaled(AFTER_DROP_WATCH_MS, scale));
  const attemptsNow = () => attemptsOf(hook.inbox.deliveries, eventId);
  let eventId = '';
  let ended: ScheduleObservation['ended'] = 'missing-attempt';
  let watchedAfterLastMs = 0;
  const eventLoop = watchEventLoopDelay();
  let eventLoopP99Ms = 0;
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
        complete = await until(
          () => attemptsNow().length >= n,
          timingOf(previous).endMs + delay * (1 + WAIT_FRACTION) + ARRIVAL_SLACK_MS,
        );
      }
      if (complete) {
        // After the 6th and the 7th: the next attempt, or the flag (the drop), whichever comes first.
        for (let n = 7; n <= 8; n++) {
          const previous = attemptsNow()[n - 2]!;
          await until(() => previous.answer !== 'pending', performance.now() + 5_000);
          const lastDelay = delaysMs[delaysMs.length - 1]!;
          const startMs = performance.now();
          await until(
            () => attemptsNow().length >= n || status.seen.flagged !== undefined,
            timingOf(previous).endMs + lastDelay * (1 + WAIT_FRACTION) + ARRIVAL_SLACK_MS,
          );
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
    eventLoopP99Ms = eventLoop.stop();
    await fillers.stop();
    await status.stop();
  }
  const roundTripMs = await serviceRoundTripMs(t);
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
      acked: fillerDeliveries.filter(
        (d) => d.answeredStatus !== null && d.answeredStatus >= 200 && d.answeredStatus < 300,
      ).length,
    },
    ended,
    watchedAfterLastMs,
    timingError: { eventLoopP99Ms, roundTripMs, stallBetween: eventLoop.stallBetween },
  };
}

// --- Auto-disable: one observation for HOOK-AUTO-DISABLE, HOOK-DISABLED-SILENT, HOOK-REENABLE -------

export interface DisableObservation {
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
    /** Whether the delivery after re-enable verified with the secret the endpoint was registered with. */
    ownSecret?: boolean;
    /** The endpoint as registered, and as the control interface read it once active again. */
    registered: { url: string; events: string[] };
    read: { url: string; events: string[] };
    /** An event of a type the endpoint never subscribed to, fired just before `eventId`. */
    unsubscribed: { type: string; eventId: string; arrivals: number };
  };
}

export async function observeDisable(t: CheckContext): Promise<DisableObservation> {
  const disableMs = SPEC_AUTO_DISABLE_MS;
  const scale = await chooseTimeScale(
    t,
    HIGH_SCALE,
    DISABLE_SPAN_MS,
    'the 24 h auto-disable period, one event interval and the 3 h watch after it',
  );
  const intervalMs = scaled(DISABLE_EVENT_EVERY_MS, scale);
  const periodMs = scaled(disableMs, scale);
  const tolerance = toleranceMs(periodMs, DISABLE_TOLERANCE);
  const workspace = await t.sharedWorkspace({ timeScale: scale });
  const hook: HookedEndpoint = await t.hookEndpoint(workspace, [DISABLE_EVENT]);
  const endpointId = hook.registered.endpointId;
  // This process's own stalls: an attempt in flight at the transition reaches the receiver late by as much.
  const eventLoop = watchEventLoopDelay();
  hook.inbox.failAll({ status: 500 });
  const events: string[] = [];
  const firing = repeatedly(
    async () => events.push(await workspace.fireEvent(DISABLE_EVENT, { certify: 'auto-disable' })),
    intervalMs,
  );
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
      notFailed: before
        .filter((d) => d.answeredStatus !== 500 && d.answer !== 'pending')
        .map((d) => `${d.verdicts.eventId} attempt ${d.attempt}: ${d.answeredStatus ?? d.answer}`),
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
    const transition: DisableTransition = {
      disabledAtMs: disabledAt,
      stallMs: (atMs) => eventLoop.stallBetween(disabledAt, atMs),
      firedBefore: new Set(events.slice(0, firedAtDisable)),
      lastFailedBefore: byEvent,
      delaysMs: scaledDelays(scale),
    };
    const after = hook.inbox.deliveries
      .filter((d) => d.receivedAtMono > disabledAt)
      .map((d) => ({
        eventId: d.verdicts.eventId ?? '?',
        attempt: d.attempt,
        afterDisableMs: round1(d.receivedAtMono - disabledAt),
        inFlight: inFlightAtDisable(d, transition),
      }));
    observation.silent = {
      windowMs,
      eventsFired: events.length - firedAtDisable,
      arrivals: after.filter((a) => !a.inFlight).map(({ inFlight: _, ...arrival }) => arrival),
      inFlight: after.filter((a) => a.inFlight).length,
      retriesDue: retriesDueIn([...byEvent.values()], transition.delaysMs, disabledAt, disabledAt + windowMs),
    };

    // Re-enable: answer 204 from now on, enable, expect `active` and a new event delivered.
    // An event of a type it never subscribed to goes first: a re-enabled endpoint that lost
    // its subscription would have it by the time its own type arrives.
    hook.inbox.reset();
    const enabledAt = performance.now();
    await workspace.enableEndpoint(endpointId);
    const active = await pollUntil(
      () => workspace.getEndpoint(endpointId),
      (status) => status.state === 'active',
      { intervalMs: POLL_MS, timeoutMs: 3_000 },
    );
    const stateAfter = active.last.state;
    const firedAt = performance.now();
    const otherEventId = await workspace.fireEvent(UNSUBSCRIBED_EVENT, { certify: 're-enabled, not subscribed' });
    const eventId = await workspace.fireEvent(DISABLE_EVENT, { certify: 're-enabled' });
    const delivered = await within(
      hook.inbox,
      (all) => all.some((d) => d.verdicts.eventId === eventId && d.answer !== 'pending'),
      5_000,
    );
    const delivery = delivered?.find((d) => d.verdicts.eventId === eventId);
    if (delivery) await sleep(UNSUBSCRIBED_WATCH_MS);
    const signature = delivery?.verdicts.signature;
    observation.reenable = {
      stateAfter,
      ...(active.ok ? { activeAfterMs: round1(active.atMs - enabledAt) } : {}),
      eventId,
      ...(delivery
        ? {
            arrivedAfterMs: round1(delivery.receivedAtMono - firedAt),
            answered: delivery.answeredStatus ?? delivery.answer,
          }
        : {}),
      ...(signature !== undefined ? { ownSecret: signature !== 'no-secret' && signature.ok } : {}),
      registered: { url: hook.registered.url ?? hook.inbox.url, events: [DISABLE_EVENT] },
      read: { url: active.last.url, events: active.last.events },
      unsubscribed: {
        type: UNSUBSCRIBED_EVENT,
        eventId: otherEventId,
        arrivals: attemptsOf(hook.inbox.deliveries, otherEventId).length,
      },
    };
    return observation;
  } finally {
    eventLoop.stop();
    await stopFiring();
  }
}

// --- Auto-disable without an answer: HOOK-AUTO-DISABLE-NO-ANSWER -----------------------------------

/** What the no-answer auto-disable observation waits out, in spec time: the 24 h and one event interval. */
export const NO_ANSWER_DISABLE_SPAN_MS = SPEC_AUTO_DISABLE_MS + DISABLE_EVENT_EVERY_MS;

export interface NoAnswerEndpoint {
  /** `reset`: the receiver read each attempt and reset the connection; `refused`: nothing listens at its URL. */
  how: 'reset' | 'refused';
  endpointId: string;
  /** The window it had to read disabled in, relative to the end of the first reset attempt. */
  window: { lowMs: number; highMs: number };
  disabled?: { afterMs: number; byMs: number };
  lastState: string;
}

export interface NoAnswerDisableObservation {
  scale: number;
  intervalMs: number;
  toleranceMs: number;
  endpoints: NoAnswerEndpoint[];
  eventsFired: number;
  /** Attempts at the reset endpoint, and those the receiver could not end by a reset (no verdict on them). */
  resetAttempts: number;
  notReset: string[];
}

/**
 * Two endpoints of one workspace that never answer: the receiver resets every attempt at one,
 * nothing listens at the other's URL. An event every hour (scaled) goes to both; each must
 * read disabled 24 h (scaled) after its first failed attempt, as HOOK-AUTO-DISABLE's endpoint
 * answering 500 does. The refused endpoint's first attempt is not seen: its window opens
 * when the first event was fired.
 */
export async function observeDisableWithoutAnswer(t: CheckContext): Promise<NoAnswerDisableObservation> {
  const scale = await chooseTimeScale(
    t,
    HIGH_SCALE,
    NO_ANSWER_DISABLE_SPAN_MS,
    'the 24 h auto-disable period and one event interval',
  );
  const intervalMs = scaled(DISABLE_EVENT_EVERY_MS, scale);
  const periodMs = scaled(SPEC_AUTO_DISABLE_MS, scale);
  const tolerance = toleranceMs(periodMs, DISABLE_TOLERANCE);
  const workspace = await t.workspace({ timeScale: scale });
  const reset = await t.hookEndpoint(workspace, [DISABLE_EVENT]);
  reset.inbox.failAll({ reset: true });
  const refused = await workspace.createEndpoint(await (await t.receiver()).refusingUrl(), [DISABLE_EVENT]);
  let fired = 0;
  const firstFiredAt = performance.now();
  const firing = repeatedly(async () => {
    await workspace.fireEvent(DISABLE_EVENT, { certify: 'auto-disable without an answer' });
    fired++;
  }, intervalMs);
  try {
    const arrived = await within(reset.inbox, (all) => all.length >= 1 && all[0]!.answer !== 'pending', 10_000);
    if (!arrived) t.fail('the first event never reached the endpoint that resets every attempt within 10 s');
    const startMs = timingOf(arrived[0]!).endMs;
    const window = { lowMs: periodMs - tolerance, highMs: periodMs + intervalMs + tolerance };
    const watched = [
      { how: 'reset' as const, endpointId: reset.registered.endpointId, window },
      {
        how: 'refused' as const,
        endpointId: refused.endpointId,
        window: { lowMs: window.lowMs - (startMs - firstFiredAt), highMs: window.highMs },
      },
    ];
    const endpoints = await Promise.all(
      watched.map(async (endpoint): Promise<NoAnswerEndpoint> => {
        const polled = await pollUntil(
          () => workspace.getEndpoint(endpoint.endpointId),
          (status) => status.state === 'disabled',
          {
            intervalMs: POLL_MS,
            timeoutMs: startMs + window.highMs + 2_000 - performance.now(),
          },
        );
        const disabled = polled.ok
          ? { afterMs: (polled.previousSentAtMs ?? polled.sentAtMs) - startMs, byMs: polled.atMs - startMs }
          : undefined;
        return { ...endpoint, lastState: polled.last.state, ...(disabled ? { disabled } : {}) };
      }),
    );
    const attempts = reset.inbox.deliveries;
    return {
      scale,
      intervalMs,
      toleranceMs: tolerance,
      endpoints,
      eventsFired: fired,
      resetAttempts: attempts.length,
      notReset: attempts
        .filter((d) => d.answer !== 'reset' && d.answer !== 'pending')
        .map((d) => `${d.verdicts.eventId} attempt ${d.attempt}: ${d.answeredStatus ?? d.answer}`),
    };
  } finally {
    await firing.stop();
  }
}
