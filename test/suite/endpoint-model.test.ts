/**
 * The endpoint model (src/suite/model/endpoint-model.ts) against in-memory workspaces: one
 * that keeps the rules passes; one whose repeated deletions free slots, and one that stops
 * delivering to an endpoint created after a deletion, are caught with short counterexamples.
 */
import { describe, expect, it } from 'vitest';
import { ENDPOINT_LIMIT, runEndpointModel, type EndpointTarget } from '../../src/suite/model/endpoint-model.js';

interface Bugs {
  /** Every DELETE request, of a deleted endpoint too, frees a slot. */
  countDeletions?: boolean;
  /** Endpoints created after any deletion never receive events. */
  deafAfterDeletion?: boolean;
}

function memoryWorkspace(bugs: Bugs = {}): EndpointTarget {
  const endpoints: Array<{ deleted: boolean; deaf: boolean }> = [];
  let deletions = 0;
  const active = () => endpoints.filter((e) => !e.deleted).length;
  return {
    async createEndpoint() {
      const used = bugs.countDeletions ? endpoints.length - deletions : active();
      if (used >= ENDPOINT_LIMIT) return { refused: { status: 409, code: 'endpoint_limit_reached' } };
      endpoints.push({ deleted: false, deaf: bugs.deafAfterDeletion === true && deletions > 0 });
      return { created: endpoints.length - 1 };
    },
    async deleteEndpoint(index) {
      deletions += 1;
      if (endpoints[index]!.deleted) return { status: 404, code: 'endpoint_not_found' };
      endpoints[index]!.deleted = true;
      return { status: 204 };
    },
    async fireEvent(expected) {
      return { missing: expected.filter((index) => endpoints[index]!.deleted || endpoints[index]!.deaf), boundMs: 10_000 };
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
    const result = await runEndpointModel({ ...budget, newTarget: async () => memoryWorkspace({ countDeletions: true }) });
    expect(result.counterexample?.violation).toMatch(/endpoint 26 was created with 25 active/);
    expect(result.counterexample!.steps.length).toBeLessThanOrEqual(6);
  });

  it('catches an active endpoint that an event never reaches, with a counterexample of at most 6 steps', async () => {
    const result = await runEndpointModel({ ...budget, newTarget: async () => memoryWorkspace({ deafAfterDeletion: true }) });
    expect(result.counterexample?.violation).toMatch(/an event did not reach active endpoint/);
    expect(result.counterexample!.steps.length).toBeLessThanOrEqual(6);
  });
});
