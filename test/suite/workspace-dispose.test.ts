/**
 * Removing what a check created (src/suite/workspace.ts, src/suite/context.ts): every removal is
 * attempted whatever fails, endpoints before tokens before the workspace, and removals of one kind
 * go out together, so that hundreds of model workspaces do not cost a round trip each in a row.
 */
import { describe, expect, it } from 'vitest';
import type { ControlAdapter } from '../../src/control/adapter.js';
import { getCheck } from '../../src/catalog/checks.js';
import { CheckContext } from '../../src/suite/context.js';
import type { Harness } from '../../src/suite/harness.js';
import { REMOVALS_AT_ONCE } from '../../src/suite/workspace.js';

/** A control adapter whose removals take a few ms, recording their order and how many overlap. */
function slowControl() {
  const log: string[] = [];
  let inFlight = 0;
  let most = 0;
  let workspaces = 0;
  const removal =
    (what: string, fails = false) =>
    async () => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 3));
      inFlight -= 1;
      log.push(what);
      if (fails) throw new Error(`${what} refused`);
    };
  const control = {
    createWorkspace: async () => ({ workspaceId: `ws_${++workspaces}`, agentIds: ['agt_1'] }),
    createEndpoint: async (ws: string, _url: string) => ({
      endpointId: `${ws}-we_${log.length}-${Math.random()}`,
      secret: 'whsec_fake',
      state: 'active',
    }),
    createToken: async (ws: string) => ({
      tokenId: `${ws}-tok`,
      token: `svc_test_FakeDisposeToken${ws}`,
      label: 'x',
      scopes: [],
    }),
    deleteEndpoint: (ws: string) => removal(`endpoint ${ws}`, true)(),
    revokeToken: (ws: string) => removal(`token ${ws}`)(),
    deleteWorkspace: (ws: string) => removal(`workspace ${ws}`)(),
  } as unknown as ControlAdapter;
  return { control, log, most: () => most };
}

describe('a check disposing of its workspaces', () => {
  it('attempts every removal in order of kind, several at once, even when some fail', async () => {
    const { control, log, most } = slowControl();
    const t = new CheckContext(getCheck('MODEL-ENDPOINTS'), { control, run: {} } as unknown as Harness);
    for (let i = 0; i < 12; i++) {
      const workspace = await t.workspace();
      for (let e = 0; e < 3; e++) await workspace.createEndpoint('https://127.0.0.1/hook');
      await workspace.createToken('certify');
    }
    await t.dispose();
    expect(log.filter((line) => line.startsWith('endpoint'))).toHaveLength(36);
    expect(log.filter((line) => line.startsWith('token'))).toHaveLength(12);
    expect(log.filter((line) => line.startsWith('workspace'))).toHaveLength(12);
    for (let i = 1; i <= 12; i++) {
      const mine = log.filter((line) => line.endsWith(` ws_${i}`));
      expect(mine.at(-1)).toBe(`workspace ws_${i}`);
      expect(mine.lastIndexOf(`endpoint ws_${i}`)).toBeLessThan(mine.indexOf(`token ws_${i}`));
    }
    expect(most()).toBeGreaterThan(1);
    expect(most()).toBeLessThanOrEqual(REMOVALS_AT_ONCE * REMOVALS_AT_ONCE);
  });
});
