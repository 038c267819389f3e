/**
 * calls and calls-ramp: a given token (LOAD_TOKEN, else SVC_TOKEN without a control
 * interface), or a workspace with one token made for the scenario.
 */
import { nothingToUndo, skipped, type Prepared, type RunContext, type ScenarioPlan } from '../context.js';
import { prepareWorkspace } from './workspace.js';

async function prepareCalls(ctx: RunContext, scenario: string): Promise<Prepared> {
  if (ctx.load.LOAD_TOKEN || !ctx.control) {
    const token = ctx.load.LOAD_TOKEN ?? ctx.target.svcToken;
    if (!token) return skipped(`no token: set SVC_TOKEN (or LOAD_TOKEN), or give a control interface`);
    return { env: { LOAD_TOKEN: token }, cleanup: nothingToUndo };
  }
  const w = await prepareWorkspace(ctx, scenario, 1);
  return {
    env: { LOAD_TOKEN: w.tokens[0]!.token, LOAD_AGENT_ID: w.agentId, LOAD_WORKSPACE_ID: w.ws },
    cleanup: w.cleanup,
  };
}

export const calls: ScenarioPlan = {
  profiles: { smoke: { LOAD_RATE: '20', LOAD_DURATION: '5s' }, default: { LOAD_RATE: '50', LOAD_DURATION: '20s' } },
  prepare: prepareCalls,
};

export const callsRamp: ScenarioPlan = {
  profiles: { smoke: { LOAD_RATE: '20', LOAD_DURATION: '6s' }, default: { LOAD_RATE: '50', LOAD_DURATION: '24s' } },
  prepare: prepareCalls,
};
