/** Polling until a condition holds, for rules stated as "within N seconds". */

export interface PollResult<T> {
  ok: boolean;
  /** The last value seen (the one that satisfied the condition when ok). */
  last: T;
  elapsedMs: number;
  attempts: number;
}

export async function pollUntil<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  options: { timeoutMs: number; intervalMs: number },
): Promise<PollResult<T>> {
  const started = Date.now();
  let attempts = 0;
  for (;;) {
    attempts += 1;
    const last = await probe();
    const elapsedMs = Date.now() - started;
    if (done(last)) return { ok: true, last, elapsedMs, attempts };
    if (elapsedMs + options.intervalMs > options.timeoutMs) return { ok: false, last, elapsedMs, attempts };
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs));
  }
}
