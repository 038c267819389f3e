/** The bounded helpers of src/async: a limit on what runs at once, a fallback after a time. */
import { describe, expect, test } from 'vitest';
import { mapLimit } from '../../src/async/map-limit.js';
import { withTimeout } from '../../src/async/with-timeout.js';
import { sleep } from '../../src/clock/wait.js';

describe('mapLimit', () => {
  test('never runs more than the limit at once, and keeps the items order in its results', async () => {
    let running = 0;
    let most = 0;
    const out = await mapLimit([30, 5, 20, 1, 10, 2], 2, async (ms) => {
      most = Math.max(most, ++running);
      await sleep(ms);
      running--;
      return ms * 2;
    });
    expect(out).toEqual([60, 10, 40, 2, 20, 4]);
    expect(most).toBe(2);
  });

  test('an empty list gives an empty result without calling fn', async () => {
    let calls = 0;
    expect(await mapLimit([], 4, async () => ++calls)).toEqual([]);
    expect(calls).toBe(0);
  });

  test('a failing item rejects the whole', async () => {
    await expect(
      mapLimit([1, 2, 3], 2, async (n) => {
        if (n === 2) throw new Error('item 2');
        return n;
      }),
    ).rejects.toThrow('item 2');
  });
});

describe('withTimeout', () => {
  test('the value when it comes first', async () => {
    expect(await withTimeout(Promise.resolve('value'), 1_000, 'fallback')).toBe('value');
  });

  test('the fallback when the time passes first', async () => {
    const started = performance.now();
    expect(await withTimeout(new Promise<string>(() => undefined), 30, 'fallback')).toBe('fallback');
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
  });

  test('a rejection that comes first is passed on', async () => {
    await expect(withTimeout(Promise.reject(new Error('no')), 1_000, 'fallback')).rejects.toThrow('no');
  });
});
