/**
 * The fan-out monitor: a small HTTP service that svc-harness load runs next to the
 * capturing receiver (src/load/fanout-monitor.ts). VUs tell it which calls they placed;
 * teardown reads what arrived at the receiver's endpoints.
 */
import http from 'k6/http';
import { required } from './env.ts';
import type { ExpectedCall, MonitorStats } from './shared-types.ts';
import { ENDPOINT } from './target.ts';

function monitorUrl(): string {
  return required('LOAD_MONITOR_URL').replace(/\/+$/, '');
}

/** Tells the monitor that a call was placed; false when the monitor did not take it. */
export function expectCall(callId: string, placedAtMs: number): boolean {
  const res = http.post(`${monitorUrl()}/expect`, JSON.stringify({ call_id: callId, placed_at_ms: placedAtMs } satisfies ExpectedCall), {
    headers: { 'Content-Type': 'application/json' },
    timeout: '5s',
    tags: { endpoint: ENDPOINT.expectCall, name: 'POST monitor/expect' },
  });
  return res.status === 204;
}

export function readStats(withSamples: boolean): MonitorStats | undefined {
  const res = http.get(`${monitorUrl()}/stats${withSamples ? '?samples=1' : ''}`, {
    timeout: '10s',
    tags: { endpoint: ENDPOINT.monitorStats, name: 'GET monitor/stats' },
  });
  if (res.status !== 200 || typeof res.body !== 'string') return undefined;
  try {
    return JSON.parse(res.body) as MonitorStats;
  } catch {
    return undefined;
  }
}
