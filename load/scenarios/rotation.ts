/**
 * Token rotation under load (spec: Authentication > Rotation without downtime): calls are
 * placed steadily with the old token, the new token joins, both are confirmed with
 * GET /v1/whoami, the old one is revoked through the control interface, and placement
 * carries on with the new one. Verdict: zero non-2xx for the new token (a gate), the old
 * token refused within the propagation limit (under 60 s) with 401 invalid_token, and never
 * accepted again once refused (after LOAD_REVOCATION_GRACE_S for the other nodes to learn).
 *
 * Timeline over LOAD_DURATION (D, default 16s): old token 0 → 0.6 D; new token 0.2 D → D;
 * revocation at 0.4 D, then polls until the first 401 and watches the old token on fresh
 * connections for the grace and WATCH_S more. Rate LOAD_RATE per token (default 10/s).
 * Needs LOAD_OLD_TOKEN, LOAD_OLD_TOKEN_ID, LOAD_NEW_TOKEN, LOAD_WORKSPACE_ID,
 * SVC_CONTROL_URL, SVC_CONTROL_TOKEN (svc-harness load makes the workspace and tokens).
 */
import { check, sleep } from 'k6';
import http from 'k6/http';
import { Counter, Trend } from 'k6/metrics';
import type { Options } from 'k6/options';
import { CALL_ID_CHECK, errorCode, firstAgentId, placeCall, whoami } from '../lib/calls.ts';
import { env, loadDuration, num, required, seconds } from '../lib/env.ts';
import { arrivalVus } from '../lib/executors.ts';
import { summaryHandler } from '../lib/summary.ts';
import { ENDPOINT, REQUEST_TIMEOUT, bearer, refuseProduction } from '../lib/target.ts';
import { TREND_STATS, everyCheck, gate, onEndpoint } from '../lib/thresholds.ts';

const RATE = num('LOAD_RATE', 10);
const D = loadDuration(16);
/** The spec's bound on revocation propagation; the poll loop never runs longer. */
const PROPAGATION_LIMIT_MS = 60_000;
const POLL_INTERVAL_S = 0.25;
/**
 * After its first 401 the old token may still be accepted while the service's other nodes
 * learn of the revocation (spec: "within one propagation cycle"); a 2xx later than this is
 * "accepted after refusal". Default 5 s: the certify revocation suite's settling window.
 */
const GRACE_S = num('LOAD_REVOCATION_GRACE_S', 5);
/** How long past the grace the revoking VU keeps trying the old token. */
const WATCH_S = 3;
/** One probe per 100 ms on a new connection: about 30 past the grace, so every node of a round robin is tried. */
const WATCH_INTERVAL_S = 0.1;

const BOTH_ACCEPTED_CHECK = 'whoami 200 with old and new token before revocation';
const REFUSAL_CODE_CHECK = 'old token refused with 401 invalid_token';
/** 401 is the expected answer for the old token once revoked; anything else is a failed request. */
const OLD_TOKEN_STATUSES = http.expectedStatuses({ min: 200, max: 299 }, 401);

const newTokenNon2xx = new Counter('rotation_new_token_non2xx');
const oldTokenRefused = new Counter('rotation_old_token_refused');
const revokeFailed = new Counter('rotation_revoke_failed');
const acceptedAfterRefusal = new Counter('rotation_old_token_accepted_after_refusal');
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
      maxDuration: seconds(PROPAGATION_LIMIT_MS / 1000 + GRACE_S + WATCH_S + 15),
    },
  },
  thresholds: {
    rotation_new_token_non2xx: [gate('count==0', '0s')],
    [onEndpoint('http_req_failed', ENDPOINT.placeCall, { token: 'new' })]: ['rate==0'],
    [onEndpoint('http_req_failed', ENDPOINT.placeCall, { token: 'old' })]: ['rate==0'],
    rotation_revoke_failed: ['count==0'],
    rotation_revocation_propagation_ms: [`max<${PROPAGATION_LIMIT_MS}`],
    rotation_old_token_accepted_after_refusal: ['count==0'],
    [onEndpoint('http_req_duration', ENDPOINT.placeCall, { token: 'new' })]: [`p(99)<${num('LOAD_P99_MS', 1000)}`],
    ...everyCheck(REFUSAL_CODE_CHECK),
    ...everyCheck(BOTH_ACCEPTED_CHECK),
    ...everyCheck(CALL_ID_CHECK),
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
  acceptedAfterRefusal.add(0);
  return { agentId: env('LOAD_AGENT_ID') ?? firstAgentId(newToken) };
}

