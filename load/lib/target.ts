/**
 * The service under load: base URL, tokens and the safety refusal. Requests carry a
 * time-out and an `endpoint` tag, so thresholds and reports split by endpoint.
 */
import exec from 'k6/execution';
import { env, flag, required } from './env.ts';

/** Per-request time-out: no request of a load run waits longer than this. */
export const REQUEST_TIMEOUT = '10s';

/** The destination number reserved for tests (same value as src/api/service.ts). */
export const RESERVED_TEST_NUMBER = '+15555550123';

/** Stable tag values, one per endpoint the scripts call. */
export const ENDPOINT = {
  placeCall: 'calls.place',
  listAgents: 'agents.list',
  whoami: 'whoami',
  revokeToken: 'control.token.revoke',
} as const;

export function baseUrl(): string {
  return required('SVC_BASE_URL').replace(/\/+$/, '');
}

export function bearer(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}

/** A production-looking target is refused unless LOAD_ALLOW_PRODUCTION=true (svc-harness load checks too). */
export function refuseProduction(tokens: readonly (string | undefined)[]): void {
  if (flag('LOAD_ALLOW_PRODUCTION')) return;
  if (tokens.some((token) => token?.startsWith('svc_live_'))) {
    exec.test.abort('refusing a svc_live_ (production) token; set LOAD_ALLOW_PRODUCTION=true to run anyway');
  }
  if (env('LOAD_ENVIRONMENT') === 'production') {
    exec.test.abort('refusing a production environment; set LOAD_ALLOW_PRODUCTION=true to run anyway');
  }
}
