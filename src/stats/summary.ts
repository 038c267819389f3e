/**
 * Order statistics shared by the timing checks, the receiver certification and the load
 * merge. One definition of each, so that a median in a report and a p99 in a load summary
 * are computed alike: linear interpolation between the sorted values around q × (n − 1),
 * which is also k6's (its TrendSink.P), so merged load figures match k6's own.
 */

/** The q-quantile (0 ≤ q ≤ 1) of values already sorted ascending; NaN for none. */
export function quantileOfSorted(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const position = q * (sorted.length - 1);
  const low = sorted[Math.floor(position)]!;
  const high = sorted[Math.ceil(position)]!;
  return low + (high - low) * (position - Math.floor(position));
}

/** The q-quantile of values in any order; NaN for none. */
export function quantile(values: readonly number[], q: number): number {
  return quantileOfSorted(
    [...values].sort((a, b) => a - b),
    q,
  );
}

/** The median of values in any order; NaN for none. */
export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

/** `value` rounded to one decimal place, as reports print milliseconds. */
export function round1(value: number): number {
  return Math.round(value * 10) / 10;
}
