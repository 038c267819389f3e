/** The event ids an endpoint has seen (src/capturing-receiver/seen-events.ts): attempts per id, the oldest ids forgotten first, a bounded list. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SeenEventIds, pushBounded } from '../../src/capturing-receiver/seen-events.js';

describe('SeenEventIds', () => {
  it('numbers the arrivals of each id', () => {
    const seen = new SeenEventIds(10);
    expect(['a', 'b', 'a', 'a', 'b'].map((id) => seen.record(id))).toEqual([1, 1, 2, 3, 2]);
    expect(seen.uniqueIds).toBe(2);
  });

  it('forgets the ids that first arrived longest ago, whatever arrived again since', () => {
    const seen = new SeenEventIds(3);
    for (const id of ['a', 'b', 'c']) seen.record(id);
    expect(seen.record('a')).toBe(2); // a again: still the oldest first arrival
    seen.record('d'); // forgets a
    expect(seen.uniqueIds).toBe(3);
    expect(seen.record('b')).toBe(2);
    seen.record('e'); // forgets b
    seen.record('f'); // forgets c
    expect(seen.record('a')).toBe(1);
    expect(seen.record('b')).toBe(1);
    expect(seen.record('d')).toBe(1);
    expect(seen.uniqueIds).toBe(3);
  });

  it('stays at its capacity through many times its capacity of ids, each forgotten in turn', () => {
    const capacity = 1_000;
    const seen = new SeenEventIds(capacity);
    for (let i = 0; i < 10 * capacity; i++) expect(seen.record(`evt_${i}`)).toBe(1);
    expect(seen.uniqueIds).toBe(capacity);
    // The last `capacity` ids are remembered; the one before them is not.
    expect(seen.record(`evt_${10 * capacity - capacity}`)).toBe(2);
    expect(seen.record(`evt_${10 * capacity - capacity - 1}`)).toBe(1);
  });

  it('starts afresh after clear', () => {
    const seen = new SeenEventIds(2);
    for (const id of ['a', 'b', 'c']) seen.record(id);
    seen.clear();
    expect(seen.uniqueIds).toBe(0);
    for (const id of ['x', 'y']) seen.record(id);
    expect(seen.record('x')).toBe(2);
    seen.record('z'); // forgets x, the oldest since the clear
    expect(seen.record('y')).toBe(2);
    expect(seen.record('x')).toBe(1);
  });

  it('refuses a capacity under one id', () => {
    expect(() => new SeenEventIds(0)).toThrow(RangeError);
  });
});

describe('pushBounded', () => {
  it('keeps the newest items and counts the ones it dropped', () => {
    const list = [1, 2];
    expect(pushBounded(list, 3, 2)).toBe(1);
    expect(list).toEqual([2, 3]);
  });
});

describe('SeenEventIds against a model that keeps the ids themselves', () => {
  /** The same rules with the ids as Map keys: what the hashed tables must do, exactly. */
  class ModelSeenIds {
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
        fc.array(
          fc.integer({ min: 0, max: 60 }).map((n) => `evt_${n}`),
          { maxLength: 400 },
        ),
        (capacity, ids) => {
          const seen = new SeenEventIds(capacity);
          const model = new ModelSeenIds(capacity);
          for (const id of ids) expect(seen.record(id)).toBe(model.record(id));
          expect(seen.uniqueIds).toBe(model.uniqueIds);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('tells ids apart that differ in one character, in length, or beyond Latin-1', () => {
    const seen = new SeenEventIds(100);
    const ids = ['evt_a', 'evt_b', 'evt_ab', 'evt_a\u0000', 'evt_\u00e9', 'evt_\u0301e', 'evt_\ud83d\ude00', ''];
    expect(ids.map((id) => seen.record(id))).toEqual(ids.map(() => 1));
    expect(ids.map((id) => seen.record(id))).toEqual(ids.map(() => 2));
  });
});
