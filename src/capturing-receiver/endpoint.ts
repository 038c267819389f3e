import { signingKey, type SigningKey } from '../signing/sign.js';
import { checkRule, resolveAnswer, type ResolvedAnswer } from './answers.js';
import { DeliveryLog } from './delivery-log.js';
import { SeenEventIds } from './seen-events.js';
import type { AnswerRule, CapturedDelivery, EndpointStats, ProgrammedAnswer } from './types.js';
import { judgeDelivery } from './verdicts.js';

/** What an endpoint needs from the receiver that owns it. */
export interface EndpointSettings {
  name: string;
  /** The request path it owns, or '*' for every path no other endpoint owns. */
  path: string;
  url: string;
  maxDeliveries: number;
  /** Body bytes kept at most; past it the oldest deliveries are dropped. */
  maxStoredBytes: number;
  maxTrackedEventIds: number;
  toleranceSeconds: number;
  rejectStaleTimestamp: boolean;
}

/** The request as the receiver read it, before any verdict. */
export interface ArrivedRequest {
  seq: number;
  method: string;
  path: string;
  query: string;
  headers: CapturedDelivery['headers'];
  rawBody: Buffer;
  receivedAtMs: number;
  receivedAtMono: number;
}

export interface WaitForOptions {
  timeoutMs: number;
  /** Says what is awaited, for the time-out message. */
  description?: string;
}

type Waiter = { check: () => void; fail: (error: Error) => void };

/**
 * One registered webhook endpoint: a path on the receiver, its signing secret, its
 * programmed answers and the deliveries that reached it, in arrival order.
 */
export class ReceiverEndpoint {
  readonly name: string;
  readonly path: string;
  /** The URL to register with the service. */
  readonly url: string;

