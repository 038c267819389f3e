/**
 * Waiting helpers for the webhook delivery and retry suites: event-driven waits on a
 * receiver endpoint with bounded time-outs, bounded polling of the control interface,
 * and the choice of a workspace time scale the target allows.
 */
import { performance } from 'node:perf_hooks';
import type { CapturedDelivery } from '../../receiver/types.js';
import type { ReceiverEndpoint } from '../../receiver/endpoint.js';
import type { CheckContext } from '../context.js';
import type { AttemptTiming } from './schedule.js';

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

export interface PollResult<T> {
  value: T;
  /** Monotonic ms when the request that returned `value` was sent. */
  sentAtMs: number;
  /** Monotonic ms when it answered. */
  atMs: number;
  /** Monotonic ms when the previous poll (whose value did not satisfy) was sent; undefined on the first. */
  previousSentAtMs?: number;
  polls: number;
}

/**
 * Calls `read` every `intervalMs` until `done(value)` holds or `timeoutMs` passes
 * (then resolves undefined); `stop()` returning true ends it early (undefined too).
 */
export async function pollUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  options: { intervalMs: number; timeoutMs: number; stop?: () => boolean },
): Promise<PollResult<T> | undefined> {
  const deadline = performance.now() + options.timeoutMs;
  let previousSentAtMs: number | undefined;
  let polls = 0;
  while (true) {
    const sentAtMs = performance.now();
    const value = await read();
    const atMs = performance.now();
    polls++;
    if (done(value)) return { value, sentAtMs, atMs, polls, ...(previousSentAtMs !== undefined ? { previousSentAtMs } : {}) };
    previousSentAtMs = sentAtMs;
    if (atMs >= deadline || options.stop?.()) return undefined;
    await sleep(Math.min(options.intervalMs, Math.max(0, deadline - atMs)));
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The time scale to run at: `wanted`, capped by the target's max_time_scale. Skips the
 * check when the scaled span (`spanMs` of spec time) would take longer than `budgetMs`
 * of real time at that scale.
 */
export async function chooseTimeScale(t: CheckContext, wanted: number, spanMs: number, budgetMs: number, what: string): Promise<number> {
  const { max_time_scale: max } = await t.capabilities();
  const scale = Math.max(1, Math.min(wanted, max));
  const realMs = spanMs / scale;
  if (realMs > budgetMs) {
    t.skip(
      `the target's max_time_scale ${max} makes ${what} last ${(realMs / 1000).toFixed(1)} s of real time, ` +
        `over this check's budget of ${(budgetMs / 1000).toFixed(0)} s (time scale ${wanted} wanted)`,
    );
  }
  return scale;
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/** Waits (bounded) until the receiver has finished answering `delivery`: sent, reset, timed out or hung up on. */
export async function settled(inbox: ReceiverEndpoint, delivery: CapturedDelivery, boundMs: number): Promise<CapturedDelivery> {
  await within(inbox, () => delivery.answer !== 'pending', boundMs);
  return delivery;
}
