/**
 * The reference keeps a workspace's calls in two bounded generations (reference/calls/records.ts):
 * finished calls of the oldest generation are forgotten, calls in progress never are, and the
 * store's index by id forgets with them.
 */
import { describe, expect, it } from 'vitest';
import { CallRecords } from '../../reference/calls/records.js';
import { NO_FAULTS } from '../../reference/faults.js';
import type { Call, CallState } from '../../reference/calls/call.js';
import { Store, type Workspace } from '../../reference/store.js';

function call(n: number, state: CallState = 'completed'): Call {
  return {
    id: `call_${n}`,
    workspaceId: 'ws_t',
    agentId: 'agt_t',
    to: '+14155550100',
    metadata: {},
    state,
    outcome: null,
    durationSeconds: null,
    createdAt: n,
    timers: [],
  };
}

describe('the calls a workspace keeps', () => {
  it('keeps two generations: every call until the third generation starts, then only the latest two', () => {
    const records = new CallRecords(3);
    for (let n = 1; n <= 6; n++) expect(records.add(call(n))).toEqual([]);
    expect(records.size).toBe(6);
    expect(records.add(call(7)).map((c) => c.id)).toEqual(['call_1', 'call_2', 'call_3']);
    expect([records.get('call_3'), records.get('call_4')?.id, records.get('call_7')?.id]).toEqual([
      undefined,
      'call_4',
      'call_7',
    ]);
    expect([...records.values()].map((c) => c.id)).toEqual(['call_4', 'call_5', 'call_6', 'call_7']);
  });

  it('never forgets a call still in progress: it is set aside when its generation is forgotten', () => {
    const records = new CallRecords(2);
    records.add(call(1, 'queued'));
    records.add(call(2, 'started'));
    records.add(call(3));
    records.add(call(4));
    expect(records.add(call(5))).toEqual([]);
    expect([records.get('call_1')?.state, records.get('call_2')?.state]).toEqual(['queued', 'started']);
    records.add(call(6, 'failed'));
    expect(records.add(call(7)).map((c) => c.id)).toEqual(['call_3', 'call_4']);
    expect(records.get('call_1')?.id).toBe('call_1');
  });

  it('is found by the store in any workspace until it is forgotten', () => {
    const store = new Store();
    const workspace = {
      id: 'ws_t',
      licensedScopes: [],
      timeScale: 1,
      callProgress: 'manual',
      suspended: false,
      faults: NO_FAULTS,
      faultPrefix: '',
      agents: new Map(),
      calls: new CallRecords(2),
      tokens: new Map(),
      members: new Map(),
      identityProvider: null,
      rejectAllTokens: { from: 0, until: 0 },
    } satisfies Workspace;
    store.addWorkspace(workspace);
    for (let n = 1; n <= 5; n++) store.addCall(workspace, call(n));
    expect([1, 2, 3, 4, 5].map((n) => store.callInAnyWorkspace(`call_${n}`)?.id)).toEqual([
      undefined,
      undefined,
      'call_3',
      'call_4',
      'call_5',
    ]);
  });
});

describe('a workspace of many calls in progress', () => {
  it('gives each generation its full share of new calls, however many calls in progress were set aside', () => {
    const records = new CallRecords(2);
    records.add(call(1, 'queued'));
    records.add(call(2, 'queued'));
    records.add(call(3));
    records.add(call(4));
    // Call 5 begins a generation and sets calls 1 and 2 aside; that generation still takes call 6.
    expect(records.add(call(5))).toEqual([]);
    expect(records.add(call(6))).toEqual([]);
    expect(records.get('call_3')?.id).toBe('call_3');
    expect(records.add(call(7)).map((c) => c.id)).toEqual(['call_3', 'call_4']);
    expect([...records.values()].map((c) => c.id)).toEqual(['call_1', 'call_2', 'call_5', 'call_6', 'call_7']);
  });
});

describe('calls set aside in progress', () => {
  it('are forgotten once finished, when the set of them has doubled since it was last swept', () => {
    const records = new CallRecords(2);
    const queued = [1, 2, 3, 4].map((n) => call(n, 'queued'));
    for (const c of queued) records.add(c);
    // Call 5 turns calls 1 and 2 over into the set in progress (2 of them: swept, none finished).
    expect(records.add(call(5, 'queued'))).toEqual([]);
    queued[0]!.state = 'completed';
    queued[1]!.state = 'failed';
    records.add(call(6, 'queued'));
    // Call 7 turns 3 and 4 over: the set has doubled to 4, and its finished calls go.
    expect(records.add(call(7, 'queued')).map((c) => c.id)).toEqual(['call_1', 'call_2']);
    expect([...records.values()].map((c) => c.id)).toEqual(['call_3', 'call_4', 'call_5', 'call_6', 'call_7']);
  });
});
