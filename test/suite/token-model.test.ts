/**
 * The token model (src/suite/model/token-model.ts) against in-memory workspaces: one that
 * keeps the rules passes; one that frees a slot per revocation request is caught with a
 * short counterexample; an operation the target cannot do ends the run as thrown, and a
 * target that cannot even be set up never passes.
 */
import { describe, expect, it } from 'vitest';
import { runTokenModel, TOKEN_SCENARIOS, type Answer, type TokenTarget } from '../../src/suite/model/token-model.js';

class CannotDoIt extends Error {}

/**
 * A workspace in memory; `countRevocations` is the bug: every revocation request frees a slot.
 * `checkThenInsert`: the limit is read, then the token inserted a tick later, so creations at
 * once all pass the read.
 */
function memoryWorkspace(countRevocations = false, reinstateWidens = false, checkThenInsert = false): TokenTarget {
  const tokens: Array<{ revoked: boolean; narrowed: boolean }> = [];
  let suspended = false;
  let freedByRequests = 0;
  let revocationRequests = 0;
  const active = () => tokens.filter((token) => !token.revoked).length;
  const ok: Answer = { status: 204 };
  return {
    async createToken(narrowed) {
      const used = countRevocations ? tokens.length - freedByRequests : active();
      if (used >= 2) return { refused: { status: 409, code: 'token_limit_reached' } };
      if (checkThenInsert) await new Promise((resolve) => setTimeout(resolve, 1));
      tokens.push({ revoked: false, narrowed });
      return { created: tokens.length - 1 };
    },
    async revokeToken(index) {
      revocationRequests += 1;
      freedByRequests = revocationRequests;
      tokens[index]!.revoked = true;
      return ok;
    },
    async whoami(index) {
      if (suspended) return { status: 403, code: 'workspace_disabled' };
      return tokens[index]!.revoked ? { status: 401, code: 'invalid_token' } : { status: 200 };
    },
    async listAgents(index) {
      if (suspended) return { status: 403, code: 'workspace_disabled' };
      if (tokens[index]!.revoked) return { status: 401, code: 'invalid_token' };
      return tokens[index]!.narrowed ? { status: 403, code: 'missing_scope' } : { status: 200 };
    },
    async suspend() {
      suspended = true;
      return ok;
    },
    async reinstate() {
      suspended = false;
      if (reinstateWidens) for (const token of tokens) token.narrowed = false;
      return ok;
    },
  };
}

const budget = {
  sequences: 300,
  maxSteps: 30,
  seed: 42,
  timeLimitMs: 20_000,
  isFatal: (error: unknown) => error instanceof CannotDoIt,
};

describe('the token model', () => {
  it('passes a workspace that keeps the rules, over generated sequences', async () => {
    const result = await runTokenModel({ ...budget, newTarget: async () => memoryWorkspace() });
    expect(result.counterexample).toBeUndefined();
    expect(result.sequences).toBe(300);
    expect(result.steps).toBeGreaterThan(1_000);
  });

  it('catches a workspace that frees a slot per revocation request, with a counterexample of at most 6 steps', async () => {
    const result = await runTokenModel({ ...budget, newTarget: async () => memoryWorkspace(true) });
    expect(result.counterexample?.violation).toMatch(/a third active token was created/);
    expect(result.counterexample!.steps.length).toBeGreaterThan(0);
    expect(result.counterexample!.steps.length).toBeLessThanOrEqual(6);
  });

  it('catches a limit read before a round trip and written after it, by creations at once, with a counterexample of at most 6 steps', async () => {
    const result = await runTokenModel({ ...budget, newTarget: async () => memoryWorkspace(false, false, true) });
    expect(result.counterexample?.violation).toMatch(
      /tokens created at once were granted with \d active: a workspace holds at most two/,
    );
    expect(result.counterexample!.steps.at(-1)!.operation).toMatch(/^create \d tokens at once/);
    expect(result.counterexample!.steps.length).toBeLessThanOrEqual(6);
  });

  it('catches a reinstatement that widens narrowed tokens, with a counterexample of at most 6 steps', async () => {
    const result = await runTokenModel({ ...budget, newTarget: async () => memoryWorkspace(false, true) });
    expect(result.counterexample?.violation).toMatch(
      /list agents with token \d \(active, narrowed to voice:write\) answered 200, expected 4xx missing_scope/,
    );
    expect(result.counterexample!.steps.length).toBeLessThanOrEqual(6);
  });

  it.each([
    ['a slot freed per revocation request', true, false, /a third active token was created/],
    ['a reinstatement that widens narrowed tokens', false, true, /answered 200, expected 4xx missing_scope/],
  ] as const)(
    'catches %s with its fixed scenarios alone, whatever the seed',
    async (_name, countRevocations, reinstateWidens, violation) => {
      const scenariosOnly = { ...budget, sequences: TOKEN_SCENARIOS.length };
      expect(
        (await runTokenModel({ ...scenariosOnly, newTarget: async () => memoryWorkspace() })).counterexample,
      ).toBeUndefined();
      const result = await runTokenModel({
        ...scenariosOnly,
        newTarget: async () => memoryWorkspace(countRevocations, reinstateWidens),
      });
      expect(result.counterexample?.violation).toMatch(violation);
      expect(result.scenarios).toBe(result.sequences);
    },
  );

  it('rethrows what the target cannot do, rather than reporting it as a violation', async () => {
    const cannot = (): TokenTarget => ({
      ...memoryWorkspace(),
      suspend: async () => {
        throw new CannotDoIt('no suspension here');
      },
    });
    await expect(runTokenModel({ ...budget, newTarget: async () => cannot() })).rejects.toThrow('no suspension here');
  });

  it('a target that cannot be set up is a failure, never a pass', async () => {
    const result = await runTokenModel({
      ...budget,
      newTarget: async () => {
        throw new Error('no workspace');
      },
    });
    expect(result.counterexample?.violation).toMatch(/no workspace/);
  });
});
