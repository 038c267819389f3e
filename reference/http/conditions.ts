import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { decodeUnverified, looksLikeJwt } from '../auth/session.js';
import { NO_FAULTS, parseFaultPrefix } from '../faults.js';
import type { Store } from '../store.js';
import { sendPublicError, type RequestContext } from './respond.js';
import { seededSequence } from './seeded.js';
import { isFull, take, type Bucket, type BucketLimit } from './token-bucket.js';

// The conditions of a staging service across a real network, played by the reference so
// the harness can be certified against them (README: "Network conditions"): added latency
// on every round trip, a rate limit on the public API, and connections reset now and then.
// They wrap the request handler: the routes below never know about them.

export type RetryAfterForm = 'seconds' | 'date' | 'none';

export interface RateLimitOptions {
  /** Requests per second per workspace the credential resolves to (and the burst); absent: no such limit. */
  perWorkspace?: number;
  /** Requests per second per client address (and the burst); absent: no such limit. */
  perClient?: number;
  /** How a 429 says when to come back: whole seconds (default), an HTTP date, or not at all. */
  retryAfter?: RetryAfterForm;
}

export interface NetworkConditions {
  /** Added to every round trip: API and control answers, and outbound connections, start this much later. */
  latencyMs?: number;
  /** The added delay varies uniformly within ± this much. */
  jitterMs?: number;
  /** Token buckets on the public API (never on the control interface). */
  rateLimit?: RateLimitOptions;
  /** This fraction of public API requests has its connection reset before it is handled. */
  resetFraction?: number;
  /** Seeds which requests are reset and the jitter (default 1): the same seed, the same requests. */
  seed?: number;
}

export const RETRY_AFTER_FORMS: readonly RetryAfterForm[] = ['seconds', 'date', 'none'];

/** Throws on settings no network could have, naming the field. */
export function validateNetworkConditions(conditions: NetworkConditions): void {
  const nonNegative = (name: string, value: number | undefined) => {
    if (value !== undefined && !(Number.isFinite(value) && value >= 0))
      throw new Error(`network.${name} must be a number ≥ 0, got ${String(value)}`);
  };
  nonNegative('latencyMs', conditions.latencyMs);
  nonNegative('jitterMs', conditions.jitterMs);
  const fraction = conditions.resetFraction;
  if (fraction !== undefined && !(Number.isFinite(fraction) && fraction >= 0 && fraction < 1)) {
    throw new Error(`network.resetFraction must be at least 0 and below 1, got ${String(fraction)}`);
  }
  const limit = conditions.rateLimit;
  if (limit) {
    for (const name of ['perWorkspace', 'perClient'] as const) {
      const rate = limit[name];
      if (rate !== undefined && !(Number.isFinite(rate) && rate > 0))
        throw new Error(`network.rateLimit.${name} must be a number > 0, got ${String(rate)}`);
    }
    if (limit.retryAfter !== undefined && !RETRY_AFTER_FORMS.includes(limit.retryAfter)) {
      throw new Error(
        `network.rateLimit.retryAfter must be ${RETRY_AFTER_FORMS.join(', ')}, got "${String(limit.retryAfter)}"`,
      );
    }
  }
}

/** Whether any condition would change what a client sees. */
export function hasNetworkConditions(conditions: NetworkConditions | undefined): conditions is NetworkConditions {
  if (!conditions) return false;
  const limit = conditions.rateLimit;
  return (
    (conditions.latencyMs ?? 0) > 0 ||
    (conditions.jitterMs ?? 0) > 0 ||
    (conditions.resetFraction ?? 0) > 0 ||
    limit?.perWorkspace !== undefined ||
    limit?.perClient !== undefined
  );
}

/** The Retry-After header for a wait of `waitMs` at wall-clock `nowMs`, or none. */
export function retryAfterHeader(
  form: RetryAfterForm,
  waitMs: number,
  nowMs: number,
): Record<string, string> | undefined {
  if (form === 'none') return undefined;
  // Rounded up either way: a client that comes back when told must find a token there.
  if (form === 'date') return { 'Retry-After': new Date(Math.ceil((nowMs + waitMs) / 1000) * 1000).toUTCString() };
  return { 'Retry-After': String(Math.max(1, Math.ceil(waitMs / 1000))) };
}

