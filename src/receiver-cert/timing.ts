/**
 * Statistics of the constant-time probe (Events > Signature, 4). The probe sends wrong
 * signatures that share longer and longer prefixes with the right one; an early-exit
 * comparison takes longer the more leading characters match. These functions only
 * summarise the samples; the probe's verdict is always an observation.
 */
import { median, quantile } from '../stats/summary.js';

export interface TimingSample {
  prefix: number;
  ms: number;
}

export interface TimingSummary {
  prefixLengths: number[];
  samples: number;
  medianMsByPrefix: Record<string, number>;
  iqrMsByPrefix: Record<string, number>;
  /** Spearman rank correlation between prefix length and time, over every sample. */
  spearmanRho: number;
  /** Least-squares slope of the medians, in microseconds per matching hex character. */
  slopeUsPerChar: number;
  /** Median time of the longest prefix minus that of the shortest. */
  spreadMs: number;
  leakSuspected: boolean;
}

/** A rank correlation this high over this many samples is unlikely to be noise (about 3 standard errors at 100 samples). */
export const RHO_THRESHOLD = 0.3;
/** Differences smaller than this are below what loopback jitter lets the probe see. */
export const MIN_VISIBLE_SPREAD_MS = 0.25;

export function summarizeTiming(samples: readonly TimingSample[]): TimingSummary {
  const prefixLengths = [...new Set(samples.map((s) => s.prefix))].sort((a, b) => a - b);
  const medianMsByPrefix: Record<string, number> = {};
  const iqrMsByPrefix: Record<string, number> = {};
  for (const prefix of prefixLengths) {
    const times = samples.filter((s) => s.prefix === prefix).map((s) => s.ms);
    medianMsByPrefix[prefix] = round3(median(times));
    iqrMsByPrefix[prefix] = round3(quantile(times, 0.75) - quantile(times, 0.25));
  }
  const spearmanRho = round3(
    spearman(
      samples.map((s) => s.prefix),
      samples.map((s) => s.ms),
    ),
  );
  const xs = prefixLengths;
  const ys = prefixLengths.map((p) => medianMsByPrefix[p]!);
  const slopeUsPerChar = round3(slope(xs, ys) * 1000);
  const first = prefixLengths[0];
  const last = prefixLengths[prefixLengths.length - 1];
  const spreadMs =
    first === undefined || last === undefined ? 0 : round3(medianMsByPrefix[last]! - medianMsByPrefix[first]!);
  const noise = first === undefined ? 0 : iqrMsByPrefix[first]!;
  const leakSuspected = spearmanRho >= RHO_THRESHOLD && spreadMs >= Math.max(MIN_VISIBLE_SPREAD_MS, noise / 2);
  return {
    prefixLengths,
    samples: samples.length,
    medianMsByPrefix,
    iqrMsByPrefix,
    spearmanRho,
    slopeUsPerChar,
    spreadMs,
    leakSuspected,
  };
}

/** Ranks with ties given their average rank. */
export function ranks(values: readonly number[]): number[] {
  const order = values.map((value, index) => ({ value, index })).sort((a, b) => a.value - b.value);
  const out = new Array<number>(values.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]!.value === order[i]!.value) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) out[order[k]!.index] = rank;
    i = j + 1;
  }
  return out;
}

export function spearman(xs: readonly number[], ys: readonly number[]): number {
  return pearson(ranks(xs), ranks(ys));
}

export function pearson(xs: readonly number[], ys: readonly number[]): number {
  const n = Math.min(xs.length, ys.length);
  if (n < 2) return 0;
  const mx = xs.slice(0, n).reduce((a, b) => a + b, 0) / n;
  const my = ys.slice(0, n).reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = xs[i]! - mx;
    const dy = ys[i]! - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxx === 0 || syy === 0 ? 0 : sxy / Math.sqrt(sxx * syy);
}

export function slope(xs: readonly number[], ys: readonly number[]): number {
  const n = Math.min(xs.length, ys.length);
  if (n < 2) return 0;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
  }
  return sxx === 0 ? 0 : sxy / sxx;
}

/**
 * A wrong signature of the right length and alphabet sharing exactly `prefix` leading hex
 * characters with `right`: the next character differs, the rest is random.
 */
export function signatureWithPrefix(right: string, prefix: number, random: () => number = Math.random): string {
  const hex = '0123456789abcdef';
  let out = right.slice(0, prefix);
  if (prefix < right.length) {
    const differs = hex.replace(right[prefix]!, '');
    out += differs[Math.floor(random() * differs.length)]!;
  }
  while (out.length < right.length) out += hex[Math.floor(random() * 16)]!;
  return out;
}

function round3(value: number): number {
  return Number.isFinite(value) ? Math.round(value * 1000) / 1000 : value;
}
