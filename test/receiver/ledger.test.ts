/** The event id ledger (src/receiver/ledger.ts): attempts per id, the oldest ids forgotten first, a bounded list. */
import fc from 'fast-check';
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

describe('EventIdLedger against a model that keeps the ids themselves', () => {
  /** The ledger's rules with the ids as Map keys: what the hashed tables must do, exactly. */
  class ModelLedger {
    readonly #arrivals = new Map<string, number>();
    readonly #order: string[] = [];
    constructor(private readonly capacity: number) {}
    record(id: string): number {
      const seen = this.#arrivals.get(id);
      if (seen !== undefined) {
        this.#arrivals.set(id, seen + 1);
        return seen + 1;
      }
      this.#order.push(id);
      if (this.#order.length > this.capacity) this.#arrivals.delete(this.#order.shift()!);
      this.#arrivals.set(id, 1);
      return 1;
    }
    get uniqueIds(): number {
      return this.#arrivals.size;
    }
  }

  it('numbers every arrival as the model does, through growth, wrap-around and forgetting', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        // A small alphabet of ids, so that ids come back, are forgotten, and come back again.
        fc.array(fc.integer({ min: 0, max: 60 }).map((n) => `evt_${n}`), { maxLength: 400 }),
        (capacity, ids) => {
          const ledger = new EventIdLedger(capacity);
          const model = new ModelLedger(capacity);
          for (const id of ids) expect(ledger.record(id)).toBe(model.record(id));
          expect(ledger.uniqueIds).toBe(model.uniqueIds);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('tells ids apart that differ in one character, in length, or beyond Latin-1', () => {
    const ledger = new EventIdLedger(100);
    const ids = ['evt_a', 'evt_b', 'evt_ab', 'evt_a\u0000', 'evt_\u00e9', 'evt_\u0301e', 'evt_\ud83d\ude00', ''];
    expect(ids.map((id) => ledger.record(id))).toEqual(ids.map(() => 1));
    expect(ids.map((id) => ledger.record(id))).toEqual(ids.map(() => 2));
  });
});
