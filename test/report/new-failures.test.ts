/**
 * `report diff <old> <new>` as a CI gate: exit 1, naming them, when checks that passed (or
 * were expected to fail) in the old report fail in the new one; 0 otherwise. Run as a user
 * runs it (a child process), on reports written to files.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withExpectedFailures } from '../../src/expected/run.js';
import { summarize, type CheckResult, type RunReport } from '../../src/report/model.js';
import { newFailures } from '../../src/report/new-failures.js';
import { runHarness } from '../support/child.js';
import { fixtureReport } from './fixture.js';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'new-failures-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function changed(report: RunReport, id: string, change: Partial<CheckResult>): RunReport {
  const copy = structuredClone(report);
  copy.checks = copy.checks.map((check) => (check.id === id ? { ...check, ...change } : check));
  copy.summary = summarize(copy.checks);
  return copy;
}

/** The fixture with AUTH-UNKNOWN-TOKEN expected to fail (HOOK-RETRY-EARLY-SCHEDULE fails unexcused in both). */
const excusing = (report: RunReport, expires?: string) =>
  withExpectedFailures(
    report,
    {
      entries: [{ id: 'AUTH-UNKNOWN-TOKEN', reason: 'PLAT-900', ...(expires ? { expires } : {}) }],
      run: { file: 'expected.yaml', strict: false },
    },
    new Date('2026-11-27T00:00:00Z'),
  );

function file(name: string, report: RunReport): string {
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify(report));
  return path;
}

async function diff(old: RunReport, now: RunReport) {
  return runHarness(['report', 'diff', file('old', old), file('new', now), '--html', join(dir, 'diff.html')], {
    timeoutMs: 30_000,
  });
}

describe('newFailures', () => {
  it('a check that passed and fails now is new; a failure both share is not', () => {
    const found = newFailures(
      fixtureReport(),
      changed(fixtureReport(), 'TOKEN-LIMIT-TWO', { verdict: 'fail', detail: 'a third token was accepted' }),
    );
    expect(found).toEqual([
      {
        id: 'TOKEN-LIMIT-TWO',
        title: 'A third active token is refused',
        level: 'must',
        was: 'pass',
        detail: 'a third token was accepted',
      },
    ]);
  });

  it('an expected failure whose entry expired, or was removed, is new; one still excused is not', () => {
    const before = excusing(fixtureReport());
    expect(newFailures(before, excusing(fixtureReport()))).toEqual([]);
    expect(
      newFailures(before, excusing(fixtureReport(), '2026-01-31')).map((failure) => [failure.id, failure.was]),
    ).toEqual([['AUTH-UNKNOWN-TOKEN', 'expected failure']]);
    expect(newFailures(before, fixtureReport()).map((failure) => failure.id)).toEqual(['AUTH-UNKNOWN-TOKEN']);
  });

  it('what the old report did not judge (skip, warn, absent) is not new; a pass turned warn does not fail the gate', () => {
    const old = changed(fixtureReport(), 'TOKEN-LIMIT-TWO', { verdict: 'skip' });
    expect(newFailures(old, changed(fixtureReport(), 'TOKEN-LIMIT-TWO', { verdict: 'fail' }))).toEqual([]);
    expect(newFailures(fixtureReport(), changed(fixtureReport(), 'SCOPE-MISSING-STATUS', { verdict: 'warn' }))).toEqual(
      [],
    );
  });
});

describe('svc-harness report diff, the gate', () => {
  it('exits 1 on a new failure, and says which', async () => {
    const run = await diff(
      fixtureReport(),
      changed(fixtureReport(), 'TOKEN-LIMIT-TWO', { verdict: 'fail', detail: 'a third token was accepted' }),
    );
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(/report diff: 1 new failure since \S+: TOKEN-LIMIT-TWO/);
    expect(run.stdout).toMatch(
      /^## New failures \(1\)\n\nChecks that passed \(or were expected to fail\) in \S+ and fail in \S+:\n\n- \*\*TOKEN-LIMIT-TWO\*\* \(must, was pass\)/,
    );
  });

  it('exits 0 when nothing that passed fails, even with failures both share and a check fixed', async () => {
    const run = await diff(
      fixtureReport(),
      changed(fixtureReport(), 'AUTH-UNKNOWN-TOKEN', { verdict: 'pass', detail: '401 invalid_token' }),
    );
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/^## New failures: none/);
  });
});
