import type { Clock } from '../clock.js';
import type { FaultSet } from '../faults.js';
import type { BearerToken, Store } from '../store.js';
import { isTokenActive } from './tokens.js';

// Revocation modelled honestly: the service runs as several nodes, each answering
// from its own token cache whose entries live `propagationMs`. A revoked token keeps
// working on a node until that node's entry expires, so a revocation takes effect
// everywhere within one propagation cycle, never at once by magic.

export type TokenLookup =
  | { kind: 'active'; token: BearerToken }
  | { kind: 'revoked'; token: BearerToken }
  | { kind: 'unknown' };

interface CacheEntry {
  token: BearerToken;
  activeWhenFetched: boolean;
  expiresAt: number;
}

export class TokenNode {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(
    readonly index: number,
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly propagationMs: number,
  ) {}

  lookup(secret: string, faults: FaultSet): TokenLookup {
    const now = this.clock.now();
    let entry = this.cache.get(secret);
    // Stryker disable next-line ConditionalExpression,EqualityOperator: no stated rule: the nodes' token caches; the lookup's own expiry and the sweep each bound a stale entry, so revocation stays within "under one minute" (Rotation without downtime, 3), a bound, not a delay to keep
    if (entry === undefined || entry.expiresAt <= now) {
      const token = this.store.tokensBySecret.get(secret) ?? nearMissToken(this.store, secret, faults);
      if (token === undefined) {
        // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent: the entry here has expired, so every later lookup fetches again whether it is deleted now or by the sweep, and deleting a missing key does nothing
        if (entry !== undefined) this.cache.delete(secret);
        return { kind: 'unknown' };
      }
      // Stryker disable next-line ArithmeticOperator: no stated rule: the nodes' token caches; the lookup's own expiry and the sweep each bound a stale entry, so revocation stays within "under one minute" (Rotation without downtime, 3), a bound, not a delay to keep
      entry = { token, activeWhenFetched: isTokenActive(token, now), expiresAt: now + this.propagationMs };
      // Stryker disable next-line CallExpression: no stated rule: the nodes' token caches; the lookup's own expiry and the sweep each bound a stale entry, so revocation stays within "under one minute" (Rotation without downtime, 3), a bound, not a delay to keep
      this.cache.set(secret, entry);
    }
    // Fault revocation-stale-node: the first node never learns about revocations.
    if (this.index === 0 && faults.has('revocation-stale-node')) return { kind: 'active', token: entry.token };
    return entry.activeWhenFetched ? { kind: 'active', token: entry.token } : { kind: 'revoked', token: entry.token };
  }

  /** Drops expired entries so that the cache does not grow with every token ever seen. */
  // Stryker disable next-line BlockStatement: no stated rule: the nodes' token caches; the lookup's own expiry and the sweep each bound a stale entry, so revocation stays within "under one minute" (Rotation without downtime, 3), a bound, not a delay to keep
  sweep(): void {
    const now = this.clock.now();
    // Stryker disable next-line ConditionalExpression,EqualityOperator: no stated rule: the nodes' token caches; the lookup's own expiry and the sweep each bound a stale entry, so revocation stays within "under one minute" (Rotation without downtime, 3), a bound, not a delay to keep
    for (const [secret, entry] of this.cache) if (entry.expiresAt <= now) this.cache.delete(secret);
  }
}

/** Fault token-prefix-compared: how many leading characters the comparison reads. */
export const COMPARED_TOKEN_CHARACTERS = 40;

/**
 * Faults token-case-insensitive and token-prefix-compared: a token the exact lookup missed,
 * found by a looser comparison among the tokens of workspaces that carry the same fault.
 */
function nearMissToken(store: Store, secret: string, faults: FaultSet): BearerToken | undefined {
  if (faults.has('token-env-prefix-ignored')) {
    // Fault: the environment prefix is cosmetic; the lookup keys on the random part after it.
    const other = otherEnvironmentPrefix(secret);
    const token = other === undefined ? undefined : store.tokensBySecret.get(other);
    if (token && store.workspace(token.workspaceId)?.faults.has('token-env-prefix-ignored')) return token;
  }
  const caseless = faults.has('token-case-insensitive');
  const prefix = faults.has('token-prefix-compared');
  if (!caseless && !prefix) return undefined;
  for (const token of store.tokensBySecret.values()) {
    const owner = store.workspace(token.workspaceId);
    if (caseless && owner?.faults.has('token-case-insensitive') && token.secret.toLowerCase() === secret.toLowerCase())
      return token;
    if (
      prefix &&
      owner?.faults.has('token-prefix-compared') &&
      secret.length >= COMPARED_TOKEN_CHARACTERS &&
      token.secret.slice(0, COMPARED_TOKEN_CHARACTERS) === secret.slice(0, COMPARED_TOKEN_CHARACTERS)
    )
      return token;
  }
  return undefined;
}

/** Fault token-env-prefix-ignored: the secret under the other environment's prefix. */
function otherEnvironmentPrefix(secret: string): string | undefined {
  if (secret.startsWith('svc_live_')) return 'svc_test_' + secret.slice('svc_live_'.length);
  if (secret.startsWith('svc_test_')) return 'svc_live_' + secret.slice('svc_test_'.length);
  return undefined;
}

/** The nodes, handed out round-robin to new TCP connections. */
export class NodePool {
  readonly nodes: TokenNode[];
  private next = 0;

  constructor(count: number, store: Store, clock: Clock, propagationMs: number) {
    // Stryker disable next-line MethodExpression: no stated rule: one node instead of three revokes sooner, within the spec's bound too
    this.nodes = Array.from({ length: Math.max(1, count) }, (_, i) => new TokenNode(i, store, clock, propagationMs));
  }

  /** The node index for a new connection. */
  assign(): number {
    const index = this.next;
    this.next = (this.next + 1) % this.nodes.length;
    return index;
  }

  node(index: number): TokenNode {
    return this.nodes[index % this.nodes.length]!;
  }

  // Stryker disable next-line BlockStatement: no stated rule: the nodes' token caches; the lookup's own expiry and the sweep each bound a stale entry, so revocation stays within "under one minute" (Rotation without downtime, 3), a bound, not a delay to keep
  sweep(): void {
    // Stryker disable next-line CallExpression: no stated rule: the nodes' token caches; the lookup's own expiry and the sweep each bound a stale entry, so revocation stays within "under one minute" (Rotation without downtime, 3), a bound, not a delay to keep
    for (const node of this.nodes) node.sweep();
  }
}
