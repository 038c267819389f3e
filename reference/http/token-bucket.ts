// A token bucket as a pure function of time: the state is two numbers and every decision
// is computed from them and `now`, so a test drives it with plain numbers instead of
// waiting, and a caller may look at a decision before committing it (a request that two
// buckets must admit spends a token from neither unless both agree).

export interface Bucket {
  /** Tokens left at `at`; fractional while refilling. */
  tokens: number;
  /** When `tokens` was last brought up to date (ms, any monotonic origin). */
  at: number;
}

export interface BucketLimit {
  /** Tokens added per second. */
  ratePerSecond: number;
  /** Most tokens the bucket holds: how many requests may arrive at once after a quiet spell. */
  burst: number;
}

export type TakeOutcome = { allowed: true; bucket: Bucket } | { allowed: false; bucket: Bucket; retryAfterMs: number };

/** The bucket as it stands at `now`; an absent bucket is a full one. */
export function refill(bucket: Bucket | undefined, now: number, limit: BucketLimit): Bucket {
  if (bucket === undefined) return { tokens: limit.burst, at: now };
  const elapsed = Math.max(0, now - bucket.at);
  return {
    tokens: Math.min(limit.burst, bucket.tokens + (elapsed * limit.ratePerSecond) / 1000),
    at: Math.max(now, bucket.at),
  };
}

/** Takes one token at `now`, or says how long until one is there. */
export function take(bucket: Bucket | undefined, now: number, limit: BucketLimit): TakeOutcome {
  const current = refill(bucket, now, limit);
  if (current.tokens >= 1) return { allowed: true, bucket: { tokens: current.tokens - 1, at: current.at } };
  return { allowed: false, bucket: current, retryAfterMs: ((1 - current.tokens) * 1000) / limit.ratePerSecond };
}

/** A bucket that has refilled completely says nothing an absent one would not. */
export function isFull(bucket: Bucket, now: number, limit: BucketLimit): boolean {
  return refill(bucket, now, limit).tokens >= limit.burst;
}
