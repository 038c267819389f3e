import { describe, expect, test } from 'vitest';
import type { HttpResponse } from '../../src/http/client.js';
import { pollUntil } from '../../src/clock/wait.js';
import { matrixProblem, operations } from '../../suites/session/scope-matrix.js';
import { wholeSecondsAhead } from '../../src/clock/date-offset.js';
import { refusalProblem } from '../../suites/session/verdicts.js';

const response = (status: number, json?: unknown, headers: Record<string, string> = {}): HttpResponse => ({
  status,
  headers,
  text: json === undefined ? '' : JSON.stringify(json),
  json,
  durationMs: 1,
  sentAtMs: 0,
});
const authError = (status: number, code: string) =>
  response(status, { error: { code, message: 'm', request_id: 'req_abc123' } });

describe('session suite helpers', () => {
  test('a 401 invalid_token with the error shape is a refusal', () => {
    expect(refusalProblem(authError(401, 'invalid_token'), 'x')).toBeUndefined();
  });

  test.each([
    ['a 200', response(200, {})],
    ['a 403', authError(403, 'invalid_token')],
    ['another code', authError(401, 'token_expired')],
    ['no request id', response(401, { error: { code: 'invalid_token', message: 'm' } })],
  ])('%s is not a refusal', (_name, res) => {
    expect(refusalProblem(res, 'forged')).toMatch(/^forged: /);
  });

  const [whoami, agents, calls, transcript] = operations('agt_1', 'call_1');

  test('the matrix has the four endpoints with their scopes', () => {
    expect([whoami, agents, calls, transcript].map((op) => op?.scope)).toEqual([
      undefined,
      'voice:read',
      'voice:write',
      'voice:read',
    ]);
    expect(operations('agt_1', undefined)).toHaveLength(3);
  });

  test('an allowed endpoint needs a 2xx, whoami a 200', () => {
    expect(matrixProblem(agents!, ['voice:read'], response(200, []))).toBeUndefined();
    expect(matrixProblem(calls!, ['voice:write'], response(201, {}))).toBeUndefined();
    expect(matrixProblem(whoami!, [], response(204))).toMatch(/expected 200/);
    expect(matrixProblem(agents!, ['voice:read'], authError(403, 'missing_scope'))).toMatch(/expected a 2xx/);
  });

  test('a refused endpoint needs any 4xx with missing_scope and the shape', () => {
    expect(matrixProblem(agents!, ['voice:write'], authError(403, 'missing_scope'))).toBeUndefined();
    expect(matrixProblem(agents!, ['voice:write'], authError(401, 'missing_scope'))).toBeUndefined();
    expect(matrixProblem(agents!, ['voice:write'], response(200, []))).toMatch(/missing_scope/);
    expect(matrixProblem(agents!, ['voice:write'], authError(403, 'forbidden'))).toMatch(/missing_scope/);
  });

  test('the target clock skew comes from its Date header', () => {
    const now = Date.parse('2026-11-22T15:00:10.500Z');
    expect(wholeSecondsAhead('Sun, 22 Nov 2026 15:00:07 GMT', now)).toBe(-3);
    expect(wholeSecondsAhead('Sun, 22 Nov 2026 15:00:10 GMT', now)).toBe(0);
    expect(wholeSecondsAhead('Sun, 22 Nov 2026 15:00:14 GMT', now, 200)).toBe(4);
    expect(wholeSecondsAhead(undefined, now)).toBe(0);
    expect(wholeSecondsAhead('garbage', now)).toBe(0);
  });

  test('polling stops at the first success or at the time limit', async () => {
    let n = 0;
    const ok = await pollUntil(
      async () => ++n,
      (value) => value === 3,
      { timeoutMs: 1_000, intervalMs: 5 },
    );
    expect(ok).toMatchObject({ ok: true, last: 3, attempts: 3 });
    const late = await pollUntil(
      async () => 0,
      (value) => value === 1,
      { timeoutMs: 30, intervalMs: 10 },
    );
    expect(late.ok).toBe(false);
    expect(late.elapsedMs).toBeLessThan(200);
  });
});
