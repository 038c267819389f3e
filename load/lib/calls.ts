/** Placing calls and finding agents: the requests every scenario shares. */
import { check } from 'k6';
import http from 'k6/http';
import type { RefinedResponse } from 'k6/http';
import { ID_PATTERNS, findFirstId } from '../../src/ids.ts';
import { ENDPOINT, REQUEST_TIMEOUT, RESERVED_TEST_NUMBER, baseUrl, bearer } from './target.ts';

/** What `http.expectedStatuses` returns (the type is not exported by @types/k6). */
type ExpectedStatusesCallback = ReturnType<typeof http.expectedStatuses>;

/**
 * The check every 2xx placement must pass (spec: the answer names the call). Its threshold
 * (thresholds.ts, `checks{check:…}`) is in every scenario that places calls.
 */
export const CALL_ID_CHECK = 'answer names a call_ id';

export interface PlaceCallOptions {
  /** Extra tags (e.g. `token: 'new'`); `endpoint` is always set. */
  tags?: Record<string, string>;
  metadata?: Record<string, string | number>;
  /** Which statuses count as expected (k6 `http_req_failed`); default 2xx. */
  responseCallback?: ExpectedStatusesCallback;
  /** On a new connection (Connection: close), so that a load balancer may pick another node. */
  fresh?: boolean;
}

export interface PlacedCall {
  res: RefinedResponse<'text'>;
  ok: boolean;
  /** The first `call_…` string anywhere in the answer (the body shape is not shown). */
  callId: string | undefined;
}

function json(res: RefinedResponse<'text'>): unknown {
  try {
    return typeof res.body === 'string' && res.body.length > 0 ? JSON.parse(res.body) : undefined;
  } catch {
    return undefined;
  }
}

/** `error.code` of an error answer (spec: tests rely on the code, never the message). */
export function errorCode(res: RefinedResponse<'text'>): string | undefined {
  const code = (json(res) as { error?: { code?: unknown } } | undefined)?.error?.code;
  return typeof code === 'string' ? code : undefined;
}

function headers(token: string, fresh: boolean | undefined): Record<string, string> {
  return { ...bearer(token), ...(fresh ? { Connection: 'close' } : {}) };
}

export function placeCall(token: string, agentId: string, options: PlaceCallOptions = {}): PlacedCall {
  const body = JSON.stringify({ agent_id: agentId, to: RESERVED_TEST_NUMBER, metadata: options.metadata ?? {} });
  const res = http.post(`${baseUrl()}/v1/voice/calls`, body, {
    headers: { ...headers(token, options.fresh), 'Content-Type': 'application/json' },
    timeout: REQUEST_TIMEOUT,
    tags: { ...options.tags, endpoint: ENDPOINT.placeCall, name: 'POST /v1/voice/calls' },
    ...(options.responseCallback ? { responseCallback: options.responseCallback } : {}),
  });
  const ok = res.status >= 200 && res.status < 300;
  const placed = { res, ok, callId: ok ? findFirstId(json(res), ID_PATTERNS.call) : undefined };
  // Judged on 2xx answers only: failed placements are the error-rate threshold's verdict.
  if (ok) check(placed, { [CALL_ID_CHECK]: (p) => p.callId !== undefined });
  return placed;
}

/** The first agent id of the workspace (GET /v1/voice/agents); for setup(). */
export function firstAgentId(token: string): string {
  const res = http.get(`${baseUrl()}/v1/voice/agents`, {
    headers: bearer(token),
    timeout: REQUEST_TIMEOUT,
    tags: { endpoint: ENDPOINT.listAgents, name: 'GET /v1/voice/agents' },
  });
  const agentId = res.status === 200 ? findFirstId(json(res), ID_PATTERNS.agent) : undefined;
  if (!agentId) throw new Error(`GET /v1/voice/agents answered ${res.status} without an agt_ id`);
  return agentId;
}

export interface WhoamiAnswer {
  status: number;
  code: string | undefined;
}

export function whoami(token: string, tags: Record<string, string> = {}, fresh = false): WhoamiAnswer {
  const res = http.get(`${baseUrl()}/v1/whoami`, {
    headers: headers(token, fresh),
    timeout: REQUEST_TIMEOUT,
    tags: { ...tags, endpoint: ENDPOINT.whoami, name: 'GET /v1/whoami' },
    // 401 is an answer this scenario waits for, not a failed request.
    responseCallback: http.expectedStatuses({ min: 200, max: 299 }, 401),
  });
  return { status: res.status, code: errorCode(res) };
}
