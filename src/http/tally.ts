/**
 * What the network cost, counted per check and for the run: requests sent, 429s met and the
 * time waited for them, requests sent again, and requests that never got an answer. A check
 * runs inside its own tally (AsyncLocalStorage follows its awaits), so concurrent checks sharing
 * one client still each count their own; the runner adds them up for report.json.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Exchange } from '../exchange.js';

export interface NetworkTally {
  /** Requests sent to the public API, resends included. */
  requests: number;
  /** Requests sent to the control interface (never rate-limited by contract), resends included. */
  control_requests: number;
  /** Answers that were 429. */
  rate_limited: number;
  /** Time spent waiting: Retry-After, back-off and pacing, in ms. */
  waited_ms: number;
  /** Requests sent again after a 429 or without an answer. */
  resent: number;
  /** Requests that ended without an answer after their retries. */
  unanswered: number;
  /** The first of those, for the check's detail. */
  first_unanswered?: string;
}

export type { Exchange } from '../exchange.js';

/** What an assertion may hand over with its failure: an answer that carries its own exchange (src/http/client.ts). */
export interface Judged {
  exchange?: Exchange;
}

/**
 * A failed check's evidence, the exchange its assertion judged first (marked), then the
 * recent ones without it again.
 */
export function judgedFirst(judged: Exchange | undefined, recent: readonly Exchange[]): Exchange[] {
  if (!judged) return [...recent];
  return [{ ...judged, judged: true }, ...recent.filter((exchange) => exchange !== judged)];
}

/** Exchanges a check keeps: the last ones, where the verdict was decided. */
export const EXCHANGES_KEPT = 5;

/** What a check's requests leave behind: the tally, and its last exchanges as evidence. */
export interface CheckTraffic {
  tally: NetworkTally;
  exchanges: Exchange[];
}

export function emptyTraffic(): CheckTraffic {
  return { tally: emptyTally(), exchanges: [] };
}

/** Keeps `exchange` among the last EXCHANGES_KEPT of `traffic`. */
export function keepExchange(traffic: CheckTraffic, exchange: Exchange): void {
  traffic.exchanges.push(exchange);
  if (traffic.exchanges.length > EXCHANGES_KEPT) traffic.exchanges.shift();
}

export function emptyTally(): NetworkTally {
  return { requests: 0, control_requests: 0, rate_limited: 0, waited_ms: 0, resent: 0, unanswered: 0 };
}

const current = new AsyncLocalStorage<CheckTraffic>();

/** Runs `body` with its requests counted in `tally` (and, given `traffic`, their exchanges kept). */
export function countedIn<T>(tally: NetworkTally | CheckTraffic, body: () => T): T {
  return current.run('tally' in tally ? tally : { tally, exchanges: [] }, body);
}

/** The tally of the check whose code is running, if any. */
export function currentTally(): NetworkTally | undefined {
  return current.getStore()?.tally;
}

/** The traffic of the check whose code is running, if any. */
export function currentTraffic(): CheckTraffic | undefined {
  return current.getStore();
}

/** Adds `tally` into `total`. */
export function addTally(total: NetworkTally, tally: Partial<NetworkTally>): NetworkTally {
  total.requests += tally.requests ?? 0;
  total.control_requests += tally.control_requests ?? 0;
  total.rate_limited += tally.rate_limited ?? 0;
  total.waited_ms += tally.waited_ms ?? 0;
  total.resent += tally.resent ?? 0;
  total.unanswered += tally.unanswered ?? 0;
  return total;
}
