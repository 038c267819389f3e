/**
 * The hostile cases and the bounds each run must keep (docs/proving.md, "Bounds under a hostile target", states them).
 * Each case runs a representative subset of checks (CERTIFY_CHECKS) so the whole hostile
 * suite stays within a few minutes; the subset meets the fault on its first request.
 */
import type { Behaviour, Where } from './server.js';

/** Peak RSS bounds of a certify run, in MB: its largest process, and all its processes together. */
export const RSS_BOUND_MB = { process: 600, run: 1_000 } as const;

/** Checks of two suites whose first requests go to the public API; and two that start on the control interface. */
const API_CHECKS = ['AUTH-WHOAMI-ACCEPTED', 'AUTH-UNKNOWN-TOKEN', 'SCOPE-AGENTS-READ'];
const CONTROL_CHECKS = ['AUTH-WHOAMI-ACCEPTED', 'SCOPE-AGENTS-READ', 'HOOK-RETRY-ON-5XX'];

export interface HostileCase {
  behaviour: Behaviour;
  where: Where;
  /** What the target does. */
  what: string;
  checks: string[];
  /** Checks that must end with `verdict` and a one-line reason. */
  affected: string[];
  /**
   * `fail` where the target answered wrongly (bad bodies, redirects, bytes that are not HTTP);
   * `error` where the network kept the answer away (no answer, a stall, a reset, 429 for ever):
   * a missing answer is no verdict (../shared/contracts/runner.md).
   */
  verdict: 'fail' | 'error';
  /** 2 for `error` cases; 3 when no `must` check failed but the clean-up left resources on the target (the report lists them). */
  exit: 0 | 1 | 2 | 3;
  /** Whole run, start to exit, on a loaded 2-core machine. */
  boundS: number;
}

const api = (behaviour: Behaviour, what: string, boundS = 100, affected = API_CHECKS): HostileCase => ({
  behaviour,
  where: 'api',
  what,
  checks: API_CHECKS,
  affected,
  verdict: 'fail',
  exit: 1,
  boundS,
});
const control = (behaviour: Behaviour, what: string, boundS = 110): HostileCase => ({
  behaviour,
  where: 'control',
  what,
  checks: CONTROL_CHECKS,
  affected: CONTROL_CHECKS,
  verdict: 'fail',
  exit: 1,
  boundS,
});
/** A case where the network keeps the answers away: no verdict, exit 2. */
const unanswered = (hostile: HostileCase): HostileCase => ({ ...hostile, verdict: 'error', exit: 2 });

export const CASES: HostileCase[] = [
  // Slowest first (those that wait out a bound): the test runs them a few at a time, and a
  // long one started last would hold the whole file up.
  {
    behaviour: 'hang',
    where: 'delete',
    what: 'control interface never completes a DELETE (clean-up impossible)',
    checks: ['AUTH-WHOAMI-ACCEPTED'],
    affected: [],
    verdict: 'fail',
    exit: 3,
    boundS: 130,
  },
  unanswered(api('hang', 'never answers')),
  unanswered(api('drip', 'drips the body one byte a second')),
  unanswered(api('headers-stall', 'sends headers, then stalls the body')),
  api('invalid-json', 'sends invalid JSON as application/json', 100, ['AUTH-UNKNOWN-TOKEN', 'SCOPE-AGENTS-READ']),
  api('huge', 'sends a 50 MB body'),
  unanswered(control('hang', 'control interface accepts a request and never answers')),
  api('endless', 'sends an endless chunked body'),
  unanswered(control('drip', 'control interface drips its answers')),
  api('wrong-type', 'sends an HTML page as text/html', 100, ['AUTH-UNKNOWN-TOKEN', 'SCOPE-AGENTS-READ']),
  unanswered(api('reset', 'resets the connection (TCP RST)')),
  api('garbage', 'answers bytes that are not HTTP/1.1'),
  api('huge-headers', 'sends a 1 MB response header'),
  api('redirect-loop', 'redirects every request to itself (307)'),
  api(
    'hostile-json',
    'answers every error with control characters, escapes and markup as JSON escapes in valid JSON',
    100,
    ['AUTH-UNKNOWN-TOKEN', 'SCOPE-AGENTS-READ'],
  ),
  api(
    'hostile-bytes',
    'answers every error with control characters, escapes, markup and invalid UTF-8 as raw bytes',
    100,
    ['AUTH-UNKNOWN-TOKEN', 'SCOPE-AGENTS-READ'],
  ),
  {
    behaviour: 'retry-after',
    where: 'api',
    what: 'answers 429 Retry-After: 3600 to everything, while revocation polls',
    checks: [...API_CHECKS, 'REVOKE-PROPAGATION'],
    affected: [...API_CHECKS, 'REVOKE-PROPAGATION'],
    verdict: 'error',
    exit: 2,
    boundS: 150,
  },
  control('huge', 'control interface sends a 50 MB body'),
  unanswered(control('reset', 'control interface resets connections')),
  control('invalid-json', 'control interface answers 200 with invalid JSON'),
  unanswered(control('retry-after', 'control interface answers 429 Retry-After: 3600')),
];
