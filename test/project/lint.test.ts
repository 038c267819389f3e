/**
 * `npm run lint` (Biome with the project's biome.json, warnings as errors) is the first step of
 * `npm test`: it must refuse a file the formatter would change and a file the linter flags, and
 * pass one that is formatted and clean. Each case is a file in a folder of its own, checked
 * with a copy of the project's configuration.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const biome = fileURLToPath(new URL('../../node_modules/@biomejs/biome/bin/biome', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'lint-'));
const config = JSON.parse(readFileSync(new URL('../../biome.json', import.meta.url), 'utf8')) as Record<
  string,
  unknown
>;
// The copy lives outside any git checkout, and the schema is the package's own.
writeFileSync(join(folder, 'biome.json'), JSON.stringify({ ...config, $schema: undefined, vcs: { enabled: false } }));

afterAll(() => rmSync(folder, { recursive: true, force: true }));

function lint(name: string, source: string): number | null {
  writeFileSync(join(folder, name), source);
  return spawnSync(process.execPath, [biome, 'check', '--error-on-warnings', name], {
    cwd: folder,
    encoding: 'utf8',
    timeout: 60_000,
  }).status;
}

describe('npm run lint', () => {
  it('passes a file formatted and clean', () => {
    expect(lint('clean.ts', "export const greeting = 'hello';\n")).toBe(0);
  });

  it('refuses a file the formatter would change', () => {
    expect(lint('unformatted.ts', 'export const greeting = "hello"\n')).toBe(1);
  });

  it('refuses a file the linter flags (an unused import)', () => {
    expect(lint('linted.ts', "import { readFileSync } from 'node:fs';\n\nexport const greeting = 'hello';\n")).toBe(1);
  });
});
