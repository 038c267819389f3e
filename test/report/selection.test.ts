/** A partial run (issue 47): the selection against the tier's catalog, coverage over the whole tier, and every report saying "partial". */
import { describe, expect, it } from 'vitest';
import { CHECKS, getCheck, type CheckSpec } from '../../src/catalog/checks.js';
import { coverageOf, shortfallLine } from '../../src/report/coverage.js';
import { renderHtml } from '../../src/report/html.js';
import { renderJunit } from '../../src/report/junit.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { RUN_REPORT, runVerdict, summarize, type CheckResult, type RunReport } from '../../src/report/model.js';
import { provenanceOf } from '../../src/report/provenance.js';
import { inTier, isPartial, partialLine, selectionOf, unselected } from '../../src/report/selection.js';

const ONE = getCheck('AUTH-WHOAMI-ACCEPTED');
const FAST = CHECKS.filter((check) => check.tier === 'fast');
const FULL_ONLY = CHECKS.find((check) => check.tier === 'full')!;

const passed = (spec: CheckSpec): CheckResult => ({
  id: spec.id,
  title: spec.title,
  clause: spec.clause,
  level: spec.level,
  verdict: 'pass',
  duration_ms: 5,
  area: spec.area,
});

/** A run of `selected` in which every selected check passed, as the runner completes it. */
function runOf(
  selected: readonly CheckSpec[],
  minCoverage: number,
  how: { checks?: string; rerunFailed?: string } = {},
): RunReport {
  const selection = selectionOf({ tier: 'fast', catalog: CHECKS, selected, ...how });
  const checks = selected.map(passed);
  const owed = inTier('fast');
  return {
    harness_version: '0.1.0',
    target: { base_url: 'http://127.0.0.1:1', embedded_reference: true },
    started_at: '2026-11-27T10:00:00Z',
    finished_at: '2026-11-27T10:00:05Z',
    summary: summarize(checks),
    checks,
    tier: 'fast',
    seed: 7,
    selection,
    partial: isPartial(selection),
    provenance: provenanceOf({ targetVersion: '2.4.1' }),
    coverage: coverageOf(
      [...checks, ...unselected(CHECKS, selected, selection)],
      (id) => owed(getCheck(id)),
      minCoverage,
    ),
  };
}

describe('a partial run', () => {
  it('counts the selection against the tier: a full-tier check is not owed by a fast run', () => {
    const selection = selectionOf({
      tier: 'fast',
      catalog: CHECKS,
      selected: [ONE, FULL_ONLY],
      checks: 'AUTH-WHOAMI-ACCEPTED,' + FULL_ONLY.id,
    });
    expect(selection).toEqual({
      tier: 'fast',
      checks: `AUTH-WHOAMI-ACCEPTED,${FULL_ONLY.id}`,
      selected: 1,
      of_tier: FAST.length,
    });
    expect(isPartial(selection)).toBe(true);
    expect(isPartial(selectionOf({ tier: 'fast', catalog: CHECKS, selected: CHECKS }))).toBe(false);
    expect(partialLine(selectionOf({ tier: 'fast', catalog: CHECKS, selected: CHECKS }))).toBeUndefined();
  });

  it('fails a 100% coverage gate with one check selected, and the line says the rest was not selected', () => {
    const report = runOf([ONE], 100, { checks: 'AUTH-WHOAMI-ACCEPTED' });
    expect(RUN_REPORT.safeParse(report).success).toBe(true);
    expect(report.coverage!.met).toBe(false);
    expect(report.coverage!.by_level.must.of).toBe(FAST.filter((check) => check.level === 'must').length);
    expect(runVerdict(report)).toBe('FAILED');
    expect(shortfallLine(report.coverage!)).toMatch(
      /^coverage \d+(\.\d)?% \(1 of \d+ must checks ran\) is below CERTIFY_MIN_COVERAGE 100%; missing: not selected in this partial run \(--checks AUTH-WHOAMI-ACCEPTED\)/,
    );
    // The report's checks are what ran: the rest are counted, never written as skips.
    expect(report.checks.map((check) => check.id)).toEqual(['AUTH-WHOAMI-ACCEPTED']);
  });

  it('passes the gate when the whole tier is selected and passes', () => {
    const report = runOf(FAST, 100);
    expect(report.partial).toBe(false);
    expect(report.coverage!.met).toBe(true);
    expect(runVerdict(report)).toBe('PASSED');
  });

  it('says "partial" in report.md, report.html and junit.xml, with the selection, and names a re-run by its report', () => {
    const report = runOf([ONE], 0, { rerunFailed: 'reports/latest/report.json', checks: 'AUTH-WHOAMI-ACCEPTED' });
    const line = `partial run: 1 of ${FAST.length} checks of tier fast selected (--rerun-failed reports/latest/report.json); coverage counts against the whole tier`;
    expect(partialLine(report.selection!)).toBe(line);
    const markdown = renderMarkdown(report);
    expect(markdown).toMatch(/^# Certification report: PASSED \(partial run\)/);
    expect(markdown).toContain(
      `- Partial run: 1 of ${FAST.length} checks of tier fast selected (--rerun-failed reports/latest/report.json)`,
    );
    const html = renderHtml(report);
    expect(html).toContain('<title>Certification report: PASSED (partial run)</title>');
    expect(html).toContain('<span class="partial">(partial run)</span>');
    const junit = renderJunit(report);
    expect(junit).toContain('<testsuites name="certify (partial run)"');
    expect(junit).toContain('<property name="partial" value="true"/>');
    expect(junit).toContain('<property name="selection.rerun_failed" value="reports/latest/report.json"/>');
  });

  it('leaves a full run unmarked', () => {
    const report = runOf(FAST, 0);
    expect(renderMarkdown(report)).not.toContain('partial');
    expect(renderJunit(report)).toContain('<property name="partial" value="false"/>');
    expect(renderHtml(report)).not.toContain('(partial run)');
  });
});