  // A private field: util.inspect, JSON.stringify and console.log never show it.
  #secret: SigningKey | undefined;
  #rules: AnswerRule[] = [];
  readonly #deliveries: DeliveryLog;
  readonly #seenEventIds: SeenEventIds;
  readonly #waiters = new Set<Waiter>();
  readonly #settledListeners = new Set<(delivery: CapturedDelivery) => void>();
  readonly #settings: EndpointSettings;
  /** Where a programmed 3xx points: a path no endpoint owns, so following it shows up as a stray. */
  readonly #redirectTarget: string;
  readonly #stats: EndpointStats = {
    total: 0,
    bytes: 0,
    badSignatures: 0,
    duplicates: 0,
    uniqueEventIds: 0,
    dropped: 0,
    oversized: 0,
  };

  constructor(settings: EndpointSettings) {
    this.#settings = settings;
    this.name = settings.name;
    this.path = settings.path;
    this.url = settings.url;
    this.#seenEventIds = new SeenEventIds(settings.maxTrackedEventIds);
    this.#deliveries = new DeliveryLog(settings.name, {
      maxDeliveries: settings.maxDeliveries,
      maxStoredBytes: settings.maxStoredBytes,
    });
    this.#redirectTarget = `${settings.url.replace(/\/$/, '')}/redirected`;
  }

  /** The signing secret the service returned for this endpoint; kept in memory only. */
  setSecret(secret: string): this {
    this.#secret = signingKey(secret);
    return this;
  }

  get hasSecret(): boolean {
    return this.#secret !== undefined;
  }

  /** Adds a programmed answer; rules are tried in the order added, first match wins. */
  respond(rule: AnswerRule): this {
    this.#rules.push(checkRule(rule));
    return this;
  }

  /** Answers the first `n` attempts of each event id (or of `eventId` only) with `answer`. */
  failFirst(
    n: number,
    answer: ProgrammedAnswer = { status: 500 },
    match: { eventId?: string; eventType?: string } = {},
  ): this {
    return this.respond({ ...answer, ...match, firstAttempts: n });
  }

  /** Answers every delivery with `answer`. */
  failAll(answer: ProgrammedAnswer = { status: 500 }): this {
    return this.respond({ ...answer, always: true });
  }

  /** Back to the default answers (204, or 401 on a bad signature). */
  reset(): this {
    this.#rules = [];
    return this;
  }

  /** Captured deliveries in arrival order (the oldest are dropped past the cap). */
  get deliveries(): readonly CapturedDelivery[] {
    return this.#deliveries.list();
  }

  stats(): EndpointStats {
    return { ...this.#stats, uniqueEventIds: this.#seenEventIds.uniqueIds };
  }

  /**
   * Resolves with a snapshot of the deliveries once `predicate` holds (checked now, on
   * each arrival and on each answer); rejects with an Error saying what was awaited and
   * what did arrive when `timeoutMs` passes first.
   */
  waitFor(
    predicate: (deliveries: readonly CapturedDelivery[]) => boolean,
    options: WaitForOptions,
  ): Promise<readonly CapturedDelivery[]> {
    return new Promise((resolve, reject) => {
      const settle = (): void => {
        clearTimeout(timer);
        this.#waiters.delete(waiter);
      };
      const waiter: Waiter = {
        check: () => {
          let done: boolean;
          try {
            done = predicate(this.#deliveries.list());
          } catch (error) {
            waiter.fail(error instanceof Error ? error : new Error(String(error)));
            return;
          }
          if (done) {
            settle();
            resolve(this.#deliveries.list().slice());
          }
        },
        fail: (error) => {
          settle();
          reject(error);
        },
      };
      const timer = setTimeout(() => waiter.fail(new Error(this.#describeTimeout(options))), options.timeoutMs);
      this.#waiters.add(waiter);
      waiter.check();
    });
  }

  /** @internal Rejects every pending waitFor: the receiver is closing. */
  abandonWaiters(reason: string): void {
    for (const waiter of [...this.#waiters]) waiter.fail(new Error(`waitFor on endpoint "${this.name}": ${reason}`));
  }

  /** @internal Records a delivery, judges it and decides the answer. */
  capture(request: ArrivedRequest): { delivery: CapturedDelivery; answer: ResolvedAnswer } {
    const verdicts = judgeDelivery(
      request.rawBody,
      request.headers,
      this.#secret,
      request.receivedAtMs,
      this.#settings.toleranceSeconds,
    );
    const attempt = verdicts.eventId === undefined ? 1 : this.#seenEventIds.record(verdicts.eventId);
    verdicts.duplicate = attempt > 1;
    // Spelled out rather than spread: one fixed shape for every delivery, on the hot path.
    const delivery: CapturedDelivery = {
      seq: request.seq,
      endpoint: this.name,
      method: request.method,
      path: request.path,
      query: request.query,
      headers: request.headers,
      rawBody: request.rawBody,
      receivedAtMs: request.receivedAtMs,
      receivedAtMono: request.receivedAtMono,
      attempt,
      answer: 'pending',
      answeredStatus: null,
      answeredAfterMs: null,
      verdicts,
    };
    const stats = this.#stats;
    stats.total++;
    stats.bytes += request.rawBody.length;
    if (verdicts.signature !== 'no-secret' && !verdicts.signature.ok) stats.badSignatures++;
    if (verdicts.duplicate) stats.duplicates++;
    // Kept deliveries are bounded in count and in body bytes: 10,000 bodies of nearly
    // 1 MB each would be 10 GB. The oldest go first.
    stats.dropped += this.#deliveries.append(delivery);
    const answer = resolveAnswer(this.#rules, delivery, this.#redirectTarget, this.#settings.rejectStaleTimestamp);
    this.notify();
    return { delivery, answer };
  }

  /** @internal A body over the receiver's cap reached this endpoint. */
  countOversized(): void {
    this.#stats.oversized++;
  }

  /**
   * Calls `listener` with each delivery once its answer is settled (sent, reset, timed
   * out, or the service hung up). Returns a function that stops it. For live logs.
   */
  onSettled(listener: (delivery: CapturedDelivery) => void): () => void {
    this.#settledListeners.add(listener);
    return () => this.#settledListeners.delete(listener);
  }

  /** @internal The receiver finished answering `delivery`. */
  settled(delivery: CapturedDelivery): void {
    this.#deliveries.settle(delivery);
    // Sizes first: iterating even an empty Set makes an iterator, on every delivery.
    if (this.#settledListeners.size > 0) for (const listener of this.#settledListeners) listener(delivery);
    this.notify();
  }

  /** @internal Re-checks every waiter (after an arrival or an answer). */
  notify(): void {
    if (this.#waiters.size > 0) for (const waiter of this.#waiters) waiter.check();
  }

  #describeTimeout(options: WaitForOptions): string {
    const what = options.description ?? 'condition';
    const deliveries = this.#deliveries.list();
    const recent = deliveries
      .slice(-5)
      .map(
        (d) =>
          `#${d.seq} ${d.verdicts.eventType ?? '?'} ${d.verdicts.eventId ?? '?'} attempt ${d.attempt} -> ${d.answeredStatus ?? d.answer}`,
      );
    return (
      `waitFor(${what}) on endpoint "${this.name}" timed out after ${options.timeoutMs} ms ` +
      `with ${deliveries.length} deliveries${recent.length > 0 ? `; last: ${recent.join('; ')}` : ''}`
    );
  }
}
