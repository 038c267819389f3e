/**
 * report.html in a real browser (Debian's Chromium via playwright-core): the charts and
 * their tables are there, the filters work, nothing is fetched from the network, and a
 * screenshot is left under reports/browser/ for people to look at.
 *
 * Two reports: the fixture (every kind of chart, a failure, deterministic counts) and,
 * when present, the last certification run (reports/latest/report.json, or the file
 * REPORT_BROWSER_JSON names), re-rendered with today's renderer.
 * Skipped, with the reason, when /usr/bin/chromium is missing.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { figuresFor } from '../../src/report/charts/index.js';
import { renderHtml } from '../../src/report/html.js';
import type { RunReport } from '../../src/report/model.js';
import { fixtureReport, LEAKY_TOKEN } from '../report/fixture.js';
import { chromiumMissing, openBrowser, type Browser } from './chromium.js';

const ROOT = resolve(import.meta.dirname, '../..');
const SHOTS = join(ROOT, 'reports/browser');
const LATEST = process.env.REPORT_BROWSER_JSON ?? join(ROOT, 'reports/latest/report.json');
const missing = chromiumMissing();
if (missing) process.stderr.write(`test/browser/report.test.ts skipped: ${missing}\n`);

let browser: Browser | undefined;
let work: string;
const pageErrors: string[] = [];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'report-html-'));
  mkdirSync(SHOTS, { recursive: true });
  if (missing) return;
  browser = await openBrowser({ width: 1400, height: 1000 });
  browser.page.on('pageerror', (error) => pageErrors.push(error.message));
  browser.page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  rmSync(work, { recursive: true, force: true });
});

async function open(report: RunReport, name: string, hash = ''): Promise<Browser['page']> {
  const file = join(work, `${name}.html`);
  writeFileSync(file, renderHtml(report));
  const page = browser!.page;
  await page.goto(`${pathToFileURL(file).href}${hash}`);
  return page;
}

const visibleRows = (page: Browser['page']) => page.locator('#checks-table tbody tr:not([hidden])').count();

/** Header and charts: what a reader sees first. */
async function screenshotCharts(page: Browser['page'], path: string): Promise<void> {
  // Runs in the page: `globalThis` is its window (the project's types have no DOM lib).
  const bottom = await page
    .locator('#charts')
    .evaluate(
      (element) => element.getBoundingClientRect().bottom + (globalThis as unknown as { scrollY: number }).scrollY,
    );
  const height = Math.ceil(bottom) + 8;
  await page.screenshot({ path, fullPage: true, clip: { x: 0, y: 0, width: 1400, height } });
}

