import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { DISABLE_REASON_CLASS } from '../../scripts/mutate/against.js';
import { plannedMutants } from '../../scripts/mutate/instrument.js';
import { asReported } from './reported.js';

const run = promisify(execFile);
const plan = (...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', 'scripts/mutate/plan.ts', ...args], { timeout: 60_000 });

describe('scripts/mutate/plan.ts', () => {
  it("lists a file's mutants with why each is left out, or RUN, within the lines asked", async () => {
    const { stdout } = await plan('reference/webhooks/endpoint-state.ts', '1', '200');
    const lines = stdout.trim().split('\n');
    const mutants = lines.slice(0, -1);
    expect(mutants.length).toBeGreaterThan(20);
    for (const line of mutants)
      expect(line).toMatch(/^reference\/webhooks\/endpoint-state\.ts:\d+ {2}\w+ +→ .*(RUN|left out: .+)$/);
    const ran = mutants.filter((line) => line.endsWith('RUN')).length;
    expect(ran).toBeGreaterThan(0);
    expect(mutants.some((line) => /left out: a fault switch/.test(line))).toBe(true);
    expect(mutants.some((line) => /left out: equivalent: /.test(line))).toBe(true);
    expect(mutants.some((line) => /left out: no stated rule: /.test(line))).toBe(true);
    expect(lines.at(-1)).toBe(`${ran} of ${mutants.length} mutants would run`);
  });

  describe('--against a report', () => {
    const FILE = 'reference/auth/tokens.ts';
    const directory = mkdtempSync(join(tmpdir(), 'plan-against-'));
    afterAll(() => rmSync(directory, { recursive: true, force: true }));

    /** A report of FILE as it is, in which each mutant its disable comments leave out has `statusOf`'s status. */
    async function reportWith(statusOf: (index: number) => string): Promise<string> {
      const source = readFileSync(FILE, 'utf8');
      const byComment = (await plannedMutants(FILE, source)).filter((mutant) =>
        DISABLE_REASON_CLASS.test(mutant.statusReason ?? ''),
      );
      expect(byComment.length).toBeGreaterThan(3);
      const mutants = byComment.map((mutant, index) => asReported(mutant, statusOf(index)));
      const path = join(directory, `report-${Math.random().toString(36).slice(2)}.json`);
      writeFileSync(path, JSON.stringify({ files: { [FILE]: { source, mutants } } }));
      return path;
    }

    it('passes when every mutant a comment leaves out survived or did not compile', async () => {
      const report = await reportWith((index) => (index === 0 ? 'CompileError' : 'Survived'));
      const { stdout } = await plan(FILE, '--against', report);
      expect(stdout).toMatch(/\[report: survived\]/);
      expect(stdout).toMatch(
        /left out by disable comments: \d+ survived, 1 did not compile, 0 not judged, 0 killed in /,
      );
    });

    it('fails, naming the mutant, when the report says a check killed one', async () => {
      const report = await reportWith((index) => (index === 1 ? 'Killed' : 'Survived'));
      await expect(plan(FILE, '--against', report)).rejects.toMatchObject({
        code: 1,
        // Mutants alike on one line share the report's word, so more than one may read killed.
        stdout: expect.stringMatching(/\[report: killed\][\s\S]*, [1-9]\d* killed in /),
        stderr: expect.stringContaining('a disable comment leaves out a mutant a check killed'),
      });
    });

    it('refuses a file that is not a report', async () => {
      const notJson = join(directory, 'not-a-report.json');
      writeFileSync(notJson, 'not json');
      await expect(plan(FILE, '--against', notJson)).rejects.toMatchObject({
        code: 2,
        stderr: expect.stringContaining("as a run's mutation.json"),
      });
    });

    it('refuses a report without the file', async () => {
      const report = join(directory, 'other.json');
      writeFileSync(report, JSON.stringify({ files: {} }));
      await expect(plan(FILE, '--against', report)).rejects.toMatchObject({
        code: 2,
        stderr: expect.stringContaining('has no mutants of reference/auth/tokens.ts'),
      });
    });
  });

  it('refuses lines that are not numbers', async () => {
    await expect(plan('x.ts', 'ten')).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('usage'),
    });
  });
});
