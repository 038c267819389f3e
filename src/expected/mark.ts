/**
 * What an expected failure (src/expected/file.ts) did in a run, marked on its check of the
 * report: the check keeps its true verdict, and `expected_failure.status` says how the entry
 * met it. Only a `still-failing` entry changes the run's verdict (its failure does not fail
 * the run); a `fixed` one fails it under --strict; an `expired` one changes nothing, so its
 * failure counts again. Every writer reads these marks; none recomputes them.
 */
import { z } from 'zod';
import type { ExpectedFailure } from './file.js';

const STATUS = z
  .enum(['still-failing', 'fixed', 'expired', 'not-judged'])
  .describe(
    'still-failing: failed (or warned) as expected, and does not fail the run; fixed: passes now, remove it from the list (fails the run under --strict); expired: past its expiry, a failure counts again; not-judged: skipped or no verdict',
  );

export const EXPECTED_FAILURE_MARK = z
  .object({
    reason: z.string(),
    expires: z.string().optional().describe('last day (UTC) the entry excuses a failure'),
    status: STATUS,
  })
  .describe('present when the check is listed in the expected-failures file of the run');

export const EXPECTED_FAILURES_OF_RUN = z
  .object({
    file: z.string().describe('the expected-failures file, as given'),
    strict: z.boolean().describe('--strict: an expected failure that passes fails the run'),
  })
  .describe('present when the run was given an expected-failures file (--expected-failures)');

export type ExpectedStatus = z.infer<typeof STATUS>;
export type ExpectedFailureMark = z.infer<typeof EXPECTED_FAILURE_MARK>;

/** The little of a check and of a report that the marks need (src/report/model.ts's types have more). */
interface MarkedCheck {
  id: string;
  verdict: string;
  expected_failure?: ExpectedFailureMark | undefined;
}
interface MarkedReport {
  checks: readonly MarkedCheck[];
  expected_failures?: { file: string; strict: boolean } | undefined;
}

/** "2026-11-27": the UTC day an expiry is compared with. */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function statusOf(verdict: string, entry: ExpectedFailure, today: string): ExpectedStatus {
  if (entry.expires !== undefined && today > entry.expires) return 'expired';
  if (verdict === 'fail' || verdict === 'warn') return 'still-failing';
  if (verdict === 'pass') return 'fixed';
  return 'not-judged';
}

/** The checks, each listed one carrying its mark; the others as they were. */
export function markExpectedFailures<C extends MarkedCheck>(
  checks: readonly C[],
  entries: readonly ExpectedFailure[],
  now = new Date(),
): C[] {
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  const today = utcDay(now);
  return checks.map((check) => {
    const entry = byId.get(check.id);
    if (entry === undefined) return check;
    const mark: ExpectedFailureMark = {
      reason: entry.reason,
      ...(entry.expires !== undefined ? { expires: entry.expires } : {}),
      status: statusOf(check.verdict, entry, today),
    };
    return { ...check, expected_failure: mark };
  });
}

/** A failure the expected-failures file excuses: it does not fail the run. */
export function excusedFailure(check: MarkedCheck): boolean {
  return check.expected_failure?.status === 'still-failing';
}

/** Expected failures that pass now, when the run is strict about them: each fails the run. */
export function strictlyFixed(report: MarkedReport): MarkedCheck[] {
  if (report.expected_failures?.strict !== true) return [];
  return report.checks.filter((check) => check.expected_failure?.status === 'fixed');
}

export function withStatus(report: MarkedReport, status: ExpectedStatus): MarkedCheck[] {
  return report.checks.filter((check) => check.expected_failure?.status === status);
}

/** How a listed check reads beside its verdict, in every writer: "expected failure", "fixed: remove it from the list", … */
export function statusText(mark: ExpectedFailureMark, strict: boolean): string {
  switch (mark.status) {
    case 'still-failing':
      return `expected failure: ${mark.reason}`;
    case 'fixed':
      return `listed as an expected failure but passes: fixed, remove it from the list${strict ? ' (--strict: this fails the run)' : ''}`;
    case 'expired':
      return `expected-failure entry expired after ${mark.expires}: counted as its verdict (renew it or fix the check)`;
    case 'not-judged':
      return `listed as an expected failure; not judged in this run`;
  }
}

/** The console's lines about the list, after the summary table; none without a file. */
export function expectedFailureLines(report: MarkedReport): string[] {
  const run = report.expected_failures;
  if (run === undefined) return [];
  const ids = (status: ExpectedStatus) => withStatus(report, status).map((check) => check.id);
  const lines = [`expected failures (${run.file}):`];
  const groups: Array<[ExpectedStatus, string]> = [
    ['still-failing', 'still failing, as expected (not failing the run)'],
    ['fixed', `fixed: remove them from ${run.file}${run.strict ? ' (--strict: the run fails)' : ''}`],
    ['expired', 'expired: counted as failures again'],
    ['not-judged', 'not judged (skipped, not selected or no verdict)'],
  ];
  for (const [status, text] of groups) {
    const listed = ids(status);
    if (listed.length > 0) lines.push(`  ${text}: ${listed.join(', ')}`);
  }
  if (lines.length === 1) lines.push('  none of the listed checks ran');
  return lines;
}