const BEARER = /^Bearer +([^ ]+) *$/i;
const BEARER_TOKEN_SHAPE = /^svc_(?:test|live)_[A-Za-z0-9]+$/;

/**
 * The workspace a credential names, without authenticating it: a rate limiter counts a
 * request before the service does any work for it, so this costs no JWKS fetch. A revoked
 * token still names its workspace; a session token names the first workspace of its
 * (unverified) issuer that has its subject as a member.
 */
export function workspaceOfCredential(store: Store, authorization: string | undefined): string | undefined {
  const match = authorization === undefined ? null : BEARER.exec(authorization);
  if (!match) return undefined;
  const credential = match[1]!;
  if (BEARER_TOKEN_SHAPE.test(credential)) return store.tokensBySecret.get(credential)?.workspaceId;
  if (!looksLikeJwt(credential)) return undefined;
  const payload = decodeUnverified(credential)?.payload;
  if (typeof payload?.iss !== 'string' || typeof payload.sub !== 'string') return undefined;
  for (const workspace of store.workspacesWithIssuer(payload.iss))
    if (workspace.members.has(payload.sub)) return workspace.id;
  return undefined;
}

type Verdict =
  | { allowed: true }
  | { allowed: false; retryAfterMs: number; scope: 'workspace' | 'client address'; rate: number };

/** The per-workspace and per-client buckets; a request spends a token from each only when both admit it. */
export class RateLimiter {
  private readonly workspaces = new Map<string, Bucket>();
  private readonly clients = new Map<string, Bucket>();
  private readonly workspaceLimit: BucketLimit | undefined;
  private readonly clientLimit: BucketLimit | undefined;

  constructor(options: RateLimitOptions) {
    // The burst is the rate, but at least one request: a rate below 1/s must still admit some.
    const limit = (rate: number | undefined) =>
      rate === undefined ? undefined : { ratePerSecond: rate, burst: Math.max(1, rate) };
    this.workspaceLimit = limit(options.perWorkspace);
    this.clientLimit = limit(options.perClient);
  }

  admit(client: string, workspace: string | undefined, now: number): Verdict {
    const byClient = this.clientLimit ? take(this.clients.get(client), now, this.clientLimit) : undefined;
    const byWorkspace =
      this.workspaceLimit && workspace !== undefined
        ? take(this.workspaces.get(workspace), now, this.workspaceLimit)
        : undefined;
    if (byWorkspace && !byWorkspace.allowed) {
      const clientWait = byClient && !byClient.allowed ? byClient.retryAfterMs : 0;
      return {
        allowed: false,
        retryAfterMs: Math.max(byWorkspace.retryAfterMs, clientWait),
        scope: 'workspace',
        rate: this.workspaceLimit!.ratePerSecond,
      };
    }
    if (byClient && !byClient.allowed)
      return {
        allowed: false,
        retryAfterMs: byClient.retryAfterMs,
        scope: 'client address',
        rate: this.clientLimit!.ratePerSecond,
      };
    if (byClient) this.clients.set(client, byClient.bucket);
    if (byWorkspace) this.workspaces.set(workspace!, byWorkspace.bucket);
    return { allowed: true };
  }

  /** Forgets buckets that have refilled, so the maps do not grow with every client ever seen. */
  sweep(now: number): void {
    for (const [map, limit] of [
      [this.clients, this.clientLimit],
      [this.workspaces, this.workspaceLimit],
    ] as const) {
      if (!limit) continue;
      for (const [key, bucket] of map) if (isFull(bucket, now, limit)) map.delete(key);
    }
  }
}

interface Pending {
  timer: NodeJS.Timeout;
  cancelled(): void;
}

/** Every delay the conditions start, so that close() can stop them all. */
class Delays {
  private readonly pending = new Set<Pending>();
  private closed = false;

  after(ms: number, fn: () => void, cancelled: () => void = () => undefined): void {
    if (this.closed) return cancelled();
    const entry: Pending = {
      timer: setTimeout(() => {
        this.pending.delete(entry);
        fn();
      }, ms),
      cancelled,
    };
    this.pending.add(entry);
  }

  wait(ms: number): Promise<void> {
    return new Promise((resolve, reject) =>
      this.after(ms, resolve, () => reject(new Error('the reference is closing'))),
    );
  }

  close(): void {
    this.closed = true;
    for (const entry of this.pending) {
      clearTimeout(entry.timer);
      entry.cancelled();
    }
    this.pending.clear();
  }
}

