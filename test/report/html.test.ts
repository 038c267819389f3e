import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/html.js';
import { fixtureReport, LEAKY_TOKEN } from './fixture.js';

describe('report.html', () => {
  const html = renderHtml(fixtureReport());

  it('holds the propagation strip and both retry timelines, each with its table', () => {
    for (const id of ['REVOKE-PROPAGATION', 'HOOK-RETRY-FULL-SCHEDULE', 'HOOK-RETRY-EARLY-SCHEDULE']) {
      expect(html).toContain(`<figure class="chart-figure" id="chart-${id}" data-check="${id}">`);
      expect(html).toContain(`<a class="chart-link" href="#chart-${id}">`);
    }
    expect(html.split('<table class="data">').length - 1).toBe(4); // propagation: summary + all polls; one per timeline
  });

  it('has a row per check with the data the filters read', () => {
    expect(html).toContain(
      '<tr id="check-SCOPE-MISSING-STATUS" class="pass" data-id="SCOPE-MISSING-STATUS" data-level="observe" data-verdict="pass" data-area="scopes">',
    );
    expect(html.split('<tr id="check-').length - 1).toBe(fixtureReport().checks.length);
    for (const id of ['f-level', 'f-verdict', 'f-area', 'f-id', 'f-search']) expect(html).toContain(`id="${id}"`);
  });

  it('links each check to the clauses it cites, by id, and quotes their text', () => {
    expect(html).toContain(
      'Clause: Events &gt; Retry and replay: <a href="#clause-RETRY-2">RETRY-2</a>; Limits: <a href="#clause-LIMIT-DELIVERY-ATTEMPTS">LIMIT-DELIVERY-ATTEMPTS</a>',
    );
    expect(html).toContain(
      '<blockquote><small>RETRY-2, Events &gt; Retry and replay</small><br>Failed deliveries are retried with delays of 1 minute',
    );
  });

  it('quotes every cited clause once below, with the checks citing it', () => {
    expect(html.split('<blockquote id="clause-RETRY-2">').length - 1).toBe(1);
    expect(html).toMatch(
      /<blockquote id="clause-RETRY-2"><strong>RETRY-2<\/strong> Failed deliveries are retried[\s\S]*?Checks: <a href="#check-HOOK-RETRY-FULL-SCHEDULE"><code>HOOK-RETRY-FULL-SCHEDULE<\/code><\/a> <a href="#check-HOOK-RETRY-EARLY-SCHEDULE">/,
    );
    expect(html).not.toContain('id="clause-SIG-4"');
  });

  it('shows the clause of a check the catalog does not know as written, without links', () => {
    const report = fixtureReport();
    report.checks = [
      { ...report.checks[0]!, id: 'LEGACY-CHECK', clause: 'Authentication > Rotation without downtime, 3' },
    ];
    const legacy = renderHtml(report);
    expect(legacy).toContain(
      '<div class="clause-ref">Clause: <span>Authentication &gt; Rotation without downtime, 3</span></div>',
    );
    expect(legacy).toContain('No check of this report cites a clause of the spec.');
  });

  it('shows why a check failed, masked, with its evidence', () => {
    expect(html).toContain('<p class="failure"><strong>Why it failed:</strong> expected 401 invalid_token, got 200');
    expect(html).toContain('requests and responses');
    expect(html).not.toContain(LEAKY_TOKEN);
    expect(html).toContain('svc_test_***(');
  });

  it('shows the exchanges a check recorded, answer by answer, and the command that re-runs it', () => {
    const report = fixtureReport();
    const failed = report.checks.find((check) => check.verdict === 'fail')!;
    failed.measurements = {
      evidence: [
        {
          request: 'GET /v1/whoami\nauthorization: Bearer svc_test_***(1a2b)',
          answer: 200,
          headers: { 'content-type': 'application/json' },
          body: '{"workspace_id":"ws_1","<b>":1}',
        },
      ],
      rerun: `svc-harness certify --checks ${failed.id} --seed 42`,
    };
    const page = renderHtml(report);
    expect(page).toContain(
      '&gt; GET /v1/whoami\n&gt; authorization: Bearer svc_test_***(1a2b)\n&lt; 200\n&lt; content-type: application/json',
    );
    expect(page).toContain('&lt;b&gt;');
    expect(page).toContain(`Re-run it alone: <code>svc-harness certify --checks ${failed.id} --seed 42</code>`);
  });

  it('is self-contained: nothing is fetched', () => {
    expect(html).not.toMatch(/<(script|link|img|iframe)[^>]+(src|href)=/i);
    expect(html).not.toMatch(/url\(\s*['"]?https?:/i);
    expect(html).not.toMatch(/@import/);
  });
});
