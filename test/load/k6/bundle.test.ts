import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildLoadScripts, DIST_DIR, replaceWhole, scenarioNames } from '../../../src/load/k6/bundle.js';

describe('load script bundles', () => {
  const dir = mkdtempSync(join(tmpdir(), 'load-bundle-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('replace a bundle whole: k6 reading the old one while another run rebuilds still reads all of it', () => {
    const path = join(dir, 'calls.js');
    writeFileSync(path, 'export default function old() {}\n');
    const reader = openSync(path, 'r');
    try {
      replaceWhole(path, Buffer.from('export default function rebuilt() {}\n'));
      expect(readFileSync(reader, 'utf8')).toBe('export default function old() {}\n');
    } finally {
      closeSync(reader);
    }
    expect(readFileSync(path, 'utf8')).toBe('export default function rebuilt() {}\n');
    expect(readdirSync(dir)).toEqual(['calls.js']);
  });

  it('leave a bundle whose contents did not change as it is', () => {
    const path = join(dir, 'fanout.js');
    writeFileSync(path, 'export default function same() {}\n');
    const before = statSync(path).ino;
    replaceWhole(path, Buffer.from('export default function same() {}\n'));
    expect(statSync(path).ino).toBe(before);
  });

  it('bundle every scenario into load/dist, two builds at once leaving whole scripts and no partial files', async () => {
    const [first, second] = await Promise.all([buildLoadScripts(), buildLoadScripts()]);
    expect(Object.keys(first!).sort()).toEqual(scenarioNames());
    expect(second).toEqual(first);
    for (const path of Object.values(first!)) expect(readFileSync(path, 'utf8')).toMatch(/export \{[^}]*\bdefault\b/);
    expect(readdirSync(DIST_DIR).filter((file) => !file.endsWith('.js'))).toEqual([]);
  });
});