/** Closes a connection as a network failure would: a TCP reset where the socket allows one. */
function resetConnection(socket: Socket): void {
  try {
    if (typeof socket.resetAndDestroy === 'function') {
      socket.resetAndDestroy();
      return;
    }
  } catch {
    // A TLS socket has no TCP handle of its own to reset.
  }
  socket.destroy();
}

export interface ConditionsDeps {
  store: Store;
  /** Monotonic time for the buckets (ms). */
  now?: () => number;
  /** Wall-clock time for Retry-After dates (ms since the epoch). */
  wallNow?: () => number;
}

export class ConditionedNetwork {
  private readonly delays = new Delays();
  private readonly limiter: RateLimiter | undefined;
  private readonly jitter: () => number;
  private readonly resets: () => number;
  private readonly now: () => number;
  private readonly wallNow: () => number;
  private readonly retryAfter: RetryAfterForm;
  /** Public API requests seen so far, reset or not. */
  publicRequests = 0;
  /** Of those, how many had their connection reset. */
  resetRequests = 0;

  constructor(
    readonly conditions: NetworkConditions,
    private readonly deps: ConditionsDeps,
  ) {
    validateNetworkConditions(conditions);
    const limit = conditions.rateLimit;
    this.limiter =
      limit && (limit.perClient !== undefined || limit.perWorkspace !== undefined) ? new RateLimiter(limit) : undefined;
    this.retryAfter = limit?.retryAfter ?? 'seconds';
    const seed = conditions.seed ?? 1;
    // Two sequences: how much jitter a request gets must not change which requests are reset.
    this.resets = seededSequence(seed);
    this.jitter = seededSequence(seed ^ 0x5bd1e995);
    this.now = deps.now ?? (() => performance.now());
    this.wallNow = deps.wallNow ?? (() => Date.now());
  }

  /** The delay of one leg, ms. */
  private delayMs(): number {
    const { latencyMs = 0, jitterMs = 0 } = this.conditions;
    if (jitterMs === 0) return latencyMs;
    return Math.max(0, latencyMs + (2 * this.jitter() - 1) * jitterMs);
  }

  /** Holds an outbound connection (delivery, JWKS fetch) back by the latency; rejects when the reference closes. */
  readonly beforeConnect = (): Promise<void> => {
    const ms = this.delayMs();
    return ms > 0 ? this.delays.wait(ms) : Promise.resolve();
  };

  /** Plays the conditions on one request, then hands it to `next` unless they answered it. */
  handle(req: IncomingMessage, res: ServerResponse, ctx: RequestContext, next: () => void): void {
    const prefix = parseFaultPrefix(pathOf(req.url ?? '/'));
    const isPublic = prefix.ok && (prefix.rest === '/v1' || prefix.rest.startsWith('/v1/'));
    // Drawn on arrival, so the nth public request is the one reset whatever the jitter.
    let reset = false;
    if (isPublic) {
      this.publicRequests++;
      const fraction = this.conditions.resetFraction ?? 0;
      reset = fraction > 0 && this.resets() < fraction;
      if (reset) this.resetRequests++;
    }
    const proceed = () => {
      if (reset) return resetConnection(req.socket);
      if (isPublic && this.limiter) {
        const verdict = this.limiter.admit(
          req.socket.remoteAddress ?? 'unknown',
          workspaceOfCredential(this.deps.store, req.headers.authorization),
          this.now(),
        );
        if (!verdict.allowed) {
          const faults = prefix.ok ? prefix.faults : NO_FAULTS;
          const message = `more than ${verdict.rate} requests per second for this ${verdict.scope}; retry in ${Math.ceil(verdict.retryAfterMs)} ms`;
          return sendPublicError(
            res,
            ctx,
            faults,
            429,
            'rate_limited',
            message,
            retryAfterHeader(this.retryAfter, verdict.retryAfterMs, this.wallNow()),
          );
        }
      }
      next();
    };
    const ms = this.delayMs();
    if (ms > 0) this.delays.after(ms, proceed);
    else proceed();
  }

  sweep(): void {
    this.limiter?.sweep(this.now());
  }

  /** Stops every pending delay; held requests go with their connections when the server closes them. */
  close(): void {
    this.delays.close();
  }
}

function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
