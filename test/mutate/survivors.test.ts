import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { plannedMutants } from '../../scripts/mutate/instrument.js';
import { asReported } from './reported.js';

const run = promisify(execFile);
const survivors = (...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', 'scripts/mutate/survivors.ts', ...args], { timeout: 60_000 });

describe('scripts/mutate/survivors.ts --report', () => {
  const FILE = 'reference/auth/tokens.ts';
  const directory = mkdtempSync(join(tmpdir(), 'survivors-report-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it("scores and lists the survivors of the report named, not the module's last run", async () => {
    const source = readFileSync(FILE, 'utf8');
    const planned = (await plannedMutants(FILE, source)).filter((mutant) => mutant.status === undefined);
    expect(planned.length).toBeGreaterThan(2);
    const [killed, survived, leftOut] = planned;
    const report = join(directory, 'mutation.json');
    const mutants = [
      asReported(killed!, 'Killed'),
      asReported(survived!, 'Survived'),
      { ...asReported(leftOut!, 'Ignored'), statusReason: 'no stated rule: a reason for the test' },
    ];
    writeFileSync(report, JSON.stringify({ files: { [FILE]: { source, mutants } } }));

    const { stdout } = await survivors('auth', '--report', report);
    expect(stdout).toContain('auth: Killed 1, Survived 1, Ignored 1');
    expect(stdout).toContain('left out, not run: 1 no stated rule');
    expect(stdout).toContain('score 1/2 = 50.0%');
    expect(stdout).toContain('as survivors: 1/3 = 33.3%');
    expect(stdout).toContain(`TRIAGE       ${FILE}:${survived!.location.start.line + 1}  ${survived!.mutatorName}`);
  });

  it('refuses a report it cannot read, and a second module', async () => {
    await expect(survivors('auth', '--report', join(directory, 'absent.json'))).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining("as a run's mutation.json"),
    });
    await expect(survivors('auth', 'calls')).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('usage'),
    });
  });
});
