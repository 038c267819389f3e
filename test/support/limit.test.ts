import { describe, expect, it } from 'vitest';
import { limiter } from './limit.js';

describe('limiter', () => {
  it('runs at most `limit` tasks at a time, the rest in the order they came', async () => {
    const limit = limiter(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const task = (n: number) => async () => {
      started.push(n);
      running += 1;
      most = Math.max(most, running);
      await new Promise((done) => setTimeout(done, 5));
      running -= 1;
      return n;
    };
    const results = await Promise.all([1, 2, 3, 4, 5].map((n) => limit(task(n))));
    expect(results).toEqual([1, 2, 3, 4, 5]);
    expect(most).toBe(2);
    expect(started).toEqual([1, 2, 3, 4, 5]);
  });

  it('frees the slot of a task that fails', async () => {
    const limit = limiter(1);
    await expect(limit(() => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    await expect(limit(async () => 'next')).resolves.toBe('next');
  });
});
