/**
 * The fan-out tally (pure): matches arrivals at the receiver's endpoints against the calls
 * the VUs placed. Every call must bring each lifecycle event (queued, started, completed) to
 * every endpoint; it counts losses, bad signatures, duplicates and deliveries per second,
 * and keeps bounded samples of end-to-end latency. watch.ts feeds it arrivals while
 * k6 runs; verdict.ts tells it the placed calls once k6 has ended, and reads it.
 */

/** What the tally says of a run. */
export interface FanoutStats {
  endpoints: number;
  events_per_call: number;
  calls_expected: number;
  /** calls × endpoints × lifecycle events. */
  expected: number;
  /** Expected deliveries that arrived at least once. */
  arrived: number;
  lost: number;
  deliveries_total: number;
  deliveries_per_second: number;
  first_arrival_ms: number | null;
  last_arrival_ms: number | null;
  bad_signatures: number;
  duplicates: number;
  /** Deliveries naming no call, or a call no VU placed. */
  unattributed: number;
  /** With stats(true): bounded samples of end-to-end latency. */
  samples?: { event_to_arrival_ms: number[]; placement_to_arrival_ms: number[] };
}

export const LIFECYCLE_EVENTS = ['voice.call.queued', 'voice.call.started', 'voice.call.completed'] as const;
const COMPLETED = 'voice.call.completed';
/** Latency samples kept per series (reservoir sampling past it). */
const MAX_SAMPLES = 20_000;
/** Calls a tally accepts: a bound on its memory whatever the rate. */
const MAX_EXPECTED_CALLS = 200_000;

export interface Arrival {
  endpoint: string;
  receivedAtMs: number;
  eventType?: string;
  callId?: string;
  /** The envelope's created_at, parsed. */
  createdAtMs?: number;
  /** `metadata.placed_at_ms` carried back by voice.call.completed. */
  placedAtMs?: number;
  signatureOk: boolean;
  duplicate: boolean;
}

class Reservoir {
  readonly values: number[] = [];
  #seen = 0;
  constructor(
    private readonly size: number,
    private readonly random: () => number,
  ) {}
  add(value: number): void {
    this.#seen++;
    if (this.values.length < this.size) this.values.push(value);
    else {
      const slot = Math.floor(this.random() * this.#seen);
      if (slot < this.size) this.values[slot] = value;
    }
  }
}

export class FanoutTally {
  readonly #endpoints: ReadonlySet<string>;
  readonly #types: ReadonlySet<string>;
  readonly #expected = new Map<string, number>();
  /** Per call, `${endpoint}|${type}` of the first arrivals at a tallied endpoint of a tallied type. */
  readonly #arrived = new Map<string, Set<string>>();
  readonly #arrivalsByCall = new Map<string, number>();
  readonly #eventLatency: Reservoir;
  readonly #placementLatency: Reservoir;
  /**
   * Arrival times of completed events whose call's placement time is not known yet (no
   * metadata.placed_at_ms in them, and the call not learnt yet): measured once it is. Bounded.
   */
  readonly #awaitingPlacement = new Map<string, number[]>();
  #awaitingCount = 0;
  readonly #maxSamples: number;
  #total = 0;
  #noCall = 0;
  #badSignatures = 0;
  #duplicates = 0;
  #first: number | null = null;
  #last: number | null = null;

  constructor(
    endpoints: readonly string[],
    options: { types?: readonly string[]; maxSamples?: number; random?: () => number } = {},
  ) {
    this.#endpoints = new Set(endpoints);
    this.#types = new Set(options.types ?? LIFECYCLE_EVENTS);
    this.#maxSamples = options.maxSamples ?? MAX_SAMPLES;
    this.#eventLatency = new Reservoir(this.#maxSamples, options.random ?? Math.random);
    this.#placementLatency = new Reservoir(this.#maxSamples, options.random ?? Math.random);
  }

