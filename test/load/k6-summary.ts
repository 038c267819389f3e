/** A k6 summary of the calls scenario, and a load report around digests, for the report tests. */
import type { K6Summary } from '../../load/lib/shared-types.js';
import { digestSummary, type ScenarioDigest } from '../../src/load/report/digest.js';
import type { LoadReport } from '../../src/load/report/html.js';

/** One k6 summary of the calls scenario, as handleSummary receives it; tests change one figure. */
export function callsSummary(change: { p95?: number; rate?: number; failed?: number; ok?: boolean } = {}): K6Summary {
  return {
    scenario: 'calls',
    state: { testRunDurationMs: 20_000 },
    metrics: {
      'http_req_duration{endpoint:calls.place}': {
        type: 'trend',
        values: {
          'p(95)': change.p95 ?? 100,
          'p(99)': 200,
          med: 40,
          max: 400,
          avg: 50,
          min: 1,
          'p(90)': 90,
          count: 1000,
        },
        thresholds: { 'p(95)<500': { ok: change.ok ?? true }, 'p(99)<1000': { ok: true } },
      },
      'http_reqs{endpoint:calls.place}': {
        type: 'counter',
        values: { count: 1000, rate: change.rate ?? 50 },
        thresholds: { 'rate>=45': { ok: true } },
      },
      'http_req_failed{endpoint:calls.place}': {
        type: 'rate',
        values: { rate: change.failed ?? 0, passes: 0, fails: 1000 },
      },
      http_req_duration: { type: 'trend', values: { 'p(95)': 999 } },
      dropped_iterations: { type: 'counter', values: { count: 0, rate: 0 } },
    },
  };
}

export const digest = (change?: Parameters<typeof callsSummary>[0]) => digestSummary(callsSummary(change), 0);

/** A failed smoke run's load report of these scenario digests, with a baseline comparison when given. */
export function loadReport(scenarios: ScenarioDigest[], baseline?: LoadReport['baseline']): LoadReport {
  return {
    harness_version: '0.1.0',
    run_id: '3f2a9c1b',
    started_at: '2026-11-26T10:00:00.000Z',
    finished_at: '2026-11-26T10:01:00.000Z',
    target: { base_url: 'http://127.0.0.1:1', embedded_reference: true },
    mode: 'smoke',
    k6: { version: 'v2.2.0', path_source: 'tools' },
    passed: false,
    scenarios,
    ...(baseline ? { baseline } : {}),
  };
}
