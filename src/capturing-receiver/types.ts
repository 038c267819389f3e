import type { IncomingHttpHeaders } from 'node:http';
import type { SignatureVerdict, TimestampVerdict } from '../signing/index.js';
import type { EnvelopeVerdict } from './envelope.js';

/** What the receiver concluded about one delivery, all from the raw bytes as received. */
export interface DeliveryVerdicts {
  /** 'no-secret' until `endpoint.setSecret` has been called. */
  signature: SignatureVerdict | 'no-secret';
  timestamp: TimestampVerdict;
  envelope: EnvelopeVerdict;
  eventId?: string;
  eventType?: string;
  /** The event id arrived at this endpoint before (a retry, a replay, or a true duplicate). */
  duplicate: boolean;
  /** The parsed body, when it is JSON. Parsed for inspection only; never re-serialised to verify. */
  json?: unknown;
}

/**
 * How the receiver's answer ended:
 * `pending` (not yet answered: a delay or a hang is running), `sent` (an HTTP status went
 * out), `reset` (connection destroyed on purpose), `timed-out` (the receiver's own request
 * time-out cut a hang or an over-long delay), `client-closed` (the service hung up first,
 * e.g. its own delivery time-out).
 */
export type AnswerState = 'pending' | 'sent' | 'reset' | 'timed-out' | 'client-closed';

export interface CapturedDelivery {
  /** Arrival order across the whole receiver, from 1. */
  seq: number;
  /** The endpoint's name (its path unless named). */
  endpoint: string;
  method: string;
  /** The request path without the query string. */
  path: string;
  /** The query string without '?', usually ''. */
  query: string;
  /** Header names lower-case, as Node gives them. */
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  /** Wall clock (Date.now()) when the request head arrived. */
  receivedAtMs: number;
  /** Monotonic clock (performance.now()) at the same moment; use it for intervals. */
  receivedAtMono: number;
  /** 1 for the first arrival of this event id at this endpoint, 2 for the next, ... */
  attempt: number;
  answer: AnswerState;
  /** The HTTP status sent, or null when none was (pending, reset, timed out, client closed). */
  answeredStatus: number | null;
  /** Milliseconds from arrival to the answer being sent or the connection ending. */
  answeredAfterMs: number | null;
  verdicts: DeliveryVerdicts;
}

/** Which deliveries a programmed answer applies to; all given conditions must hold. */
export interface AnswerMatcher {
  eventId?: string;
  eventType?: string;
  /** Only the first N attempts of each event id (or of `eventId`, when given). */
  firstAttempts?: number;
  /** Matches every delivery; the same as giving no condition, but says so. */
  always?: true;
}

/** What to do with a matching delivery. */
export type ProgrammedAnswer =
  /** Any status. A 3xx without a `location` header gets one pointing at a stray path of this receiver. */
  | {
      status: number;
      delayMs?: number;
      headers?: Record<string, string>;
      body?: string;
      /** The status line and headers go out (after `delayMs`); the body ends this much later. */
      bodyDelayMs?: number;
    }
  /** Destroy the connection without an answer (after `delayMs`, if given). */
  | { reset: true; delayMs?: number }
  /** Never answer; the receiver's own request time-out still ends it. */
  | { hang: true };

export type AnswerRule = AnswerMatcher & ProgrammedAnswer;

export interface EndpointStats {
  total: number;
  bytes: number;
  badSignatures: number;
  duplicates: number;
  uniqueEventIds: number;
  /** Deliveries dropped from `endpoint.deliveries` because it was full. */
  dropped: number;
  oversized: number;
}

export interface ReceiverStats {
  /** Deliveries captured at any endpoint. */
  total: number;
  /** Raw body bytes of those deliveries. */
  bytes: number;
  badSignatures: number;
  duplicates: number;
  dropped: number;
  /** Requests to unknown paths (answered 404). */
  strays: number;
  /** Bodies over maxBodyBytes (answered 413). */
  oversized: number;
  resets: number;
  timedOut: number;
  clientClosed: number;
  /** Malformed HTTP or failed TLS handshakes. */
  clientErrors: number;
  endpoints: Record<string, EndpointStats>;
}

/** A request to a path no endpoint owns; kept without its body. */
export interface StrayRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  receivedAtMs: number;
}
