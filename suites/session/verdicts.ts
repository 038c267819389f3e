/**
 * What the session checks ask of an answer: accepted (whoami 200), or refused as the
 * contract says (401, error.code invalid_token, the error shape). Refusal cases are
 * judged all together, so a failure names every forged variant that got in.
 */
import type { HttpResponse } from '../../src/http/client.js';
import {
  CheckFailure,
  describeResponse,
  expectAuthError,
  expectInvalidToken,
  type CheckContext,
} from '../../src/suite/index.js';

export const REQUEST_TIMEOUT_MS = 5_000;

export function whoami(t: CheckContext, token: string): Promise<HttpResponse> {
  return t.api.whoami(token, { timeoutMs: REQUEST_TIMEOUT_MS });
}

/** Fails the check unless whoami answers 200. */
export async function expectAccepted(t: CheckContext, token: string, what: string): Promise<void> {
  const res = await whoami(t, token);
  if (res.status !== 200) t.fail(`${what}: expected whoami 200, got ${describeResponse(res)}`, res);
}

/**
 * The control half of a refusal check: the unforged token of the same setup must get
 * in, otherwise every refusal below would prove nothing.
 */
export async function expectControlAccepted(
  t: CheckContext,
  token: string,
  idp?: { jwksFetchCount: number },
): Promise<HttpResponse> {
  const res = await whoami(t, token);
  if (res.status !== 200) {
    // The usual cause on a new target: it cannot reach our loopback JWKS.
    const fetched = idp ? ` (the target fetched the JWKS ${idp.jwksFetchCount} times)` : '';
    t.fail(
      `control: a valid session token of this setup got ${describeResponse(res)} instead of 200${fetched}, so no refusal can be judged`,
      res,
    );
  }
  return res;
}

/** The problem with one answer to a credential that must be refused, or undefined. */
export function refusalProblem(res: HttpResponse, what: string): string | undefined {
  return problemOf(() => expectInvalidToken(res, what));
}

/** The problem with an answer that must be a 4xx refusal with `code` and the error shape, or undefined. */
export function refusalCodeProblem(res: HttpResponse, code: string, what: string): string | undefined {
  return problemOf(() => expectAuthError(res, code, what));
}

function problemOf(judge: () => unknown): string | undefined {
  try {
    judge();
    return undefined;
  } catch (error) {
    if (error instanceof CheckFailure) return error.message;
    throw error;
  }
}

export type RefusalCase = readonly [what: string, token: string];

/** Sends every case; fails with all the ones not refused with 401 invalid_token. */
export async function expectAllRefused(t: CheckContext, cases: readonly RefusalCase[]): Promise<void> {
  const answers: Array<readonly [string, HttpResponse]> = [];
  for (const [what, token] of cases) answers.push([what, await whoami(t, token)]);
  judgeRefusals(t, answers);
}

/** Judges answers already received (when they had to be taken at different times). */
export function judgeRefusals(
  t: CheckContext,
  answers: ReadonlyArray<readonly [what: string, res: HttpResponse]>,
): void {
  const judged = answers
    .map(([what, res]) => ({ res, problem: refusalProblem(res, what) }))
    .filter(({ problem }) => problem !== undefined);
  const problems = judged.map(({ problem }) => problem);
  if (problems.length > 0)
    t.fail(`${problems.length} of ${answers.length} not refused: ${problems.join('; ')}`, judged[0]!.res);
  t.detail(`${answers.length} refused with 401 invalid_token: ${answers.map(([what]) => what).join(', ')}`);
}
