import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LONGEST_FILES, rankOf } from './longest-first.js';

describe('longest-first order of the unit tests', () => {
  it('names only files that exist', () => {
    expect(LONGEST_FILES.filter((path) => !existsSync(path))).toEqual([]);
  });

  it('ranks a named file by its place and every other file after them', () => {
    expect(rankOf('/clone/test/load/smoke.test.ts')).toBe(0);
    expect(rankOf('/clone/test/project/package.test.ts')).toBe(1);
    expect(rankOf('/clone/test/secrets/mask.test.ts')).toBe(LONGEST_FILES.length);
    expect(rankOf('/clone/other/test/load/smoke.test.tsx')).toBe(LONGEST_FILES.length);
  });
});
