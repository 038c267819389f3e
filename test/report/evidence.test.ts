/** Every report shows the exchange a failing assertion judged first, then the recent ones. */
import { describe, expect, test } from 'vitest';
import { renderHtml } from '../../src/report/html.js';
import { renderJunit } from '../../src/report/junit.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import type { RunReport } from '../../src/report/model.js';
import { fixtureReport } from './fixture.js';

const JUDGED = {
  request: 'GET /v1/whoami\nauthorization: Bearer svc_test_***(40 chars)',
  answer: 403,
  body: '{"error":{"code":"invalid_token"}}',
  reproduce: 'curl -sS -i -X GET http://127.0.0.1:1/v1/whoami -H "authorization: Bearer $SVC_TOKEN"',
  judged: true,
};
const RECENT = { request: 'GET /v1/agents', answer: 200, reproduce: 'curl -sS -i -X GET http://127.0.0.1:1/v1/agents' };

function reportWith(evidence: unknown[]): RunReport {
  const report = fixtureReport();
  const failed = report.checks.find((check) => check.verdict === 'fail')!;
  failed.measurements = { ...failed.measurements, evidence, rerun: 'svc-harness certify --checks X --seed 1' };
  return report;
}

describe('the judged exchange in the reports', () => {
  test('report.md names the judged exchange and its reproduce line, not the last one', () => {
    const md = renderMarkdown(reportWith([JUDGED, RECENT]));
    expect(md).toContain('Judged exchange: `GET /v1/whoami → 403`');
    expect(md).toContain(
      'Reproduce with: `curl -sS -i -X GET http://127.0.0.1:1/v1/whoami -H "authorization: Bearer $SVC_TOKEN"`',
    );
    expect(md).not.toContain('Last exchange');
  });

  test('without a judged exchange, report.md shows the last one as before', () => {
    const md = renderMarkdown(reportWith([RECENT]));
    expect(md).toContain('Last exchange: `GET /v1/agents → 200`');
    expect(md).not.toContain('Judged exchange');
  });

  test('report.html shows the judged exchange before the recent ones, each once', () => {
    const html = renderHtml(reportWith([JUDGED, RECENT]));
    const judgedAt = html.indexOf('the exchange the failing assertion judged');
    const recentAt = html.indexOf('recent requests and responses (the last 1)');
    expect(judgedAt).toBeGreaterThan(0);
    expect(recentAt).toBeGreaterThan(judgedAt);
    expect(html.split('&gt; GET /v1/whoami').length - 1).toBe(1);
    expect(html).toContain(
      'Reproduce with: <code>curl -sS -i -X GET http://127.0.0.1:1/v1/whoami -H &quot;authorization: Bearer $SVC_TOKEN&quot;</code>',
    );
  });

  test('junit.xml carries the judged exchange and its reproduce line in the failing case', () => {
    const xml = renderJunit(reportWith([JUDGED, RECENT]));
    expect(xml).toContain('judged exchange: GET /v1/whoami → 403');
    expect(xml).toContain(
      'reproduce with: curl -sS -i -X GET http://127.0.0.1:1/v1/whoami -H &quot;authorization: Bearer $SVC_TOKEN&quot;',
    );
  });
});
