import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname } from 'node:path';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { withScratchTmpdir } from '../../scripts/mutate/scratch.js';

/** A child that makes a folder in its temporary folder, prints it, and waits to be killed, as a mutant's harness does. */
function childHoldingATempFolder() {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const { mkdtempSync, writeFileSync } = require('node:fs');
       const dir = mkdtempSync(require('node:path').join(require('node:os').tmpdir(), 'certify-'));
       writeFileSync(dir + '/key.pem', 'not a real key');
       console.log(dir);
       setInterval(() => {}, 1000);`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const folder = new Promise<string>((resolve) => child.stdout.once('data', (data) => resolve(String(data).trim())));
  return { child, folder };
}

describe('a mutation run’s temporary folder', () => {
  it('holds what a killed child left there, and is gone when the run ends', async () => {
    const systemTmp = tmpdir();
    let childFolder = '';
    await withScratchTmpdir(async (scratch) => {
      expect(dirname(scratch)).toBe(systemTmp);
      expect(tmpdir()).toBe(scratch);
      const { child, folder } = childHoldingATempFolder();
      childFolder = await folder;
      child.kill('SIGKILL');
      await once(child, 'exit');
      expect(dirname(childFolder)).toBe(scratch);
      expect(readdirSync(childFolder)).toEqual(['key.pem']);
    });
    expect(existsSync(dirname(childFolder))).toBe(false);
    expect(tmpdir()).toBe(systemTmp);
  });

  it('is removed, and TMPDIR given back, when the run throws', async () => {
    const before = process.env.TMPDIR;
    let scratch = '';
    await expect(
      withScratchTmpdir(async (folder) => {
        scratch = folder;
        throw new Error('Stryker could not start');
      }),
    ).rejects.toThrow('Stryker could not start');
    expect(scratch).not.toBe('');
    expect(existsSync(scratch)).toBe(false);
    expect(process.env.TMPDIR).toBe(before);
  });
});
