/**
 * The gate of `report diff`: the checks that fail in the later report but passed, or were
 * expected to fail (src/expected/), in the earlier one. A failure both reports share is not
 * new, nor is one the later report's expected-failures file excuses, nor a check the earlier
 * report did not judge (skip, error, warn, absent): the gate is "nothing that worked broke".
 */
import { excusedFailure } from '../expected/mark.js';
import { escapeMarkdownCell } from './escape.js';
import type { CheckResult, RunReport } from './model.js';

export interface NewFailure {
  id: string;
  title: string;
  level: string;
  /** What the earlier report said. */
  was: 'pass' | 'expected failure';
  /** Why it counts now: its failure, or its expected-failure entry expired or was removed. */
  detail: string;
}

const failsNow = (check: CheckResult): boolean => check.verdict === 'fail' && !excusedFailure(check);

function wasFine(check: CheckResult | undefined): NewFailure['was'] | undefined {
  if (check === undefined) return undefined;
  if (check.verdict === 'pass') return 'pass';
  return excusedFailure(check) ? 'expected failure' : undefined;
}

export function newFailures(earlier: RunReport, later: RunReport): NewFailure[] {
  const before = new Map(earlier.checks.map((check) => [check.id, check]));
  const found: NewFailure[] = [];
  for (const check of later.checks) {
    const was = wasFine(before.get(check.id));
    if (was === undefined || !failsNow(check)) continue;
    const entry =
      check.expected_failure?.status === 'expired'
        ? `its expected-failure entry expired after ${check.expected_failure.expires}; `
        : '';
    found.push({ id: check.id, title: check.title, level: check.level, was, detail: `${entry}${check.detail ?? ''}` });
  }
  return found;
}

/** The section heading the diff's Markdown: what the gate decided, first. */
export function newFailuresMarkdown(found: readonly NewFailure[], labels: readonly [string, string]): string {
  const [a, b] = labels.map(escapeMarkdownCell);
  if (found.length === 0)
    return `## New failures: none\n\nNo check that passed (or was expected to fail) in ${a} fails in ${b}.\n\n`;
  const lines = [
    `## New failures (${found.length})`,
    '',
    `Checks that passed (or were expected to fail) in ${a} and fail in ${b}:`,
    '',
  ];
  for (const failure of found)
    lines.push(
      `- **${failure.id}** (${failure.level}, was ${failure.was}): ${escapeMarkdownCell(failure.title)}. ${escapeMarkdownCell(failure.detail)}`,
    );
  return `${lines.join('\n')}\n\n`;
}
