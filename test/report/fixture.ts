/**
 * A RunReport with every kind of check the HTML report draws: revocation polls, a retry
 * schedule in band and one with a late and a missing retry, an observation, a failure
 * whose detail echoes a token (to prove masking), a warning and a skip.
 */
import { getCheck } from '../../src/catalog/checks.js';
import type { CheckResult, RunReport } from '../../src/report/model.js';
import { summarize } from '../../src/report/model.js';

/** Looks like a real token: the mask's patterns must catch it wherever it lands. */
export const LEAKY_TOKEN = 'svc_test_LeakedTokenValue0123456789';

function polls(): Array<{ atMs: number; connection: 'fresh' | 'kept-alive'; status: number; code?: string }> {
  const out: Array<{ atMs: number; connection: 'fresh' | 'kept-alive'; status: number; code?: string }> = [];
  // Every 250 ms for 7 s: kept-alive flips to 401 at 2.25 s, fresh at 2.0 s.
  for (let at = 20; at <= 7_000; at += 250) {
    out.push({
      atMs: at,
      connection: 'kept-alive',
      ...(at >= 2_250 ? { status: 401, code: 'invalid_token' } : { status: 200 }),
    });
    out.push({
      atMs: at + 8,
      connection: 'fresh',
      ...(at >= 2_000 ? { status: 401, code: 'invalid_token' } : { status: 200 }),
    });
  }
  return out;
}

const check = (fields: Partial<CheckResult> & Pick<CheckResult, 'id' | 'verdict'>): CheckResult => ({
  title: fields.id,
  clause: getCheck(fields.id).clause,
  level: 'must',
  duration_ms: 100,
  area: 'auth-errors',
  ...fields,
});

export function fixtureChecks(): CheckResult[] {
  return [
    check({
      id: 'REVOKE-PROPAGATION',
      area: 'revocation',
      title: 'A revoked token answers 401 invalid_token within 60 s, on fresh and kept-alive connections',
      verdict: 'pass',
      duration_ms: 7_400,
      detail: 'first 401 after 2.0 s; last 200 at 2.0 s; 56 polls on fresh and kept-alive connections',
      measurements: { polls: polls(), propagation_ms: 2_028, last_accepted_ms: 2_020 },
    }),
    check({
      id: 'HOOK-RETRY-FULL-SCHEDULE',
      area: 'webhook-retry',
      title: 'A failing delivery is retried after 1m, 5m, 30m, 2h, 12h, 24h (time-scaled)',
      verdict: 'pass',
      duration_ms: 41_200,
      detail: '7 attempts in all; time scale 3600',
      measurements: {
        time_scale: 3600,
        tolerance: '±(5% + 12 ms), +2 ms more late',
        gaps: [
          { retry: 1, expectedMs: 16.7, observedMs: 21.9, toleranceMs: 12.8, lateToleranceMs: 14.8 },
          { retry: 2, expectedMs: 83.3, observedMs: 93.6, toleranceMs: 16.2, lateToleranceMs: 18.2 },
          { retry: 3, expectedMs: 500, observedMs: 522.2, toleranceMs: 37.0, lateToleranceMs: 39.0 },
          { retry: 4, expectedMs: 2000, observedMs: 2003.7, toleranceMs: 112.0, lateToleranceMs: 114.0 },
          { retry: 5, expectedMs: 12000, observedMs: 12003.6, toleranceMs: 612.0, lateToleranceMs: 614.0 },
          { retry: 6, expectedMs: 24000, observedMs: 24023.8, toleranceMs: 1212.0, lateToleranceMs: 1214.0 },
        ],
        expected_gaps_ms: [16.7, 83.3, 500, 2000, 12000, 24000],
        observed_gaps_ms: [21.9, 93.6, 522.2, 2003.7, 12003.6, 24023.8],
        arrivals_ms: {
          observedMs: [0, 22.3, 116.3, 638.7, 2652.3, 14656.8, 38683.7],
          nominalMs: [0, 16.7, 100, 600, 2600, 14600, 38600],
        },
        attempts: 7,
      },
    }),
    check({
      id: 'HOOK-RETRY-EARLY-SCHEDULE',
      area: 'webhook-retry',
      title: 'The first retries come 1 and 5 minutes after the failure (time-scaled)',
      verdict: 'fail',
      duration_ms: 9_000,
      detail: 'at time scale 60: retry 2 came 7000 ms after the end of attempt 2, expected 5000 ms (-500/+500 ms)',
      measurements: {
        time_scale: 60,
        tolerance: '±(5% + 12 ms)',
        gaps: [
          { retry: 1, expectedMs: 1000, observedMs: 1010, toleranceMs: 62.0, lateToleranceMs: 62.0 },
          { retry: 2, expectedMs: 5000, observedMs: 7000, toleranceMs: 262.0, lateToleranceMs: 262.0 },
          { retry: 3, expectedMs: 30000, toleranceMs: 1512.0, lateToleranceMs: 1512.0 },
        ],
        expected_gaps_ms: [1000, 5000, 30000],
        observed_gaps_ms: [1010, 7000],
      },
    }),
    check({
      id: 'SCOPE-MISSING-STATUS',
      area: 'scopes',
      level: 'observe',
      title: 'HTTP status used for missing_scope',
      verdict: 'pass',
      detail: 'missing_scope answered with HTTP 403',
      measurements: { status: 403, code: 'missing_scope' },
    }),
    check({
      id: 'AUTH-UNKNOWN-TOKEN',
      title: 'A well-formed but unknown token gets 401 invalid_token',
      verdict: 'fail',
      detail: `expected 401 invalid_token, got 200 {"token":"${LEAKY_TOKEN}"}`,
      measurements: {
        evidence: {
          request: `GET /v1/whoami Authorization: Bearer ${LEAKY_TOKEN}`,
          response: '200 {"workspace_id":"ws_1"}',
        },
      },
    }),
    check({
      id: 'AUTH-ERROR-JSON',
      level: 'should',
      title: 'Authentication errors are served as application/json',
      verdict: 'warn',
      detail: 'served as text/plain',
    }),
    check({
      id: 'HOOK-TIMEOUT-30S',
      area: 'webhook-delivery',
      title: 'The real time-out',
      verdict: 'skip',
      detail: 'runs only under CERTIFY_TIER=full (real-time waits)',
      duration_ms: 0,
    }),
    check({ id: 'TOKEN-LIMIT-TWO', area: 'tokens', title: 'A third active token is refused', verdict: 'pass' }),
  ];
}

export function fixtureReport(): RunReport {
  const checks = fixtureChecks();
  return {
    harness_version: '0.1.0',
    target: { base_url: 'http://127.0.0.1:41234', embedded_reference: true },
    started_at: '2026-11-22T15:00:00Z',
    finished_at: '2026-11-22T15:01:10Z',
    summary: summarize(checks),
    checks,
    tier: 'fast',
  };
}
