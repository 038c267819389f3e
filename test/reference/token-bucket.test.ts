import { describe, expect, test } from 'vitest';
import { RateLimiter, retryAfterHeader } from '../../reference/http/conditions.js';
import { isFull, take, type Bucket } from '../../reference/http/token-bucket.js';

// The rate limit's arithmetic on a fake clock: plain numbers for time, no waiting.

const LIMIT = { ratePerSecond: 10, burst: 10 };

/** Takes `count` tokens at `now`, returning the bucket and how many were allowed. */
function drain(bucket: Bucket | undefined, now: number, count: number) {
  let allowed = 0;
  for (let i = 0; i < count; i++) {
    const outcome = take(bucket, now, LIMIT);
    bucket = outcome.bucket;
    if (outcome.allowed) allowed++;
  }
  return { bucket, allowed };
}

describe('token bucket', () => {
  test('a fresh bucket admits a burst of its rate, then refuses', () => {
    const { bucket, allowed } = drain(undefined, 0, 15);
    expect(allowed).toBe(10);
    const next = take(bucket, 0, LIMIT);
    expect(next.allowed).toBe(false);
    if (!next.allowed) expect(next.retryAfterMs).toBeCloseTo(100);
  });

  test('the wait it names is exactly when the next token is there', () => {
    const { bucket } = drain(undefined, 0, 10);
    expect(take(bucket, 99, LIMIT).allowed).toBe(false);
    expect(take(bucket, 100, LIMIT).allowed).toBe(true);
  });

  test('a refused request spends nothing', () => {
    const { bucket } = drain(undefined, 0, 10);
    const refused = take(bucket, 50, LIMIT);
    expect(refused.allowed).toBe(false);
    expect(take(refused.bucket, 100, LIMIT).allowed).toBe(true);
  });

  test('refilling stops at the burst', () => {
    const { bucket } = drain(undefined, 0, 10);
    expect(isFull(bucket!, 999, LIMIT)).toBe(false);
    expect(isFull(bucket!, 1000, LIMIT)).toBe(true);
    expect(drain(bucket, 60_000, 20).allowed).toBe(10);
  });

  test('a clock going backwards neither refills nor breaks the bucket', () => {
    const { bucket } = drain(undefined, 1000, 10);
    expect(take(bucket, 500, LIMIT).allowed).toBe(false);
  });
});

describe('rate limiter', () => {
  test('each workspace has its own bucket; the client bucket is shared', () => {
    const limiter = new RateLimiter({ perWorkspace: 2, perClient: 5 });
    expect([1, 2, 3].map(() => limiter.admit('c', 'ws_a', 0).allowed)).toEqual([true, true, false]);
    expect([1, 2, 3].map(() => limiter.admit('c', 'ws_b', 0).allowed)).toEqual([true, true, false]);
    // Four admitted so far from client c: one more, then the client limit.
    expect(limiter.admit('c', 'ws_c', 0).allowed).toBe(true);
    const refused = limiter.admit('c', 'ws_d', 0);
    expect(refused).toMatchObject({ allowed: false, scope: 'client address' });
    expect(limiter.admit('other', 'ws_d', 0).allowed).toBe(true);
  });

  test('a rate below one per second still admits one request at a time', () => {
    const limiter = new RateLimiter({ perClient: 0.5 });
    expect([0, 1000, 2000, 3999, 4000].map((t) => limiter.admit('c', undefined, t).allowed)).toEqual([
      true,
      false,
      true,
      false,
      true,
    ]);
  });

  test('requests without a workspace count against the client only', () => {
    const limiter = new RateLimiter({ perWorkspace: 1, perClient: 3 });
    expect([1, 2, 3, 4].map(() => limiter.admit('c', undefined, 0).allowed)).toEqual([true, true, true, false]);
  });

  test('a request the workspace refuses spends no client token', () => {
    const limiter = new RateLimiter({ perWorkspace: 1, perClient: 2 });
    expect(limiter.admit('c', 'ws_a', 0).allowed).toBe(true);
    expect(limiter.admit('c', 'ws_a', 0)).toMatchObject({ allowed: false, scope: 'workspace' });
    expect(limiter.admit('c', 'ws_b', 0).allowed).toBe(true);
  });

  test('sweeping forgets only buckets that have refilled', () => {
    const limiter = new RateLimiter({ perClient: 1 });
    limiter.admit('c', undefined, 0);
    limiter.sweep(500);
    expect(limiter.admit('c', undefined, 500).allowed).toBe(false);
    limiter.sweep(2000);
    expect(limiter.admit('c', undefined, 2000).allowed).toBe(true);
  });
});

describe('Retry-After', () => {
  test('seconds are whole, rounded up, at least 1', () => {
    expect(retryAfterHeader('seconds', 1, 0)).toEqual({ 'Retry-After': '1' });
    expect(retryAfterHeader('seconds', 1001, 0)).toEqual({ 'Retry-After': '2' });
  });

  test('a date is an HTTP date no earlier than the wait', () => {
    const now = Date.UTC(2026, 0, 1, 12, 0, 0, 900);
    const header = retryAfterHeader('date', 200, now)!['Retry-After']!;
    expect(header).toBe('Thu, 01 Jan 2026 12:00:02 GMT');
    expect(Date.parse(header)).toBeGreaterThanOrEqual(now + 200);
  });

  test('none leaves the header out', () => {
    expect(retryAfterHeader('none', 500, 0)).toBeUndefined();
  });
});