/**
 * This VU's first 401 for the old token. VUs share no memory, so each judges what it saw:
 * the old-token VUs on their kept-alive connections, the revoking VU on fresh ones.
 */
let firstRefusalMs: number | undefined;

/** One answer to the old token: a 401 must carry invalid_token; a 2xx past the grace after a 401 is counted. */
function judgeOldToken(status: number, code: string | undefined): void {
  const now = Date.now();
  if (status === 401) {
    oldTokenRefused.add(1);
    check(code, { [REFUSAL_CODE_CHECK]: (c) => c === 'invalid_token' });
    firstRefusalMs ??= now;
  } else if (status >= 200 && status < 300 && firstRefusalMs !== undefined && now - firstRefusalMs > GRACE_S * 1000) {
    acceptedAfterRefusal.add(1);
  }
}

export function withOldToken(data: RotationSetup): void {
  const placed = placeCall(required('LOAD_OLD_TOKEN'), data.agentId, {
    tags: { token: 'old' },
    responseCallback: OLD_TOKEN_STATUSES,
  });
  judgeOldToken(placed.res.status, errorCode(placed.res));
}

export function withNewToken(data: RotationSetup): void {
  const placed = placeCall(required('LOAD_NEW_TOKEN'), data.agentId, { tags: { token: 'new' } });
  newTokenNon2xx.add(placed.ok ? 0 : 1);
}

export function revokeOldToken(data: RotationSetup): void {
  const oldToken = required('LOAD_OLD_TOKEN');
  const bothAccepted =
    whoami(oldToken, { token: 'old' }).status === 200 &&
    whoami(required('LOAD_NEW_TOKEN'), { token: 'new' }).status === 200;
  check(bothAccepted, { [BOTH_ACCEPTED_CHECK]: (ok) => ok });

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
  while (Date.now() - started < PROPAGATION_LIMIT_MS && firstRefusalMs === undefined) {
    const answer = whoami(oldToken, { token: 'old', phase: 'propagation' }, true);
    judgeOldToken(answer.status, answer.code);
    if (firstRefusalMs === undefined) sleep(POLL_INTERVAL_S);
  }
  propagation.add(Date.now() - started);
  if (firstRefusalMs === undefined) return; // never refused: the propagation threshold fails
  // Stays refused: whoami and call placement in turn, each on a new connection, until
  // WATCH_S past the grace (bounded in time, and so in count).
  const watchEnd = firstRefusalMs + (GRACE_S + WATCH_S) * 1000;
  for (let i = 0; Date.now() < watchEnd; i++) {
    if (i % 2 === 0) {
      const answer = whoami(oldToken, { token: 'old', phase: 'watch' }, true);
      judgeOldToken(answer.status, answer.code);
    } else {
      const placed = placeCall(oldToken, data.agentId, {
        tags: { token: 'old', phase: 'watch' },
        responseCallback: OLD_TOKEN_STATUSES,
        fresh: true,
      });
      judgeOldToken(placed.res.status, errorCode(placed.res));
    }
    sleep(WATCH_INTERVAL_S);
  }
}

export default function (): void {
  // Every scenario names its own exec function; the default exists for `k6 inspect`.
}

export const handleSummary = summaryHandler('rotation');
