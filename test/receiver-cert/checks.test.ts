/**
 * The receiver checks against the catalog, read from what checks/*.ts declare (as
 * test/catalog.test.ts does for the suites): every catalog id has one body, every body has a
 * catalog id, each declared by the file of its area.
 */
import { describe, expect, it } from 'vitest';
import { RECEIVER_CHECKS } from '../../src/receiver-cert/catalog.js';
import { RECEIVER_CHECK_BODIES } from '../../src/receiver-cert/checks/index.js';
import { check, receiverSuite } from '../../src/receiver-cert/registry.js';

describe('receiver check catalog', () => {
  it('has unique, well-formed ids and levels from the runner contract', () => {
    const ids = RECEIVER_CHECKS.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const spec of RECEIVER_CHECKS) {
      expect(spec.id).toMatch(/^RCV(-[A-Z0-9]+)+$/);
      expect(['must', 'should', 'observe']).toContain(spec.level);
      expect(spec.clause).toMatch(/^(Events|Endpoints|Limits)/);
    }
  });

  it('is exactly what checks/ declares, each check in the file of its area', () => {
    expect([...RECEIVER_CHECK_BODIES.keys()].sort()).toEqual(RECEIVER_CHECKS.map((spec) => spec.id).sort());
    for (const spec of RECEIVER_CHECKS) {
      expect(RECEIVER_CHECK_BODIES.get(spec.id)?.area, spec.id).toBe(spec.area);
      expect(RECEIVER_CHECK_BODIES.get(spec.id)?.body, spec.id).toBeTypeOf('function');
    }
  });

  it('never makes the timing probe a must', () => {
    expect(RECEIVER_CHECKS.find((c) => c.id === 'RCV-TIMING-CONSTANT-TIME')?.level).toBe('observe');
  });
});

describe('declaring a receiver check', () => {
  const spec = RECEIVER_CHECKS[0]!;
  const elsewhere = RECEIVER_CHECKS.find((other) => other.area !== spec.area)!;
  const noop = async () => undefined;

  it('refuses a check declared among the checks of another area', () => {
    expect(() => receiverSuite(elsewhere.area, () => check(spec.id, noop))).toThrow(
      `check ${spec.id} belongs to ${spec.area} in the catalog, but the checks of ${elsewhere.area} declare it`,
    );
  });

  it('refuses a check declared twice, one outside receiverSuite, and an id the catalog lacks', () => {
    expect(() => receiverSuite(spec.area, () => check(spec.id, noop))).toThrow(`check ${spec.id} is declared twice`);
    expect(() => check(spec.id, noop)).toThrow(/outside receiverSuite/);
    expect(() => receiverSuite(spec.area, () => check('RCV-NOT-IN-THE-CATALOG', noop))).toThrow(
      'unknown receiver check id RCV-NOT-IN-THE-CATALOG',
    );
    expect(() => receiverSuite(spec.area, () => check('AUTH-WHOAMI-ACCEPTED', noop))).toThrow(
      'unknown receiver check id AUTH-WHOAMI-ACCEPTED',
    );
  });
});
