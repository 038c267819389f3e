/** The event id ledger (src/receiver/ledger.ts): attempts per id, the oldest ids forgotten first, a bounded list. */
import { describe, expect, it } from 'vitest';
import { EventIdLedger, pushBounded } from '../../src/receiver/ledger.js';

describe('EventIdLedger', () => {
  it('numbers the arrivals of each id', () => {
    const ledger = new EventIdLedger(10);
    expect(['a', 'b', 'a', 'a', 'b'].map((id) => ledger.record(id))).toEqual([1, 1, 2, 3, 2]);
    expect(ledger.uniqueIds).toBe(2);
  });

  it('forgets the ids that first arrived longest ago, whatever arrived again since', () => {
    const ledger = new EventIdLedger(3);
    for (const id of ['a', 'b', 'c']) ledger.record(id);
    expect(ledger.record('a')).toBe(2); // a again: still the oldest first arrival
    ledger.record('d'); // forgets a
    expect(ledger.uniqueIds).toBe(3);
    expect(ledger.record('b')).toBe(2);
    ledger.record('e'); // forgets b
    ledger.record('f'); // forgets c
    expect(ledger.record('a')).toBe(1);
    expect(ledger.record('b')).toBe(1);
    expect(ledger.record('d')).toBe(1);
    expect(ledger.uniqueIds).toBe(3);
  });

  it('stays at its capacity through many times its capacity of ids, each forgotten in turn', () => {
    const capacity = 1_000;
    const ledger = new EventIdLedger(capacity);
    for (let i = 0; i < 10 * capacity; i++) expect(ledger.record(`evt_${i}`)).toBe(1);
    expect(ledger.uniqueIds).toBe(capacity);
    // The last `capacity` ids are remembered; the one before them is not.
    expect(ledger.record(`evt_${10 * capacity - capacity}`)).toBe(2);
    expect(ledger.record(`evt_${10 * capacity - capacity - 1}`)).toBe(1);
  });

  it('starts afresh after clear', () => {
    const ledger = new EventIdLedger(2);
    for (const id of ['a', 'b', 'c']) ledger.record(id);
    ledger.clear();
    expect(ledger.uniqueIds).toBe(0);
    for (const id of ['x', 'y']) ledger.record(id);
    expect(ledger.record('x')).toBe(2);
    ledger.record('z'); // forgets x, the oldest since the clear
    expect(ledger.record('y')).toBe(2);
    expect(ledger.record('x')).toBe(1);
  });

  it('refuses a capacity under one id', () => {
    expect(() => new EventIdLedger(0)).toThrow(RangeError);
  });
});

describe('pushBounded', () => {
  it('keeps the newest items and counts the ones it dropped', () => {
    const list = [1, 2];
    expect(pushBounded(list, 3, 2)).toBe(1);
    expect(list).toEqual([2, 3]);
  });
});
