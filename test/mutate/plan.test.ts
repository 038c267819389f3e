import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

describe('scripts/mutate/plan.ts', () => {
  it("lists a file's mutants with why each is left out, or RUN, within the lines asked", async () => {
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', 'scripts/mutate/plan.ts', 'reference/webhooks/endpoint-state.ts', '1', '200'],
      { timeout: 60_000 },
    );
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

  it('refuses lines that are not numbers', async () => {
    await expect(
      run(process.execPath, ['--import', 'tsx', 'scripts/mutate/plan.ts', 'x.ts', 'ten']),
    ).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('usage'),
    });
  });
});
