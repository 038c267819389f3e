/**
 * How many times each event id has arrived at one endpoint, remembering at most
 * `capacity` ids (oldest forgotten first) so a service flooding unique ids cannot
 * exhaust memory.
 */
export class EventIdLedger {
  readonly #arrivals = new Map<string, number>();

  constructor(private readonly capacity: number) {}

  /** Records one arrival of `id` and returns its attempt number (1 for the first). */
  record(id: string): number {
    const attempt = (this.#arrivals.get(id) ?? 0) + 1;
    if (attempt === 1 && this.#arrivals.size >= this.capacity) {
      const oldest = this.#arrivals.keys().next().value;
      if (oldest !== undefined) this.#arrivals.delete(oldest);
    }
    this.#arrivals.set(id, attempt);
    return attempt;
  }

  get uniqueIds(): number {
    return this.#arrivals.size;
  }

  clear(): void {
    this.#arrivals.clear();
  }
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
