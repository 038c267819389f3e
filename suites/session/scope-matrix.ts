/**
 * The scope matrix of the spec's endpoints, applied to session tokens: "a permission
 * granted applies under either scheme", so a member's token may do exactly what a
 * bearer token with the member's scopes may do (Authentication; Endpoints).
 */
import { RESERVED_TEST_NUMBER, STATUS_ONLY } from '../../src/api/service.js';
import type { Scope } from '../../src/control/types.js';
import type { HttpResponse } from '../../src/http/client.js';
import { findFirstId, ID_PATTERNS } from '../../src/ids.js';
import {
  CheckFailure,
  describeResponse,
  expectAuthError,
  is2xx,
  type CheckContext,
  type TestWorkspace,
} from '../../src/suite/index.js';
import { REQUEST_TIMEOUT_MS } from './verdicts.js';

export interface Operation {
  name: string;
  /** The scope the endpoint requires; undefined: any accepted credential. */
  scope?: Scope;
  send(t: CheckContext, token: string): Promise<HttpResponse>;
}

const options = { timeoutMs: REQUEST_TIMEOUT_MS, ...STATUS_ONLY };

export function operations(agentId: string, callId: string | undefined): Operation[] {
  const ops: Operation[] = [
    { name: 'GET /v1/whoami', send: (t, token) => t.api.whoami(token, options) },
    { name: 'GET /v1/voice/agents', scope: 'voice:read', send: (t, token) => t.api.listAgents(token, options) },
    {
      name: 'POST /v1/voice/calls',
      scope: 'voice:write',
      send: (t, token) => t.api.placeCall(token, { agent_id: agentId, to: RESERVED_TEST_NUMBER }, options),
    },
  ];
  if (callId)
    ops.push({
      name: 'read transcript',
      scope: 'voice:read',
      send: (t, token) => t.api.transcript(token, callId, options),
    });
  return ops;
}

/** The problem with one answer for a credential holding `held`, or undefined. */
export function matrixProblem(op: Operation, held: readonly Scope[], res: HttpResponse): string | undefined {
  const allowed = op.scope === undefined || held.includes(op.scope);
  const what = `${op.name} with [${held.join(' ')}]`;
  if (allowed) {
    if (op.scope === undefined ? res.status === 200 : is2xx(res.status)) return undefined;
    return `${what}: expected ${op.scope === undefined ? '200' : 'a 2xx'}, got ${describeResponse(res)}`;
  }
  try {
    // The status of missing_scope is not shown: any 4xx with the code and the shape.
    expectAuthError(res, 'missing_scope', what);
    return undefined;
  } catch (error) {
    if (error instanceof CheckFailure) return error.message;
    throw error;
  }
}

/**
 * A call placed with a bearer token of every scope and moved to completed, so its
 * transcript exists; undefined when the target does not get that far (the scopes
 * suite judges that), and the transcript is then left out of the matrix.
 */
export async function completedCallId(t: CheckContext, workspace: TestWorkspace): Promise<string | undefined> {
  const bearer = await workspace.createToken(`certify ${t.spec.id} setup`);
  const placed = await t.api.placeCall(
    bearer.token,
    { agent_id: workspace.agentId, to: RESERVED_TEST_NUMBER },
    options,
  );
  const callId = findFirstId(placed.json, ID_PATTERNS.call);
  if (!is2xx(placed.status) || !callId) return undefined;
  await workspace.progressCall(callId, { state: 'started' });
  await workspace.progressCall(callId, { state: 'completed', outcome: 'answered', durationSeconds: 42 });
  const read = await t.api.transcript(bearer.token, callId, options);
  return is2xx(read.status) ? callId : undefined;
}
