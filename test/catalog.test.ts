/**
 * The catalog against what the suites declare, read from the suites themselves: they are
 * imported with declarations recorded only (no vitest test is declared), so a check
 * declared over several lines, through a helper or in a loop counts the same as any other.
 */
import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { CHECKS } from '../src/catalog/checks.js';
import type { Area } from '../src/catalog/checks.js';
import { check, certifySuite, recordDeclarationsOnly } from '../src/suite/check.js';

const AREAS = [...new Set(CHECKS.map((spec) => spec.area))];
let declared: ReadonlyMap<string, { area: Area }>;

beforeAll(async () => {
  declared = recordDeclarationsOnly();
  for (const area of AREAS) await import(`../suites/${area}.suite.ts`);
});

describe('check catalog', () => {
  it('has unique ids of upper-case words joined by -', () => {
    const ids = CHECKS.map((spec) => spec.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[A-Z0-9]+(?:-[A-Z0-9]+)+$/);
  });

  it('gives every check a title, a clause and a level', () => {
    for (const spec of CHECKS) {
      expect(spec.title.length, spec.id).toBeGreaterThan(10);
      expect(spec.clause.length, spec.id).toBeGreaterThan(5);
      expect(['must', 'should', 'observe']).toContain(spec.level);
    }
  });

  it('has a suite file for every area', () => {
    expect(AREAS.filter((area) => !existsSync(`suites/${area}.suite.ts`))).toEqual([]);
  });

  it('is exactly what the suites declare, each check in the suite of its area', () => {
    expect([...declared.keys()].sort()).toEqual(CHECKS.map((spec) => spec.id).sort());
    for (const spec of CHECKS) expect(declared.get(spec.id)?.area, spec.id).toBe(spec.area);
  });
});

describe('declaring a check', () => {
  const spec = CHECKS[0]!;
  const elsewhere = CHECKS.find((other) => other.area !== spec.area)!;
  const noop = async () => undefined;

  it('refuses a check declared in the suite of another area', () => {
    expect(() => certifySuite(elsewhere.area, () => check(spec.id, noop))).toThrow(
      `check ${spec.id} belongs to ${spec.area} in the catalog, but suites/${elsewhere.area}.suite.ts declares it`,
    );
  });

  it('refuses a check declared twice (its suite declared it in beforeAll), and one outside a suite', () => {
    expect(() => certifySuite(spec.area, () => check(spec.id, noop))).toThrow(`check ${spec.id} is declared twice`);
    expect(() => check(spec.id, noop)).toThrow(/outside certifySuite/);
  });
});
