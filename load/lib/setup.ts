/** setup() shared by the call scenarios: which token and agent to use, and the safety refusal. */
import { env, required } from './env.ts';
import { firstAgentId, placeCall } from './calls.ts';
import { refuseProduction } from './target.ts';

/** The bearer token for placing calls: LOAD_TOKEN (made by svc-harness load) or SVC_TOKEN. */
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

/**
 * One iteration of the call-placement scenarios (calls, calls-ramp): place a call. Its
 * verdicts are thresholds: the error rate on the status, CALL_ID_CHECK on a 2xx answer.
 */
export function placeCallIteration(data: CallsSetup): void {
  placeCall(callsToken(), data.agentId);
}
