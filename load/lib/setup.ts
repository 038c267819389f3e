/** setup() shared by the call scenarios: which token and agent to use, and the safety refusal. */
import { env, required } from './env.ts';
import { firstAgentId } from './calls.ts';
import { refuseProduction } from './target.ts';

/** The bearer token for placing calls: LOAD_TOKEN (made by scripts/load.ts) or SVC_TOKEN. */
export function callsToken(): string {
  return env('LOAD_TOKEN') ?? required('SVC_TOKEN');
}

/** Setup data holds ids only: it is written into the summary, so never a token. */
export interface CallsSetup {
  agentId: string;
}

export function callsSetup(): CallsSetup {
  const token = callsToken();
  refuseProduction([token]);
  return { agentId: env('LOAD_AGENT_ID') ?? firstAgentId(token) };
}
