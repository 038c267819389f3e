import { randomBytes } from 'node:crypto';

/**
 * How many times each event id has arrived at one endpoint, remembering at most
 * `capacity` ids (oldest first arrival forgotten first) so a service flooding unique ids
 * cannot exhaust memory.
 *
 * An id is remembered as a 64-bit hash, keyed afresh for each endpoint, in typed arrays: an
 * open-addressing table (linear probing) of hashes and counts, and a ring of first arrivals
 * in order. A Map of 100,000 id strings cost the receiver some µs of garbage collection a
 * delivery in the receiver bench; typed arrays hold nothing the collector has to trace. Two
 * different ids are taken for one with a probability of 2^-64 a pair: over a million
 * deliveries against 100,000 remembered ids, about 5 in a billion.
 */
export class SeenEventIds {
  #table: HashTable;
  /** First arrivals in order, as hash halves; once full, `#oldest` is where the next one overwrites the oldest. */
  #orderHigh: Uint32Array;
  #orderLow: Uint32Array;
  #remembered = 0;
  #oldest = 0;
  /** The hash halves of the id being recorded. */
  readonly #hash = new Uint32Array(2);
  readonly #seedHigh: number;
  readonly #seedLow: number;

  constructor(private readonly capacity: number) {
    if (!(capacity >= 1)) throw new RangeError(`the seen event ids remember at least 1 id, not ${capacity}`);
    const seeds = randomBytes(8);
    this.#seedHigh = seeds.readUInt32LE(0);
    this.#seedLow = seeds.readUInt32LE(4);
    this.#table = new HashTable(16);
    const initial = Math.min(capacity, 16);
    this.#orderHigh = new Uint32Array(initial);
    this.#orderLow = new Uint32Array(initial);
  }

  /** Records one arrival of `id` and returns its attempt number (1 for the first). */
  record(id: string): number {
    hashPair(id, this.#seedHigh, this.#seedLow, this.#hash);
    const high = this.#hash[0]!;
    const low = this.#hash[1]!;
    const seen = this.#table.increment(high, low);
    if (seen > 0) return seen;
    if (this.#remembered < this.capacity) {
      if (this.#remembered === this.#orderHigh.length) this.#growOrder();
      this.#orderHigh[this.#remembered] = high;
      this.#orderLow[this.#remembered] = low;
      this.#remembered++;
    } else {
      this.#table.remove(this.#orderHigh[this.#oldest]!, this.#orderLow[this.#oldest]!);
      this.#orderHigh[this.#oldest] = high;
      this.#orderLow[this.#oldest] = low;
      this.#oldest = (this.#oldest + 1) % this.capacity;
    }
    // At most half full, so that probes stay short.
    if (this.#table.size * 2 > this.#table.slots) this.#table = this.#table.grown();
    this.#table.insert(high, low);
    return 1;
  }

  get uniqueIds(): number {
    return this.#table.size;
  }

  clear(): void {
    this.#table = new HashTable(16);
    this.#remembered = 0;
    this.#oldest = 0;
  }

  #growOrder(): void {
    const length = Math.min(this.capacity, this.#orderHigh.length * 2);
    const high = new Uint32Array(length);
    const low = new Uint32Array(length);
    high.set(this.#orderHigh);
    low.set(this.#orderLow);
    this.#orderHigh = high;
    this.#orderLow = low;
  }
}

/**
 * 64-bit hashes (two 32-bit halves) with a count each; a count of 0 marks an empty slot.
 * Deletion shifts the entries after it back (no tombstones), so a full ring of forgetting
 * never slows the probes down.
 */
class HashTable {
  readonly high: Uint32Array;
  readonly low: Uint32Array;
  readonly count: Uint32Array;
  readonly mask: number;
  size = 0;

  constructor(readonly slots: number) {
    this.high = new Uint32Array(slots);
    this.low = new Uint32Array(slots);
    this.count = new Uint32Array(slots);
    this.mask = slots - 1;
  }

  /** Counts one more arrival of a remembered hash and returns the new count; 0 when not remembered. */
  increment(high: number, low: number): number {
    for (let slot = low & this.mask; this.count[slot] !== 0; slot = (slot + 1) & this.mask) {
      if (this.high[slot] === high && this.low[slot] === low) {
        const count = this.count[slot]! + 1;
        this.count[slot] = count;
        return count;
      }
    }
    return 0;
  }

  /** Adds a hash not remembered yet, with a count of 1. */
  insert(high: number, low: number): void {
    let slot = low & this.mask;
    while (this.count[slot] !== 0) slot = (slot + 1) & this.mask;
    this.high[slot] = high;
    this.low[slot] = low;
    this.count[slot] = 1;
    this.size++;
  }

  remove(high: number, low: number): void {
    let slot = low & this.mask;
    while (this.count[slot] !== 0 && !(this.high[slot] === high && this.low[slot] === low))
      slot = (slot + 1) & this.mask;
    if (this.count[slot] === 0) return;
    this.size--;
    // Backward-shift deletion: move up each later entry of the run that may not sit past the hole.
    let hole = slot;
    for (let next = (hole + 1) & this.mask; this.count[next] !== 0; next = (next + 1) & this.mask) {
      const home = this.low[next]! & this.mask;
      // The entry at `next` may fill the hole unless its home lies cyclically in (hole, next].
      const homeAfterHole = hole <= next ? home > hole && home <= next : home > hole || home <= next;
      if (homeAfterHole) continue;
      this.high[hole] = this.high[next]!;
      this.low[hole] = this.low[next]!;
      this.count[hole] = this.count[next]!;
      hole = next;
    }
    this.count[hole] = 0;
  }

  grown(): HashTable {
    const grown = new HashTable(this.slots * 2);
    for (let slot = 0; slot < this.slots; slot++) {
      if (this.count[slot] === 0) continue;
      let to = this.low[slot]! & grown.mask;
      while (grown.count[to] !== 0) to = (to + 1) & grown.mask;
      grown.high[to] = this.high[slot]!;
      grown.low[to] = this.low[slot]!;
      grown.count[to] = this.count[slot]!;
      grown.size++;
    }
    return grown;
  }
}

/**
 * Two 32-bit hashes of a string's UTF-16 code units (MurmurHash3: two code units a 32-bit
 * block), one per seed, in one pass, into `out`.
 */
function hashPair(text: string, seedHigh: number, seedLow: number, out: Uint32Array): void {
  let high = seedHigh ^ text.length;
  let low = seedLow ^ text.length;
  const length = text.length;
  for (let i = 0; i < length; i += 2) {
    // The last block of an odd length has a zero second unit; the length, mixed in above, tells it apart.
    const block = text.charCodeAt(i) | ((i + 1 < length ? text.charCodeAt(i + 1) : 0) << 16);
    let k = Math.imul(block, 0xcc9e2d51);
    k = Math.imul((k << 15) | (k >>> 17), 0x1b873593);
    high ^= k;
    high = Math.imul((high << 13) | (high >>> 19), 5) + 0xe6546b64;
    k = Math.imul(block, 0x85ebca77);
    k = Math.imul((k << 15) | (k >>> 17), 0xc2b2ae3d);
    low ^= k;
    low = Math.imul((low << 13) | (low >>> 19), 5) + 0x52dce729;
  }
  out[0] = finalMix(high);
  out[1] = finalMix(low);
}

function finalMix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Appends to a list kept at most `capacity` long; returns how many old items were dropped. */
export function pushBounded<T>(list: T[], item: T, capacity: number): number {
  list.push(item);
  let dropped = 0;
  while (list.length > capacity) {
    list.shift();
    dropped++;
  }
  return dropped;
}
