/** The result of a run, as ../shared/contracts/runner.md fixes report.json. */
import type { Level } from '../catalog/checks.js';

export type Verdict = 'pass' | 'fail' | 'warn' | 'skip';

export interface CheckResult {
  id: string;
  title: string;
  clause: string;
  level: Level;
  verdict: Verdict;
  duration_ms: number;
  detail?: string;
  measurements?: Record<string, unknown>;
  /** Suite the check belongs to (not in the contract's example; extra fields are allowed). */
  area: string;
}

export interface RunReport {
  harness_version: string;
  target: { base_url: string; embedded_reference: boolean };
  started_at: string;
  finished_at: string;
  summary: Record<Verdict, number>;
  checks: CheckResult[];
  tier: 'fast' | 'full';
  /** Set when the run was stopped by a signal before every check ran. */
  interrupted?: boolean;
}

export function summarize(checks: readonly CheckResult[]): Record<Verdict, number> {
  const summary: Record<Verdict, number> = { pass: 0, fail: 0, warn: 0, skip: 0 };
  for (const check of checks) summary[check.verdict] += 1;
  return summary;
}

/** How a test outcome becomes a verdict: a `should` that fails warns, an `observe` records. */
export function verdictOf(level: Level, state: 'passed' | 'failed' | 'skipped'): Verdict {
  if (state === 'skipped') return 'skip';
  if (state === 'passed') return 'pass';
  return level === 'must' ? 'fail' : 'warn';
}

/** The run fails when a `must` check failed. */
export function mustFailed(report: RunReport): boolean {
  return report.checks.some((check) => check.level === 'must' && check.verdict === 'fail');
}
