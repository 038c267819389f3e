/**
 * The endpoint model (src/suite/model/endpoint-model.ts) against in-memory workspaces: one
 * that keeps the rules passes; one whose repeated deletions free slots, one that stops
 * delivering to an endpoint created after a deletion, and one that grants creations sent at
 * once past the limit, are caught with short counterexamples.
 * The health model starts from auto-disabled endpoints: a workspace that counts them toward
 * the limit, delivers to them, never delivers to a re-enabled one, or gives a re-enabled one
 * every event type whatever it subscribed to is caught. Each bug is
 * caught by the fixed scenarios alone too, with no sequence generated: whatever the seed.
 */
import { describe, expect, it } from 'vitest';
import {
  DISABLED_SUBSCRIPTIONS,
  ENDPOINT_HEALTH_SCENARIOS,
  ENDPOINT_LIMIT,
  ENDPOINT_SCENARIOS,
  runEndpointHealthModel,
  runEndpointModel,
  type EndpointTarget,
} from '../../src/suite/model/endpoint-model.js';

interface Bugs {
  /** Every DELETE request, of a deleted endpoint too, frees a slot. */
  countDeletions?: boolean;
  /** Endpoints created after any deletion never receive events. */
  deafAfterDeletion?: boolean;
  /** Disabled endpoints count toward the limit of 25 active. */
  disabledHoldSlots?: boolean;
  /** Disabled endpoints are delivered to. */
  deliverWhenDisabled?: boolean;
  /** A re-enabled endpoint reads active but is never delivered to. */
  silentAfterEnable?: boolean;
  /** A re-enabled endpoint comes back subscribed to every type. */
  everyTypeAfterEnable?: boolean;
  /** The limit is read, then the endpoint inserted a turn later: creations at once all pass. */
  checkThenInsert?: boolean;
}

interface MemoryEndpoint {
  deleted: boolean;
  disabled: boolean;
  deaf: boolean;
  events: readonly string[];
}

function memoryWorkspace(bugs: Bugs = {}, disabledAtStart: ReadonlyArray<readonly string[]> = []): EndpointTarget {
  const endpoints: MemoryEndpoint[] = disabledAtStart.map((events) => ({
    deleted: false,
    disabled: true,
    deaf: false,
    events,
  }));
  let deletions = 0;
  const holdsSlot = (e: { deleted: boolean; disabled: boolean }) =>
    !e.deleted && (!e.disabled || bugs.disabledHoldSlots === true);
  return {
    async createEndpoint(events) {
      const used = bugs.countDeletions ? endpoints.length - deletions : endpoints.filter(holdsSlot).length;
      if (used >= ENDPOINT_LIMIT) return { refused: { status: 409, code: 'endpoint_limit_reached' } };
      if (bugs.checkThenInsert) await new Promise((resolve) => setTimeout(resolve, 0));
      endpoints.push({
        deleted: false,
        disabled: false,
        deaf: bugs.deafAfterDeletion === true && deletions > 0,
        events,
      });
      return { created: endpoints.length - 1 };
    },
    async deleteEndpoint(index) {
      deletions += 1;
      if (endpoints[index]!.deleted) return { status: 404, code: 'endpoint_not_found' };
      endpoints[index]!.deleted = true;
      return { status: 204 };
    },
    async enableEndpoint(index) {
      endpoints[index]!.disabled = false;
      if (bugs.silentAfterEnable) endpoints[index]!.deaf = true;
      if (bugs.everyTypeAfterEnable) endpoints[index]!.events = ['*'];
      return { status: 204 };
    },
    async fireEvent(type, expected, silent) {
      const receives = (index: number) => {
        const endpoint = endpoints[index]!;
        const subscribed = endpoint.events.includes('*') || endpoint.events.includes(type);
        return (
          subscribed && !endpoint.deleted && !endpoint.deaf && (!endpoint.disabled || bugs.deliverWhenDisabled === true)
        );
      };
      return {
        missing: expected.filter((index) => !receives(index)),
        reachedSilent: silent.filter(receives),
        boundMs: 10_000,
      };
    },
  };
}

const budget = { sequences: 300, maxSteps: 15, seed: 7, timeLimitMs: 20_000, isFatal: () => false };

