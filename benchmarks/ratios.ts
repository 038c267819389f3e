/** The benches' ratios: shares, CPU shares, and CPU shares paired round by round. */

/** A server's CPU per request in each round of a bench, in round order. */
export interface PerRound {
  cpuUsPerRound: number[];
}

/** `a` as a share of `b`, e.g. "83%". */
export function ratioPct(a: number | undefined, b: number | undefined): string {
  return a && b ? `${((100 * a) / b).toFixed(0)}%` : 'n/a';
}

/** By CPU per request a cheaper server is a faster one: the share is the base's cost over this cost. */
export function cpuRatioPct(cost: number | undefined, base: number | undefined): string {
  return ratioPct(base, cost);
}

/**
 * By CPU per request, round by round: the base's cost over the server's in each round.
 * Pairing the two rows within a round leaves out the drift of a shared machine between
 * rounds, which moves one server's cost as much as the differences being measured.
 */
export function pairedCpuRatios(server: PerRound | undefined, base: PerRound | undefined): number[] {
  const rounds = Math.min(server?.cpuUsPerRound.length ?? 0, base?.cpuUsPerRound.length ?? 0);
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const cost = server!.cpuUsPerRound[round]!;
    if (cost > 0) ratios.push(base!.cpuUsPerRound[round]! / cost);
  }
  return ratios;
}

/** How a ratio is printed: a share ("83%") or a multiple ("1.64 ×"). */
export type RatioUnit = '%' | '×';

export function formatRatio(ratio: number, unit: RatioUnit): string {
  return unit === '%' ? `${(100 * ratio).toFixed(0)}%` : `${ratio.toFixed(2)} ×`;
}

/** Paired ratios as "median (lowest–highest)", e.g. "52% (37%–59%)" or "1.91 × (1.83–2.00 ×)"; one alone as itself. */
export function formatPaired(ratios: readonly number[], unit: RatioUnit): string {
  if (ratios.length === 0) return 'n/a';
  const sorted = [...ratios].sort((a, b) => a - b);
  if (sorted.length === 1) return formatRatio(sorted[0]!, unit);
  const lowest = unit === '%' ? formatRatio(sorted[0]!, unit) : sorted[0]!.toFixed(2);
  return `${formatRatio(median(sorted), unit)} (${lowest}–${formatRatio(sorted.at(-1)!, unit)})`;
}

/** pairedCpuRatios as printed: "median (lowest–highest)". */
export function pairedCpuRatio(server: PerRound | undefined, base: PerRound | undefined): string {
  return formatPaired(pairedCpuRatios(server, base), '%');
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
