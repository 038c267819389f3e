import { describe, expect, it } from 'vitest';
import { parseSpec } from '../../src/report/clauses.js';
import { renderHtml } from '../../src/report/html.js';
import { fixtureReport, LEAKY_TOKEN } from './fixture.js';

const SPEC = parseSpec(`# Spec

## Events

### Retry and replay

1. A delivery fails on any non-2xx response.
2. Failed deliveries are retried with delays of 1 minute, 5 minutes, 30 minutes, 2 hours, 12 hours, 24 hours.

## Errors

| invalid_token | credential malformed, expired or revoked | 401 |

## Limits

| Revocation propagation | under 1 minute |
`);

describe('report.html', () => {
  const html = renderHtml(fixtureReport(), { spec: SPEC });

  it('holds the propagation strip and both retry timelines, each with its table', () => {
    for (const id of ['REVOKE-PROPAGATION', 'HOOK-RETRY-FULL-SCHEDULE', 'HOOK-RETRY-EARLY-SCHEDULE']) {
      expect(html).toContain(`<figure class="chart-figure" id="chart-${id}" data-check="${id}">`);
      expect(html).toContain(`<a class="chart-link" href="#chart-${id}">`);
    }
    expect(html.split('<table class="data">').length - 1).toBe(4); // propagation: summary + all polls; one per timeline
  });

  it('has a row per check with the data the filters read', () => {
    expect(html).toContain('<tr id="check-SCOPE-MISSING-STATUS" class="pass" data-id="SCOPE-MISSING-STATUS" data-level="observe" data-verdict="pass" data-area="scopes">');
    expect(html.split('<tr id="check-').length - 1).toBe(fixtureReport().checks.length);
    for (const id of ['f-level', 'f-verdict', 'f-area', 'f-id', 'f-search']) expect(html).toContain(`id="${id}"`);
  });

  it('links each check to its clause and quotes the clause text', () => {
    expect(html).toContain('<a href="#spec-events-retry-and-replay">Events &gt; Retry and replay, 2</a>');
    expect(html).toContain('Failed deliveries are retried with delays of 1 minute');
    expect(html).toContain('<section class="spec-section" id="spec-events-retry-and-replay">');
    // Not in the spec: shown as the reference alone, not as a link.
    expect(html).toContain('<span>control interface reinstate</span>');
  });

  it('shows only the references when the spec is not readable', () => {
    const bare = renderHtml(fixtureReport(), { spec: null });
    expect(bare).toContain('(spec not readable at render time: reference only)');
    expect(bare).not.toContain('class="clause-text"');
  });

  it('shows why a check failed, masked, with its evidence', () => {
    expect(html).toContain('<p class="failure"><strong>Why it failed:</strong> expected 401 invalid_token, got 200');
    expect(html).toContain('request and response');
    expect(html).not.toContain(LEAKY_TOKEN);
    expect(html).toContain('svc_test_***(');
  });

  it('is self-contained: nothing is fetched', () => {
    expect(html).not.toMatch(/<(script|link|img|iframe)[^>]+(src|href)=/i);
    expect(html).not.toMatch(/url\(\s*['"]?https?:/i);
    expect(html).not.toMatch(/@import/);
  });
});