describe('the endpoint model', () => {
  it('passes a workspace that keeps the rules, over generated sequences', async () => {
    const result = await runEndpointModel({ ...budget, newTarget: async () => memoryWorkspace() });
    expect(result.counterexample).toBeUndefined();
    expect(result.sequences).toBe(300);
    expect(result.steps).toBeGreaterThan(1_000);
  });

  it('catches repeated deletions freeing slots, with a counterexample of at most 6 steps', async () => {
    const result = await runEndpointModel({
      ...budget,
      newTarget: async () => memoryWorkspace({ countDeletions: true }),
    });
    expect(result.counterexample?.violation).toMatch(/endpoint 26 was created with 25 active/);
    expect(result.counterexample!.steps.length).toBeLessThanOrEqual(6);
  });

  it('catches an active endpoint that an event never reaches, with a counterexample of at most 6 steps', async () => {
    const result = await runEndpointModel({
      ...budget,
      newTarget: async () => memoryWorkspace({ deafAfterDeletion: true }),
    });
    expect(result.counterexample?.violation).toMatch(/an event did not reach active endpoint/);
    expect(result.counterexample!.steps.length).toBeLessThanOrEqual(6);
  });

  it('catches creations at once granted past the free slots, with a counterexample of at most 6 steps', async () => {
    const result = await runEndpointModel({
      ...budget,
      newTarget: async () => memoryWorkspace({ checkThenInsert: true }),
    });
    expect(result.counterexample?.violation).toMatch(/endpoints created at once were granted with \d+ active/);
    expect(result.counterexample!.steps.length).toBeLessThanOrEqual(6);
  });

  it.each([
    ['repeated deletions freeing slots', { countDeletions: true }],
    ['an active endpoint that an event never reaches', { deafAfterDeletion: true }],
    ['creations at once granted past the free slots', { checkThenInsert: true }],
  ] as const)('catches %s with its fixed scenarios alone', async (_name, bugs) => {
    const scenariosOnly = { ...budget, sequences: ENDPOINT_SCENARIOS.length };
    expect(
      (await runEndpointModel({ ...scenariosOnly, newTarget: async () => memoryWorkspace() })).counterexample,
    ).toBeUndefined();
    const result = await runEndpointModel({ ...scenariosOnly, newTarget: async () => memoryWorkspace(bugs) });
    expect(result).toMatchObject({ scenarios: result.sequences, counterexample: { violation: expect.any(String) } });
  });
});

describe('the endpoint health model', () => {
  const health = (bugs: Bugs = {}) =>
    runEndpointHealthModel({
      ...budget,
      sequences: 60,
      newTarget: async () => memoryWorkspace(bugs, DISABLED_SUBSCRIPTIONS),
    });

  it('passes a workspace whose disabled endpoints hold no slot, get nothing, and get the types they subscribed to again once re-enabled', async () => {
    const result = await health();
    expect(result.counterexample).toBeUndefined();
    expect(result.sequences).toBe(60);
  });

  it.each([
    [
      'disabled endpoints holding active slots',
      { disabledHoldSlots: true },
      /an endpoint was refused .* with 23 active: the limit is 25 active/,
    ],
    ['deliveries to a disabled endpoint', { deliverWhenDisabled: true }, /an event reached disabled endpoint\(s\)/],
    [
      'a re-enabled endpoint that never receives',
      { silentAfterEnable: true },
      /an event did not reach active endpoint/,
    ],
    [
      'a re-enabled endpoint that receives every event type',
      { everyTypeAfterEnable: true },
      /reached endpoint\(s\) not subscribed to it \(\d+: workspace\.plan\.upgraded/,
    ],
  ] as const)('catches %s, with a counterexample of at most 6 steps', async (_name, bugs, violation) => {
    const result = await health(bugs);
    expect(result.counterexample?.violation).toMatch(violation);
    expect(result.counterexample!.steps.length).toBeLessThanOrEqual(6);
    // The scenarios alone, whatever the seed: 12 generated sequences once missed a re-enable followed by an event.
    const scenariosOnly = await runEndpointHealthModel({
      ...budget,
      sequences: ENDPOINT_HEALTH_SCENARIOS.length,
      newTarget: async () => memoryWorkspace(bugs, DISABLED_SUBSCRIPTIONS),
    });
    expect(scenariosOnly.counterexample?.violation).toMatch(violation);
  });

  it('catches a re-enable that leaves the endpoint disabled, with its fixed scenarios alone', async () => {
    const ignoringEnable = (): EndpointTarget => ({
      ...memoryWorkspace({}, DISABLED_SUBSCRIPTIONS),
      enableEndpoint: async () => ({ status: 204 }),
    });
    const result = await runEndpointHealthModel({
      ...budget,
      sequences: ENDPOINT_HEALTH_SCENARIOS.length,
      newTarget: async () => ignoringEnable(),
    });
    expect(result.counterexample?.violation).toMatch(/an event did not reach active endpoint\(s\) 1/);
  });
});
