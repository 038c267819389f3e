/**
 * Waiting helpers for the webhook delivery and retry suites: event-driven waits on a
 * receiver endpoint with bounded time-outs, and the choice of a workspace time scale the
 * target allows within the bound of src/suite/timing/budget.ts (polling and sleeping:
 * src/clock/wait.ts).
 */
import type { CapturedDelivery } from '../../capturing-receiver/types.js';
import type { ReceiverEndpoint } from '../../capturing-receiver/endpoint.js';
import type { CheckContext } from '../context.js';
import { sleep } from '../../clock/wait.js';
import type { AttemptTiming } from './schedule.js';
import { chooseScale, SCALED_SPAN_BOUND_MS, smallestScaleWithin } from './budget.js';

/**
 * Allowance for the service to send an attempt that falls due (a first attempt, or a retry
 * on top of its tolerance): only how long a missing attempt is waited for, never a verdict.
 */
export const ARRIVAL_SLACK_MS = 5_000;

/** Deliveries of one event id at an endpoint, in arrival order. */
export function attemptsOf(deliveries: readonly CapturedDelivery[], eventId: string): CapturedDelivery[] {
  return deliveries.filter((delivery) => delivery.verdicts.eventId === eventId);
}

/** Arrival and end of a delivery's answer on the monotonic clock. */
export function timingOf(delivery: CapturedDelivery): AttemptTiming {
  return { startMs: delivery.receivedAtMono, endMs: delivery.receivedAtMono + (delivery.answeredAfterMs ?? 0) };
}

/**
 * Waits up to `ms` for `predicate` to hold on the endpoint's deliveries; resolves with
 * the deliveries when it does, with undefined when the time passes first. For "nothing
 * more arrives" the caller expects undefined; the wait ends early only on a violation.
 */
export async function within(
  inbox: ReceiverEndpoint,
  predicate: (deliveries: readonly CapturedDelivery[]) => boolean,
  ms: number,
): Promise<readonly CapturedDelivery[] | undefined> {
  try {
    return await inbox.waitFor(predicate, { timeoutMs: Math.max(1, Math.round(ms)) });
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('waitFor(')) return undefined;
    throw error;
  }
}

/**
 * The time scale to run at: `wanted`, capped by the target's max_time_scale. Skips the
 * check when `spanMs` of spec time would last longer than SCALED_SPAN_BOUND_MS of real time
 * at that scale; the reason names the scale, the bound and the scale that would fit.
 */
export async function chooseTimeScale(t: CheckContext, wanted: number, spanMs: number, what: string): Promise<number> {
  const { max_time_scale: max } = await t.capabilities();
  const choice = chooseScale(wanted, max, spanMs);
  if (!choice.withinBound) {
    t.skip(
      `the target's max_time_scale ${max} makes ${what} last ${(choice.realMs / 1000).toFixed(1)} s of real time at time scale ${choice.scale}, ` +
        `over the bound of ${(SCALED_SPAN_BOUND_MS / 1000).toFixed(0)} s a check may spend on scaled time (SCALED_SPAN_BOUND_MS); ` +
        `a max_time_scale of ${smallestScaleWithin(spanMs)} or more runs it`,
    );
  }
  return choice.scale;
}

/** Waits for the first attempt of `eventId` at `inbox`; fails the check when none comes within `boundMs` of now. */
export async function firstAttempt(
  t: CheckContext,
  inbox: ReceiverEndpoint,
  eventId: string,
  boundMs = ARRIVAL_SLACK_MS,
): Promise<CapturedDelivery> {
  const arrived = await within(inbox, (all) => attemptsOf(all, eventId).length >= 1, boundMs);
  if (!arrived) t.fail(`${eventId} never arrived at the endpoint within ${seconds(boundMs)} of being fired`);
  return attemptsOf(arrived, eventId)[0]!;
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/** Waits (bounded) until the receiver has finished answering `delivery`: sent, reset, timed out or hung up on. */
export async function settled(
  inbox: ReceiverEndpoint,
  delivery: CapturedDelivery,
  boundMs: number,
): Promise<CapturedDelivery> {
  await within(inbox, () => delivery.answer !== 'pending', boundMs);
  return delivery;
}

/** Fires `fire` now and then every `everyMs` until stopped; counts events and errors. */
export function repeatedly(fire: () => Promise<unknown>, everyMs: number) {
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
