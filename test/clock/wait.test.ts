/** The one sleep and the one poller. */
import { describe, expect, test } from 'vitest';
import { pollUntil, sleep } from '../../src/clock/wait.js';

describe('sleep', () => {
  test('waits about as long as asked; a negative wait resolves on the next turn', async () => {
    const started = performance.now();
    await sleep(20);
    expect(performance.now() - started).toBeGreaterThanOrEqual(15);
    await expect(sleep(-5)).resolves.toBeUndefined();
  });
});

describe('pollUntil', () => {
  test('reads until done holds, and reports the read that satisfied it', async () => {
    let reads = 0;
    const result = await pollUntil(
      async () => ++reads,
      (n) => n === 3,
      { intervalMs: 1, timeoutMs: 1_000 },
    );
    expect(result).toMatchObject({ ok: true, last: 3, attempts: 3 });
    expect(result.previousSentAtMs).toBeLessThan(result.sentAtMs);
  });

  test('gives up at the time-out, never starting a read after it', async () => {
    let reads = 0;
    const result = await pollUntil(
      async () => ++reads,
      () => false,
      { intervalMs: 20, timeoutMs: 70 },
    );
    expect(result.ok).toBe(false);
    expect(result.attempts).toBeGreaterThanOrEqual(2);
    expect(result.attempts).toBeLessThanOrEqual(4);
    expect(result.elapsedMs).toBeLessThan(70 + 20);
  });

  test('always reads once, even with no time at all, and stops early on stop()', async () => {
    expect(
      await pollUntil(
        async () => 'once',
        () => false,
        { intervalMs: 10, timeoutMs: 0 },
      ),
    ).toMatchObject({ ok: false, attempts: 1, last: 'once' });
    expect(
      await pollUntil(
        async () => 'x',
        () => false,
        { intervalMs: 1, timeoutMs: 10_000, stop: () => true },
      ),
    ).toMatchObject({ ok: false, attempts: 1 });
  });
});
