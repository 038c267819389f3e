/** `certify --rerun-failed <report.json>`: the checks that did not pass there, with its seed (src/cli/commands/certify.ts). */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { rerunReportDir, rerunSettings } from '../../src/cli/commands/certify.js';
import { ReportFileError, UsageError } from '../../src/errors.js';
import { summarize } from '../../src/report/model.js';
import { fixtureReport } from '../report/fixture.js';

const made: string[] = [];
function reportFile(value: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'rerun-'));
  made.push(dir);
  const path = join(dir, 'report.json');
  writeFileSync(path, JSON.stringify(value));
  return path;
}

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('rerunSettings', () => {
  it('selects the checks that failed, warned or erred, with the report seed', async () => {
    const report = fixtureReport();
    report.checks.push({ ...report.checks[0]!, id: 'TENANT-AGENTS', verdict: 'error' });
    report.summary = summarize(report.checks);
    const again = report.checks
      .filter((check) => ['fail', 'warn', 'error'].includes(check.verdict))
      .map((check) => check.id);
    const settings = await rerunSettings(reportFile({ ...report, seed: 4242 }));
    expect(settings).toEqual({ CERTIFY_CHECKS: again.join(','), FAST_CHECK_SEED: '4242' });
    expect(again).toContain('TENANT-AGENTS');
    expect(again.some((id) => report.checks.find((check) => check.id === id)!.verdict === 'pass')).toBe(false);
  });

  it('refuses a report where everything passed, and a file that is not a report', async () => {
    const passing = fixtureReport();
    passing.checks = passing.checks.filter((check) => check.verdict === 'pass' || check.verdict === 'skip');
    passing.summary = summarize(passing.checks);
    await expect(rerunSettings(reportFile(passing))).rejects.toThrow(UsageError);
    await expect(rerunSettings(reportFile({ not: 'a report' }))).rejects.toThrow(ReportFileError);
  });
});

describe('rerunReportDir', () => {
  it('never writes over the report it read: beside it by default, elsewhere when named, refused when named the same', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'rerun-cwd-'));
    made.push(cwd);
    expect(rerunReportDir('reports/latest/report.json', {}, cwd)).toBe(join(cwd, 'reports/latest-rerun'));
    expect(rerunReportDir('reports/latest/report.json', { CERTIFY_REPORT_DIR: 'reports/again' }, cwd)).toBe(
      'reports/again',
    );
    expect(() => rerunReportDir('reports/latest/report.json', { CERTIFY_REPORT_DIR: 'reports/latest/' }, cwd)).toThrow(
      /would write its reports over the report it re-runs/,
    );
    writeFileSync(join(cwd, '.env'), 'CERTIFY_REPORT_DIR=reports/latest\n');
    expect(() => rerunReportDir('reports/latest/report.json', {}, cwd)).toThrow(UsageError);
  });
});
