/** When a service check's outcome is no verdict (src/suite/check.ts, noVerdictReason), and how it reads. */
import { describe, expect, it } from 'vitest';
import { checkResult } from '../../src/check/result.js';
import { CheckFailure, HttpError } from '../../src/errors.js';
import { emptyTally } from '../../src/http/tally.js';
import { noVerdictReason, overtimeReason } from '../../src/suite/check.js';

const lost = () => ({
  ...emptyTally(),
  requests: 9,
  unanswered: 1,
  first_unanswered: 'GET /v1/whoami: other side closed (sent 4 times)',
});

describe('noVerdictReason', () => {
  it('has none for a failure when every request was answered: the failure is the verdict', () => {
    expect(
      noVerdictReason(new CheckFailure('expected 401, got 200'), { ...emptyTally(), requests: 9, rate_limited: 3 }),
    ).toBeUndefined();
  });

  it('is the missing answer itself when the check ends on it', () => {
    const reason = noVerdictReason(new HttpError('POST /v1/voice/calls: other side closed', 'network'), lost());
    expect(reason).toMatch(
      /^POST \/v1\/voice\/calls: other side closed; the network kept the answer away \(1 request of 9 unanswered/,
    );
  });

  it('is no verdict for a failure that followed a missing answer, naming both', () => {
    const reason = noVerdictReason(
      new CheckFailure('a poll 371 ms after revocation answered neither 200 nor 401'),
      lost(),
    );
    expect(reason).toMatch(/^GET \/v1\/whoami: other side closed .*may come from the missing answer: a poll 371 ms/);
  });

  it('keeps a body over the cap as the target answer: a failure, not an error', () => {
    expect(
      noVerdictReason(
        new HttpError('GET /v1/voice/agents: response body larger than 1048576 bytes', 'too-large'),
        emptyTally(),
      ),
    ).toBeUndefined();
  });
});

describe('overtimeReason', () => {
  it('is no verdict when the check ran out of time after the network stalled it: 429s, resends or lost answers', () => {
    expect(overtimeReason(90_000, { ...emptyTally(), requests: 40, rate_limited: 6, waited_ms: 31_000 })).toMatch(
      /^the check did not finish within its time-out of 90 s after the network stalled it \(6 answered 429, 31 s waited\)/,
    );
    expect(overtimeReason(90_000, { ...emptyTally(), requests: 40, resent: 2 })).toMatch(/2 sent again/);
    expect(overtimeReason(90_000, lost())).toMatch(/1 unanswered/);
  });

  it("has none when every request was answered at once: running out of time is then the check's failure", () => {
    expect(overtimeReason(90_000, { ...emptyTally(), requests: 40, waited_ms: 500 })).toBeUndefined();
  });
});

describe('checkResult of an errored check', () => {
  it('is the error verdict at every level, with the reason first and what the network cost', () => {
    const network = { ...lost(), rate_limited: 2, resent: 4 };
    for (const level of ['must', 'should', 'observe'] as const) {
      const result = checkResult(
        { id: 'AUTH-WHOAMI-ACCEPTED', title: 'whoami', clause: 'Endpoints', level, area: 'auth-errors' },
        {
          state: 'errored',
          durationMs: 10,
          meta: { checkId: 'AUTH-WHOAMI-ACCEPTED', errorReason: 'GET /v1/whoami: other side closed', network },
        },
      );
      expect(result.verdict).toBe('error');
      expect(result.detail).toMatch(/^no verdict: GET \/v1\/whoami: other side closed/);
      expect(result.measurements).toEqual({ network });
    }
  });

  it('leaves the network out of a check whose requests all went through at once', () => {
    const result = checkResult(
      { id: 'AUTH-WHOAMI-ACCEPTED', title: 'whoami', clause: 'Endpoints', level: 'must', area: 'auth-errors' },
      {
        state: 'passed',
        durationMs: 10,
        meta: { checkId: 'AUTH-WHOAMI-ACCEPTED', network: { ...emptyTally(), requests: 3 } },
      },
    );
    expect(result.measurements).toBeUndefined();
  });
});
