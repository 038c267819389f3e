import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../src/catalog/checks.js';

describe('check catalog', () => {
  it('has unique ids of upper-case words joined by -', () => {
    const ids = CHECKS.map((check) => check.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[A-Z0-9]+(?:-[A-Z0-9]+)+$/);
  });

  it('gives every check a title, a clause and a level', () => {
    for (const check of CHECKS) {
      expect(check.title.length, check.id).toBeGreaterThan(10);
      expect(check.clause.length, check.id).toBeGreaterThan(5);
      expect(['must', 'should', 'observe']).toContain(check.level);
    }
  });

  it('names only ids that a suite implements, once', () => {
    const implemented = new Map<string, number>();
    for (const area of new Set(CHECKS.map((check) => check.area))) {
      const file = `suites/${area}.suite.ts`;
      if (!existsSync(file)) continue;
      for (const match of readFileSync(file, 'utf8').matchAll(/check\('([A-Z0-9-]+)'/g)) {
        implemented.set(match[1]!, (implemented.get(match[1]!) ?? 0) + 1);
        expect(CHECKS.find((check) => check.id === match[1])?.area, `${match[1]} in ${file}`).toBe(area);
      }
    }
    for (const [id, count] of implemented) expect(count, id).toBe(1);
  });
});
