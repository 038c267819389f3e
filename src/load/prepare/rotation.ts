/** rotation: a workspace with two tokens (the old one is revoked by k6 through the control interface). */
import { NEEDS_CONTROL, skipped, type Prepared, type RunContext, type ScenarioPlan } from '../context.js';
import { prepareWorkspace } from './workspace.js';

async function prepareRotation(ctx: RunContext, scenario: string): Promise<Prepared> {
  if (!ctx.control) return skipped(`rotation ${NEEDS_CONTROL} to create and revoke tokens`);
  const w = await prepareWorkspace(ctx, scenario, 2);
  return {
    env: {
      LOAD_OLD_TOKEN: w.tokens[0]!.token,
      LOAD_OLD_TOKEN_ID: w.tokens[0]!.id,
      LOAD_NEW_TOKEN: w.tokens[1]!.token,
      LOAD_AGENT_ID: w.agentId,
      LOAD_WORKSPACE_ID: w.ws,
      SVC_CONTROL_URL: ctx.target.controlUrl!,
      SVC_CONTROL_TOKEN: ctx.target.controlToken!,
    },
    cleanup: w.cleanup,
  };
}

export const rotation: ScenarioPlan = {
  profiles: { smoke: { LOAD_RATE: '10', LOAD_DURATION: '8s' }, default: { LOAD_RATE: '20', LOAD_DURATION: '16s' } },
  prepare: prepareRotation,
};
