import { describe, expect, it } from 'vitest';
import { RECEIVER_CHECKS, RECEIVER_CHECK_IDS } from '../../src/receiver-cert/catalog.js';
import { RECEIVER_FAULTS } from './faulty-receiver.js';
import { FAULT_EXPECTATIONS } from './faults.js';

describe('receiver fault registry', () => {
  it('covers every fault of the faulty receiver and names only catalog ids', () => {
    expect(Object.keys(FAULT_EXPECTATIONS).sort()).toEqual(
      Object.keys(RECEIVER_FAULTS)
        .filter((f) => f !== 'none')
        .sort(),
    );
    for (const { failing } of Object.values(FAULT_EXPECTATIONS))
      for (const id of failing) expect(RECEIVER_CHECK_IDS.has(id), id).toBe(true);
  });

  it('proves every must and should check with at least one fault that makes it fail', () => {
    const proven = new Set(Object.values(FAULT_EXPECTATIONS).flatMap((e) => e.failing));
    const unproven = RECEIVER_CHECKS.filter((c) => c.level !== 'observe' && !proven.has(c.id)).map((c) => c.id);
    expect(unproven).toEqual([]);
  });
});