describe('report.html in Chromium', () => {
  it('fixture: charts with their tables, clause links, masked failures', async (ctx) => {
    if (missing) ctx.skip(missing);
    const report = fixtureReport();
    const page = await open(report, 'fixture');
    expect(await page.title()).toBe('Certification report: FAILED');
    // Three charts, each an SVG image with a title and a table beside it.
    const figures = page.locator('figure.chart-figure');
    expect(await figures.count()).toBe(3);
    for (const id of ['REVOKE-PROPAGATION', 'HOOK-RETRY-FULL-SCHEDULE', 'HOOK-RETRY-EARLY-SCHEDULE']) {
      const figure = page.locator(`#chart-${id}`);
      await expect.poll(() => figure.locator('svg.chart[role=img]').isVisible()).toBe(true);
      expect(await figure.locator('table.data').first().isVisible()).toBe(true);
      const box = await figure.locator('svg.chart').boundingBox();
      expect(box!.width).toBeGreaterThan(400);
    }
    // The strip: one marker per poll plus the lanes' keys; the limit and the first 401 drawn.
    const polls = (report.checks[0]!.measurements as { polls: unknown[] }).polls.length;
    expect(
      await page
        .locator('#chart-REVOKE-PROPAGATION-svg .mk.accepted, #chart-REVOKE-PROPAGATION-svg .mk.rejected')
        .count(),
    ).toBe(polls + 4);
    expect(await page.locator('#chart-REVOKE-PROPAGATION-svg line.limit').count()).toBe(1);
    expect(await page.locator('#chart-REVOKE-PROPAGATION-svg line.first-reject').count()).toBe(1);
    // The timelines: six bands, a late retry marked by a cross.
    expect(await page.locator('#chart-HOOK-RETRY-FULL-SCHEDULE-svg rect.band').count()).toBe(6 + 1);
    expect(await page.locator('#chart-HOOK-RETRY-EARLY-SCHEDULE-svg .mk.observed.late').count()).toBe(1 + 1); // + legend
    expect(await page.locator('#chart-HOOK-RETRY-EARLY-SCHEDULE table.data').textContent()).toContain('never came');
    // A failed check says why, masked.
    const failed = page.locator('#check-AUTH-UNKNOWN-TOKEN');
    expect(await failed.locator('.failure').textContent()).toContain('Why it failed');
    expect(await page.content()).not.toContain(LEAKY_TOKEN);
    // A clause link lands on the clause's quoted text.
    const link = page.locator('#check-HOOK-RETRY-FULL-SCHEDULE .clause-ref a').first();
    const target = (await link.getAttribute('href'))!;
    expect(target).toBe('#clause-RETRY-2');
    await link.click();
    expect(await page.locator(target).isVisible()).toBe(true);
    expect(await page.locator(target).textContent()).toContain('retried');
    await screenshotCharts(page, join(SHOTS, 'report-fixture.png'));
    expect(browser!.offPage).toEqual([]);
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('a failed check shows the exchanges that decided it and the command that re-runs it, masked', async (ctx) => {
    if (missing) ctx.skip(missing);
    const report = fixtureReport();
    const failed = report.checks.find((check) => check.id === 'AUTH-UNKNOWN-TOKEN')!;
    // As the harness records them against the reference's bad-token-403 fault.
    failed.measurements = {
      evidence: [
        {
          request: 'GET /v1/whoami\nauthorization: Bearer svc_test_***(41 chars)',
          answer: 403,
          headers: { 'content-type': 'application/json' },
          body: '{"error":{"code":"invalid_token","message":"unknown token","request_id":"req_1"}}',
        },
      ],
      rerun: 'svc-harness certify --checks AUTH-UNKNOWN-TOKEN --seed 424805136',
    };
    const page = await open(report, 'evidence', '#check-AUTH-UNKNOWN-TOKEN');
    const row = page.locator('#check-AUTH-UNKNOWN-TOKEN');
    const evidence = row.locator('pre.evidence');
    expect(await evidence.isVisible()).toBe(true);
    const text = (await evidence.textContent())!;
    expect(text).toContain('> GET /v1/whoami');
    expect(text).toContain('< 403');
    expect(text).toContain('"code":"invalid_token"');
    expect(await row.locator('p.rerun code').textContent()).toBe(
      'svc-harness certify --checks AUTH-UNKNOWN-TOKEN --seed 424805136',
    );
    await row.screenshot({ path: join(SHOTS, 'report-evidence.png') });
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('fixture: filters by verdict, level, area, id and text, and keeps them in the address', async (ctx) => {
    if (missing) ctx.skip(missing);
    const report = fixtureReport();
    const total = report.checks.length;
    const page = await open(report, 'filters');
    expect(await visibleRows(page)).toBe(total);
    expect(await page.locator('#shown').textContent()).toBe(`${total} of ${total} checks shown`);

    await page.selectOption('#f-verdict', 'fail');
    expect(await visibleRows(page)).toBe(report.summary.fail);
    expect(await page.locator('#shown').textContent()).toBe(`${report.summary.fail} of ${total} checks shown`);
    expect(page.url()).toMatch(/#filter:verdict=fail$/);

    await page.selectOption('#f-level', 'must');
    expect(await visibleRows(page)).toBe(
      report.checks.filter((c) => c.verdict === 'fail' && c.level === 'must').length,
    );
    await page.click('#f-reset');
    expect(await visibleRows(page)).toBe(total);

    await page.selectOption('#f-level', 'observe');
    expect(await visibleRows(page)).toBe(1);
    await page.selectOption('#f-level', '');
    await page.selectOption('#f-area', 'webhook-retry');
    expect(await visibleRows(page)).toBe(2);
    await page.selectOption('#f-area', '');

    await page.fill('#f-id', 'HOOK-RETRY-*');
    expect(await visibleRows(page)).toBe(2);
    await page.fill('#f-id', 'revoke');
    expect(await visibleRows(page)).toBe(1);
    await page.fill('#f-id', '');
    await page.fill('#f-search', 'third active token');
    expect(await visibleRows(page)).toBe(1);
    expect(await page.locator('#check-TOKEN-LIMIT-TWO').isVisible()).toBe(true);
    await page.fill('#f-search', '');

    // The verdict counts in the header are buttons for the same filter.
    await page.click('.summary button[data-verdict=skip]');
    expect(await visibleRows(page)).toBe(report.summary.skip);
    expect(await page.locator('.summary button[data-verdict=skip]').getAttribute('aria-pressed')).toBe('true');
    await page.click('.summary button[data-verdict=skip]');
    expect(await visibleRows(page)).toBe(total);

    // A linked view opens filtered.
    const linked = await open(report, 'linked', '#filter:verdict=warn');
    expect(await linked.locator('#f-verdict').inputValue()).toBe('warn');
    expect(await visibleRows(linked)).toBe(report.summary.warn);
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('the last certification run: a chart per timing series, filters agree with the summary', async (ctx) => {
    if (missing) ctx.skip(missing);
    if (!existsSync(LATEST)) ctx.skip(`no ${LATEST}: run npm run certify first`);
    const report = JSON.parse(readFileSync(LATEST, 'utf8')) as RunReport;
    const page = await open(report, 'latest');
    const expected = report.checks.flatMap((check) => figuresFor(check).map((figure) => figure.id));
    expect(await page.locator('figure.chart-figure').count()).toBe(expected.length);
    for (const id of expected) {
      expect(await page.locator(`#${id} svg.chart`).isVisible()).toBe(true);
      expect(await page.locator(`#${id} table.data`).first().isVisible()).toBe(true);
    }
    expect(await visibleRows(page)).toBe(report.checks.length);
    for (const verdict of ['pass', 'fail', 'warn', 'skip'] as const) {
      await page.selectOption('#f-verdict', verdict);
      expect(await visibleRows(page)).toBe(report.summary[verdict]);
    }
    await page.selectOption('#f-verdict', '');
    await screenshotCharts(page, join(SHOTS, 'report-latest.png'));
    expect(browser!.offPage).toEqual([]);
    expect(pageErrors).toEqual([]);
  }, 60_000);
});