  /** A VU placed `callId`; false once the bound on tracked calls is reached. */
  expect(callId: string, placedAtMs: number): boolean {
    if (!this.#expected.has(callId) && this.#expected.size >= MAX_EXPECTED_CALLS) return false;
    this.#expected.set(callId, placedAtMs);
    const awaiting = this.#awaitingPlacement.get(callId) ?? [];
    for (const receivedAtMs of awaiting) this.#placementLatency.add(receivedAtMs - placedAtMs);
    this.#awaitingCount -= awaiting.length;
    this.#awaitingPlacement.delete(callId);
    return true;
  }

  arrive(a: Arrival): void {
    this.#total++;
    this.#first = this.#first === null ? a.receivedAtMs : Math.min(this.#first, a.receivedAtMs);
    this.#last = this.#last === null ? a.receivedAtMs : Math.max(this.#last, a.receivedAtMs);
    if (!a.signatureOk) this.#badSignatures++;
    if (a.duplicate) this.#duplicates++;
    if (a.callId === undefined) this.#noCall++;
    else this.#arrivalsByCall.set(a.callId, (this.#arrivalsByCall.get(a.callId) ?? 0) + 1);
    if (a.duplicate) return; // latency and arrival are measured on first arrivals only
    if (a.createdAtMs !== undefined) this.#eventLatency.add(a.receivedAtMs - a.createdAtMs);
    if (a.callId !== undefined && a.eventType !== undefined) {
      if (this.#endpoints.has(a.endpoint) && this.#types.has(a.eventType)) {
        let seen = this.#arrived.get(a.callId);
        if (!seen) this.#arrived.set(a.callId, (seen = new Set()));
        seen.add(`${a.endpoint}|${a.eventType}`);
      }
      if (a.eventType === COMPLETED) {
        const placedAt = this.#expected.get(a.callId) ?? a.placedAtMs;
        if (placedAt !== undefined) this.#placementLatency.add(a.receivedAtMs - placedAt);
        else if (this.#awaitingCount < this.#maxSamples) {
          let awaiting = this.#awaitingPlacement.get(a.callId);
          if (!awaiting) this.#awaitingPlacement.set(a.callId, (awaiting = []));
          awaiting.push(a.receivedAtMs);
          this.#awaitingCount++;
        }
      }
    }
  }

  /** Expected deliveries that did not arrive, by event type: which step of the lifecycle the service dropped. */
  lostByType(): Record<string, number> {
    const lost: Record<string, number> = {};
    for (const callId of this.#expected.keys()) {
      const seen = this.#arrived.get(callId);
      for (const type of this.#types) {
        for (const endpoint of this.#endpoints)
          if (!seen?.has(`${endpoint}|${type}`)) lost[type] = (lost[type] ?? 0) + 1;
      }
    }
    return lost;
  }

  stats(withSamples = false): FanoutStats {
    let arrived = 0;
    for (const callId of this.#expected.keys()) arrived += this.#arrived.get(callId)?.size ?? 0;
    let unattributed = this.#noCall;
    for (const [callId, count] of this.#arrivalsByCall) if (!this.#expected.has(callId)) unattributed += count;
    const expected = this.#expected.size * this.#endpoints.size * this.#types.size;
    const windowMs = this.#first === null || this.#last === null ? 0 : this.#last - this.#first;
    const stats: FanoutStats = {
      endpoints: this.#endpoints.size,
      events_per_call: this.#types.size,
      calls_expected: this.#expected.size,
      expected,
      arrived,
      lost: expected - arrived,
      deliveries_total: this.#total,
      deliveries_per_second: windowMs > 0 ? (this.#total - 1) / (windowMs / 1000) : 0,
      first_arrival_ms: this.#first,
      last_arrival_ms: this.#last,
      bad_signatures: this.#badSignatures,
      duplicates: this.#duplicates,
      unattributed,
    };
    if (withSamples) {
      stats.samples = {
        event_to_arrival_ms: [...this.#eventLatency.values],
        placement_to_arrival_ms: [...this.#placementLatency.values],
      };
    }
    return stats;
  }
}
