/**
 * Assertions shared by the suites. Each throws a CheckFailure whose message is one line
 * that says what was expected and what the target answered (masked, truncated).
 */
import type { HttpResponse } from '../http/client.js';
import type { Judged } from '../http/tally.js';
import { ID_PATTERNS } from '../ids.js';
import { mask } from '../secrets/mask.js';
import { CheckFailure } from '../errors.js';

const MAX_BODY_IN_MESSAGE = 200;

export function describeResponse(res: HttpResponse): string {
  const body = res.text.length > MAX_BODY_IN_MESSAGE ? `${res.text.slice(0, MAX_BODY_IN_MESSAGE)}…` : res.text;
  return mask(`${res.status} ${body.replace(/\s+/g, ' ')}`.trim());
}

/** Fails the check; `judged` is the answer that decided it (an HttpResponse), shown first in its evidence. */
export function failWith(message: string, judged?: Judged): never {
  throw new CheckFailure(mask(message), judged?.exchange);
}

/** Fails the check with `message` unless `condition`; `judged`: as for failWith. */
export function assert(condition: unknown, message: string, judged?: Judged): asserts condition {
  if (!condition) failWith(message, judged);
}

export const is2xx = (status: number): boolean => status >= 200 && status < 300;
export const is4xx = (status: number): boolean => status >= 400 && status < 500;

export function expect2xx(res: HttpResponse, what: string): void {
  assert(is2xx(res.status), `${what}: expected a 2xx, got ${describeResponse(res)}`, res);
}

export function expect4xx(res: HttpResponse, what: string): void {
  assert(is4xx(res.status), `${what}: expected a 4xx, got ${describeResponse(res)}`, res);
}

export interface AuthErrorBody {
  code: string;
  message: string;
  request_id: string;
}

/** Reads the spec's error shape, or says which part of it is missing. */
export function errorShapeProblem(res: HttpResponse): string | undefined {
  if (res.json === undefined) return 'body is not JSON';
  const error = (res.json as { error?: unknown }).error;
  if (!error || typeof error !== 'object') return 'no error object';
  const { code, message, request_id: requestId } = error as Record<string, unknown>;
  if (typeof code !== 'string') return 'error.code is not a string';
  if (typeof message !== 'string') return 'error.message is not a string';
  if (typeof requestId !== 'string') return 'error.request_id is not a string';
  if (!ID_PATTERNS.request.test(requestId))
    return `error.request_id ${JSON.stringify(requestId)} does not match req_<id>`;
  return undefined;
}

export function expectErrorShape(res: HttpResponse, what: string): AuthErrorBody {
  const problem = errorShapeProblem(res);
  assert(
    problem === undefined,
    `${what}: error body not of the specified shape (${problem}): ${describeResponse(res)}`,
    res,
  );
  return (res.json as { error: AuthErrorBody }).error;
}

/**
 * An authentication error: the code, the shape, and the status when the spec gives
 * one (invalid_token: 401); otherwise any 4xx.
 */
export function expectAuthError(res: HttpResponse, code: string, what: string, status?: number): AuthErrorBody {
  if (status !== undefined)
    assert(res.status === status, `${what}: expected ${status} ${code}, got ${describeResponse(res)}`, res);
  else assert(is4xx(res.status), `${what}: expected a 4xx ${code}, got ${describeResponse(res)}`, res);
  const error = expectErrorShape(res, what);
  assert(error.code === code, `${what}: expected error.code ${code}, got ${describeResponse(res)}`, res);
  return error;
}

export const expectInvalidToken = (res: HttpResponse, what: string): AuthErrorBody =>
  expectAuthError(res, 'invalid_token', what, 401);

/**
 * An authentication failure whose status and code the spec does not name (a request with
 * no credential at all): "Authentication failures return a JSON body of this shape", so
 * the shape is required; any 4xx and any code are accepted.
 */
export function expectAuthFailure(res: HttpResponse, what: string): AuthErrorBody {
  assert(is4xx(res.status), `${what}: expected a 4xx authentication error, got ${describeResponse(res)}`, res);
  return expectErrorShape(res, what);
}
