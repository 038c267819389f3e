/** The one sleep and the one poller: every bounded wait of the harness uses these. */
import { performance } from 'node:perf_hooks';

/** Resolves after `ms` (a negative or zero wait resolves on the next turn). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

export interface PollResult<T> {
  /** Whether `done` held before the time-out (or `stop`). */
  ok: boolean;
  /** The last value read: the one that satisfied `done` when ok. */
  last: T;
  /** From the start to the answer of the last read. */
  elapsedMs: number;
  attempts: number;
  /** Monotonic ms when the last read was sent. */
  sentAtMs: number;
  /** Monotonic ms when it answered. */
  atMs: number;
  /** Monotonic ms when the read before it was sent; undefined on the first. */
  previousSentAtMs?: number;
}

/**
 * Reads every `intervalMs` until `done(value)` holds or `timeoutMs` passes; `stop()`
 * returning true ends it early. Always reads once. A read never starts after the time-out.
 */
export async function pollUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  options: { intervalMs: number; timeoutMs: number; stop?: () => boolean },
): Promise<PollResult<T>> {
  const started = performance.now();
  const deadline = started + options.timeoutMs;
  let previousSentAtMs: number | undefined;
  let attempts = 0;
  for (;;) {
    const sentAtMs = performance.now();
    const last = await read();
    const atMs = performance.now();
    attempts++;
    const result = {
      last,
      elapsedMs: atMs - started,
      attempts,
      sentAtMs,
      atMs,
      ...(previousSentAtMs !== undefined ? { previousSentAtMs } : {}),
    };
    if (done(last)) return { ok: true, ...result };
    if (atMs + options.intervalMs > deadline || options.stop?.()) return { ok: false, ...result };
    previousSentAtMs = sentAtMs;
    await sleep(options.intervalMs);
  }
}
