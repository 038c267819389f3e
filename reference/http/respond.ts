import type { ServerResponse } from 'node:http';
import type { FaultSet } from '../faults.js';
import type { Personality } from '../personality.js';

// Writing responses: JSON bodies with an explicit length, the request id on every
// response, and the public error shape {"error":{code,message,request_id}}.
//
// The request id is kept on the response and written with the other headers in one
// writeHead: a header set ahead of writeHead sends node down its slower path, which merges
// every header through setHeader. With ids made in bulk and the bearer shape tested first,
// this made a call placement markedly cheaper in the placement bench (docs/architecture.md,
// "The reference's hot path").

export interface RequestContext {
  requestId: string;
  /** Faults switched on by the request's path prefix. */
  faults: FaultSet;
  /** The path prefix carrying those faults ('' when none). */
  faultPrefix: string;
  /** Index of the node serving this connection. */
  node: number;
  personality: Personality;
  /** Fault revocation-keepalive-stale: what this request's connection remembers, by Authorization header. */
  connectionMemory?: Map<string, unknown>;
}

/** Fault request-id-reused: the one id every error carries. */
export const REUSED_REQUEST_ID = 'req_000000000000000000000';

const REQUEST_ID = Symbol('request id');
type WithRequestId = ServerResponse & { [REQUEST_ID]?: string };

/** The id every response to this request carries in X-Request-Id. */
export function setRequestId(res: ServerResponse, requestId: string): void {
  (res as WithRequestId)[REQUEST_ID] = requestId;
}

/** The response's headers as writeHead takes them, X-Request-Id first; `extra` after. */
function headersOf(res: ServerResponse, headers: readonly string[], extra?: Record<string, string>): string[] {
  const requestId = (res as WithRequestId)[REQUEST_ID];
  const all = requestId === undefined ? [...headers] : ['X-Request-Id', requestId, ...headers];
  if (extra) for (const [name, value] of Object.entries(extra)) all.push(name, value);
  return all;
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  extraHeaders?: Record<string, string>,
): void {
  const text = JSON.stringify(body);
  res.writeHead(
    status,
    headersOf(
      res,
      ['Content-Type', 'application/json', 'Content-Length', String(Buffer.byteLength(text))],
      extraHeaders,
    ),
  );
  res.end(text);
}

export function sendEmpty(res: ServerResponse, status: number, extraHeaders?: Record<string, string>): void {
  res.writeHead(status, headersOf(res, [], extraHeaders)).end();
}

/** An error of the public API; `faults` are the request's joined with its workspace's when known. */
export function sendPublicError(
  res: ServerResponse,
  ctx: RequestContext,
  faults: FaultSet,
  status: number,
  code: string,
  message: string,
  extraHeaders?: Record<string, string>,
): void {
  if (ctx.personality.problemDetails && !AUTHENTICATION_CODES.has(code)) {
    return sendProblem(res, status, code, message, extraHeaders);
  }
  // Fault request-id-from-client-header: a tracing middleware takes the caller's X-Request-Id as the request's id.
  const given = faults.has('request-id-from-client-header') ? res.req?.headers['x-request-id'] : undefined;
  const requestId = faults.has('request-id-reused')
    ? REUSED_REQUEST_ID
    : typeof given === 'string' && given !== ''
      ? given
      : ctx.requestId;
  if (requestId !== ctx.requestId) setRequestId(res, requestId);
  const error: Record<string, string> = { code, message };
  // Fault invalid-token-no-message: the token guard's error object is built from the code alone.
  if (code === 'invalid_token' && faults.has('invalid-token-no-message')) delete error.message;
  // Fault missing-scope-no-request-id: the scope guard's error object is built without the request id.
  // Fault workspace-disabled-no-request-id: the suspension gate's error object is built without the request id.
  const scopeGuardOwnBody =
    (code === 'missing_scope' && faults.has('missing-scope-no-request-id')) ||
    (code === 'workspace_disabled' && faults.has('workspace-disabled-no-request-id'));
  // Fault request-id-no-prefix: the error body carries the request id's bare column value.
  if (!faults.has('no-request-id') && !scopeGuardOwnBody)
    error.request_id = faults.has('request-id-no-prefix') ? requestId.replace(/^req_/, '') : requestId;
  // Fault missing-scope-errors-array: the scope guard answers its own JSON:API-style body.
  // Fault request-id-beside-error: a logging middleware adds the request id at the body's root, beside the error object.
  const besideError = faults.has('request-id-beside-error') && error.request_id !== undefined;
  const requestIdAtRoot = besideError ? error.request_id : undefined;
  if (besideError) delete error.request_id;
  const text = JSON.stringify(
    code === 'missing_scope' && faults.has('missing-scope-errors-array')
      ? { errors: [error] }
      : requestIdAtRoot !== undefined
        ? { error, request_id: requestIdAtRoot }
        : { error },
  );
  const contentType = faults.has('error-text-plain') ? 'text/plain' : 'application/json';
  res.writeHead(
    status,
    headersOf(res, ['Content-Type', contentType, 'Content-Length', String(Buffer.byteLength(text))], extraHeaders),
  );
  res.end(text);
}

/** The error codes of the spec's authentication failures: their body shape is the spec's in every personality. */
const AUTHENTICATION_CODES = new Set([
  'invalid_token',
  'token_revoked',
  'malformed_token',
  'missing_scope',
  'insufficient_scope',
  'workspace_disabled',
]);

const PROBLEM_TITLES: Record<string, string> = {
  malformed_json: 'Malformed JSON',
  invalid_body: 'Invalid request body',
  unsupported_media_type: 'Unsupported media type',
  payload_too_large: 'Payload too large',
  validation_failed: 'Validation failed',
  agent_not_found: 'Agent not found',
  call_not_found: 'Call not found',
  not_found: 'Not found',
  method_not_allowed: 'Method not allowed',
  internal_error: 'Internal error',
  rate_limited: 'Too many requests',
};

/** Alternate personality: a non-authentication error as RFC 9457 problem details. */
function sendProblem(
  res: ServerResponse,
  status: number,
  code: string,
  detail: string,
  extraHeaders?: Record<string, string>,
): void {
  const text = JSON.stringify({
    type: `https://reference.invalid/problems/${code}`,
    title: PROBLEM_TITLES[code] ?? code,
    status,
    detail,
  });
  res.writeHead(
    status,
    headersOf(
      res,
      ['Content-Type', 'application/problem+json', 'Content-Length', String(Buffer.byteLength(text))],
      extraHeaders,
    ),
  );
  res.end(text);
}

/** An error of the control interface: {"error":{code,message}} per the contract. */
export function sendControlError(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  extraHeaders?: Record<string, string>,
): void {
  sendJson(res, status, { error: { code, message } }, extraHeaders);
}
