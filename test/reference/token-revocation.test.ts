import { describe, expect, it } from 'vitest';
import { NodePool } from '../../reference/auth/nodes.js';
import { CallRecords } from '../../reference/calls/records.js';
import { issueToken, revokeToken } from '../../reference/auth/tokens.js';
import { ManualClock } from '../../reference/clock.js';
import { NO_FAULTS, type FaultName } from '../../reference/faults.js';
import { type ALL_SCOPES, Store, type Workspace } from '../../reference/store.js';

const PROPAGATION_MS = 2000;

function setup(faultNames: FaultName[] = []) {
  const clock = new ManualClock();
  const store = new Store();
  const faults = new Set(faultNames);
  const workspace: Workspace = {
    id: 'ws_t',
    licensedScopes: ['voice:read', 'voice:write'],
    timeScale: 1,
    callProgress: 'manual',
    suspended: false,
    faults,
    faultPrefix: '',
    agents: new Map(),
    calls: new CallRecords(),
    tokens: new Map(),
    members: new Map(),
    identityProvider: null,
    rejectAllTokens: { from: 0, until: 0 },
  };
  store.addWorkspace(workspace);
  const pool = new NodePool(3, store, clock, PROPAGATION_MS);
  const issue = (scopes?: (typeof ALL_SCOPES)[number][]) => {
    const r = issueToken(store, workspace, { label: 't', scopes }, 'staging', faults);
    if (!r.ok) throw new Error(r.message);
    return r.token;
  };
  return { clock, store, workspace, pool, issue, faults };
}

describe('token issuing', () => {
  it('at most two active tokens; a revoked one frees a slot', () => {
    const s = setup();
    const first = s.issue();
    s.issue();
    expect(issueToken(s.store, s.workspace, { label: 'x', scopes: undefined }, 'staging', NO_FAULTS)).toMatchObject({
      ok: false,
      status: 409,
    });
    revokeToken(s.workspace, first.id, s.clock, NO_FAULTS);
    expect(s.issue().secret).toMatch(/^svc_test_[A-Za-z0-9]+$/);
  });

  it('default scopes are the licensed ones; narrowing works; unlicensed scopes are refused', () => {
    const s = setup();
    expect(s.issue().scopes).toEqual(['voice:read', 'voice:write']);
    expect(s.issue(['voice:read']).scopes).toEqual(['voice:read']);
    expect(issueToken(s.store, s.workspace, { label: 'x', scopes: ['mailer:read'] }, 'staging', NO_FAULTS).ok).toBe(
      false,
    );
  });

  it('production issues svc_live_ tokens', () => {
    const s = setup();
    const r = issueToken(s.store, s.workspace, { label: 'x', scopes: undefined }, 'production', NO_FAULTS);
    expect(r.ok && r.token.secret.startsWith('svc_live_')).toBe(true);
  });
});

describe('token revocation across nodes', () => {
  it('a revoked token may still work on a node that cached it, but nowhere after one propagation period', () => {
    const s = setup();
    const token = s.issue();
    // Every node caches the token as active.
    for (const node of s.pool.nodes) expect(node.lookup(token.secret, NO_FAULTS).kind).toBe('active');
    s.clock.advance(500);
    revokeToken(s.workspace, token.id, s.clock, NO_FAULTS);
    // Within the propagation period the cached nodes still accept it: honest, not instant.
    expect(s.pool.nodes.some((n) => n.lookup(token.secret, NO_FAULTS).kind === 'active')).toBe(true);
    s.clock.advance(PROPAGATION_MS);
    for (const node of s.pool.nodes) expect(node.lookup(token.secret, NO_FAULTS).kind).toBe('revoked');
  });

  it('a node that never saw the token refuses it at once', () => {
    const s = setup();
    const token = s.issue();
    revokeToken(s.workspace, token.id, s.clock, NO_FAULTS);
    expect(s.pool.node(1).lookup(token.secret, NO_FAULTS).kind).toBe('revoked');
  });

  it('connections are spread round-robin over the nodes', () => {
    const s = setup();
    expect([s.pool.assign(), s.pool.assign(), s.pool.assign(), s.pool.assign()]).toEqual([0, 1, 2, 0]);
  });

  it('fault revocation-slow keeps it working for 75 s (the tests can fail)', () => {
    const s = setup(['revocation-slow']);
    const token = s.issue();
    revokeToken(s.workspace, token.id, s.clock, s.faults);
    s.clock.advance(60_000);
    expect(s.pool.node(0).lookup(token.secret, s.faults).kind).toBe('active');
    s.clock.advance(20_000);
    expect(s.pool.node(1).lookup(token.secret, s.faults).kind).toBe('revoked');
  });

  it('fault revocation-stale-node keeps node 0 accepting forever', () => {
    const s = setup(['revocation-stale-node']);
    const token = s.issue();
    revokeToken(s.workspace, token.id, s.clock, s.faults);
    s.clock.advance(10 * 60_000);
    expect(s.pool.node(0).lookup(token.secret, s.faults).kind).toBe('active');
    expect(s.pool.node(1).lookup(token.secret, s.faults).kind).toBe('revoked');
  });
});
