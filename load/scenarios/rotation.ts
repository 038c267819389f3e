/**
 * Token rotation under load (spec: Authentication > Rotation without downtime): calls are
 * placed steadily with the old token, the new token joins, both are confirmed with
 * GET /v1/whoami, the old one is revoked through the control interface, and placement
 * carries on with the new one. Verdict: zero non-2xx for the new token (a gate), the old
 * token refused within the propagation limit (under 60 s).
 *
 * Timeline over LOAD_DURATION (D, default 16s): old token 0 → 0.6 D; new token 0.2 D → D;
 * revocation at 0.4 D. Rate LOAD_RATE per token (default 10/s).
 * Needs LOAD_OLD_TOKEN, LOAD_OLD_TOKEN_ID, LOAD_NEW_TOKEN, LOAD_WORKSPACE_ID,
 * SVC_CONTROL_URL, SVC_CONTROL_TOKEN (svc-harness load makes the workspace and tokens).
 */
import { check, sleep } from 'k6';
import http from 'k6/http';
import { Counter, Trend } from 'k6/metrics';
import type { Options } from 'k6/options';
import { firstAgentId, placeCall, whoami } from '../lib/calls.ts';
import { env, loadDuration, num, required, seconds } from '../lib/env.ts';
import { arrivalVus } from '../lib/executors.ts';
import { summaryHandler } from '../lib/summary.ts';
import { ENDPOINT, REQUEST_TIMEOUT, bearer, refuseProduction } from '../lib/target.ts';
import { TREND_STATS, gate, onEndpoint } from '../lib/thresholds.ts';

const RATE = num('LOAD_RATE', 10);
const D = loadDuration(16);
/** The spec's bound on revocation propagation; the poll loop never runs longer. */
const PROPAGATION_LIMIT_MS = 60_000;
const POLL_INTERVAL_S = 0.25;

const newTokenNon2xx = new Counter('rotation_new_token_non2xx');
const oldTokenRefused = new Counter('rotation_old_token_refused');
const revokeFailed = new Counter('rotation_revoke_failed');
const propagation = new Trend('rotation_revocation_propagation_ms', true);

const arrival = (startTime: number, duration: number, exec: string) => ({
  executor: 'constant-arrival-rate' as const,
  exec,
  rate: RATE,
  timeUnit: '1s',
  startTime: seconds(startTime),
  duration: seconds(duration),
  ...arrivalVus(RATE),
  gracefulStop: '10s',
});

export const options: Options = {
  scenarios: {
    old_token: arrival(0, 0.6 * D, 'withOldToken'),
    new_token: arrival(0.2 * D, 0.8 * D, 'withNewToken'),
    // One iteration in the whole test: under execution segments it runs in one instance only.
    revoke: {
      executor: 'shared-iterations',
      exec: 'revokeOldToken',
      vus: 1,
      iterations: 1,
      startTime: seconds(0.4 * D),
      maxDuration: seconds(PROPAGATION_LIMIT_MS / 1000 + 15),
    },
  },
  thresholds: {
    rotation_new_token_non2xx: [gate('count==0', '0s')],
    [onEndpoint('http_req_failed', ENDPOINT.placeCall, { token: 'new' })]: ['rate==0'],
    // 401 is the expected answer for the old token once revoked; anything else fails.
    [onEndpoint('http_req_failed', ENDPOINT.placeCall, { token: 'old' })]: ['rate==0'],
    rotation_revoke_failed: ['count==0'],
    rotation_revocation_propagation_ms: [`max<${PROPAGATION_LIMIT_MS}`],
    [onEndpoint('http_req_duration', ENDPOINT.placeCall, { token: 'new' })]: [`p(99)<${num('LOAD_P99_MS', 1000)}`],
  },
  summaryTrendStats: TREND_STATS,
  setupTimeout: '30s',
};

interface RotationSetup {
  agentId: string;
}

export function setup(): RotationSetup {
  const oldToken = required('LOAD_OLD_TOKEN');
  const newToken = required('LOAD_NEW_TOKEN');
  refuseProduction([oldToken, newToken]);
  // Counters exist in every run, so their thresholds always have a value to judge.
  newTokenNon2xx.add(0);
  oldTokenRefused.add(0);
  revokeFailed.add(0);
  return { agentId: env('LOAD_AGENT_ID') ?? firstAgentId(newToken) };
}

export function withOldToken(data: RotationSetup): void {
  const placed = placeCall(required('LOAD_OLD_TOKEN'), data.agentId, {
    tags: { token: 'old' },
    responseCallback: http.expectedStatuses({ min: 200, max: 299 }, 401),
  });
  if (placed.res.status === 401) oldTokenRefused.add(1);
}

export function withNewToken(data: RotationSetup): void {
  const placed = placeCall(required('LOAD_NEW_TOKEN'), data.agentId, { tags: { token: 'new' } });
  newTokenNon2xx.add(placed.ok ? 0 : 1);
  check(placed, { 'new token: call placed (2xx)': (p) => p.ok });
}

export function revokeOldToken(): void {
  const oldToken = required('LOAD_OLD_TOKEN');
  const bothAccepted = whoami(oldToken, { token: 'old' }) === 200 && whoami(required('LOAD_NEW_TOKEN'), { token: 'new' }) === 200;
  check(bothAccepted, { 'whoami 200 with old and new token before revocation': (ok) => ok });

  const controlUrl = required('SVC_CONTROL_URL').replace(/\/+$/, '');
  const url = `${controlUrl}/workspaces/${required('LOAD_WORKSPACE_ID')}/tokens/${encodeURIComponent(required('LOAD_OLD_TOKEN_ID'))}`;
  const res = http.del(url, null, {
    headers: bearer(required('SVC_CONTROL_TOKEN')),
    timeout: REQUEST_TIMEOUT,
    tags: { endpoint: ENDPOINT.revokeToken, name: 'DELETE control/workspaces/{ws}/tokens/{id}' },
  });
  const revoked = res.status >= 200 && res.status < 300;
  revokeFailed.add(revoked ? 0 : 1);
  if (!revoked) {
    console.error(`revoking the old token answered ${res.status}`);
    return;
  }
  const started = Date.now();
  // Bounded in time (the spec's limit) and so in count (one poll per 250 ms).
  while (Date.now() - started < PROPAGATION_LIMIT_MS) {
    if (whoami(oldToken, { token: 'old', phase: 'propagation' }) === 401) {
      propagation.add(Date.now() - started);
      return;
    }
    sleep(POLL_INTERVAL_S);
  }
  propagation.add(Date.now() - started);
}

export default function (): void {
  // Every scenario names its own exec function; the default exists for `k6 inspect`.
}

export const handleSummary = summaryHandler('rotation');
