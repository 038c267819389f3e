import { describe, expect, it } from 'vitest';
import { digestSummary, failedDigest, skippedDigest } from '../../../src/load/report/digest.js';
import { labelName, scenarioSeries, statName } from '../../../src/load/store/series.js';
import { chooseStore, K6_DEFAULT_RW_URL, storeTarget } from '../../../src/load/store/store.js';
import { parseK6Options } from '../../../src/load/k6/options.js';
import { mask } from '../../../src/secrets/mask.js';
import { callsSummary } from '../k6-summary.js';

const AT = 1_795_726_948_752;
type Series = ReturnType<typeof scenarioSeries>;
const find = (series: Series, name: string, labels: Record<string, string> = {}) =>
  series.filter(
    (s) => s.labels.__name__ === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value),
  );

describe("a scenario's series", () => {
  const summary = callsSummary({ ok: false, p95: 612.5 });
  const digest = digestSummary(summary, 99, 'calls');
  const series = scenarioSeries({
    runId: 'r1',
    scenario: 'calls',
    digest,
    summary,
    labels: { testid: 'release 2.4' },
    timestampMs: AT,
  });

  it('are the summary values of thresholded and reported metrics, a submetric tag as a label', () => {
    expect(find(series, 'svc_load_http_req_duration_p95', { endpoint: 'calls.place' }).map((s) => s.samples)).toEqual([
      [{ value: 612.5, timestampMs: AT }],
    ]);
    expect(find(series, 'svc_load_http_reqs_count', { endpoint: 'calls.place' })[0]!.samples[0]!.value).toBe(1000);
    expect(find(series, 'svc_load_dropped_iterations_count')[0]!.samples[0]!.value).toBe(0);
    // Neither thresholded nor a report figure: not written.
    expect(
      series.some((s) => s.labels.__name__ === 'svc_load_http_req_duration_p95' && s.labels.endpoint === undefined),
    ).toBe(false);
  });

  it('carry the run id, the scenario and the run tags on every series', () => {
    for (const s of series)
      expect(s.labels).toMatchObject({ run_id: 'r1', load_scenario: 'calls', testid: 'release 2.4' });
  });

  it('say each threshold and the scenario passed or not, as 1 or 0', () => {
    expect(
      find(series, 'svc_load_threshold_passed', {
        metric: 'http_req_duration{endpoint:calls.place}',
        threshold: 'p(95)<500',
      })[0]!.samples[0]!.value,
    ).toBe(0);
    expect(find(series, 'svc_load_threshold_passed', { threshold: 'p(99)<1000' })[0]!.samples[0]!.value).toBe(1);
    expect(find(series, 'svc_load_passed')[0]!.samples[0]!.value).toBe(0);
  });

  it('are none for a skipped scenario, and only the verdict for one that could not run', () => {
    expect(
      scenarioSeries({
        runId: 'r1',
        scenario: 'rotation',
        digest: skippedDigest('rotation', 'no control'),
        timestampMs: AT,
      }),
    ).toEqual([]);
    const failed = scenarioSeries({
      runId: 'r1',
      scenario: 'fanout',
      digest: failedDigest('fanout', 'preparation failed'),
      timestampMs: AT,
    });
    expect(failed.map((s) => [s.labels.__name__, s.samples[0]!.value])).toEqual([['svc_load_passed', 0]]);
  });

  it('name statistics as k6 does and make tag names label names', () => {
    expect(['p(95)', 'p(99.9)', 'med', 'count'].map(statName)).toEqual(['p95', 'p999', 'med', 'count']);
    expect(['endpoint', 'a-b.c', '9lives', '__name__'].map(labelName)).toEqual([
      'endpoint',
      'a_b_c',
      '_9lives',
      'tag__name__',
    ]);
  });
});

describe('the metrics store of a run', () => {
  const env = {};
  it('is --prometheus-rw, else LOAD_PROMETHEUS_RW_URL, k6 told to write there too', () => {
    const store = chooseStore({
      flag: 'http://127.0.0.1:9090/api/v1/write',
      setting: 'http://other:9090/api/v1/write',
      k6Options: parseK6Options([], 1),
      env,
    })!;
    expect(store).toMatchObject({
      url: 'http://127.0.0.1:9090/api/v1/write',
      source: '--prometheus-rw',
      k6: {
        args: ['--out', 'experimental-prometheus-rw'],
        env: { K6_PROMETHEUS_RW_SERVER_URL: 'http://127.0.0.1:9090/api/v1/write' },
      },
    });
    expect(chooseStore({ setting: 'http://other:9090/api/v1/write', env })!.source).toBe('LOAD_PROMETHEUS_RW_URL');
  });

  it("is where k6 writes when the k6 options send k6's samples there, and none otherwise", () => {
    const k6Options = parseK6Options(['--out', 'experimental-prometheus-rw'], 1);
    expect(
      chooseStore({ k6Options, env: { K6_PROMETHEUS_RW_SERVER_URL: 'http://prom:9090/api/v1/write' } }),
    ).toMatchObject({ url: 'http://prom:9090/api/v1/write', source: 'K6_PROMETHEUS_RW_SERVER_URL', k6: { args: [] } });
    expect(chooseStore({ k6Options, env })!.url).toBe(K6_DEFAULT_RW_URL);
    expect(chooseStore({ k6Options: parseK6Options(['--out', 'influxdb'], 1), env })).toBeUndefined();
  });

  it("takes k6's credentials, or the URL's, and masks them", () => {
    const fromUrl = storeTarget('https://perf:s3cret-store-pass@prom.example.test/api/v1/write', {});
    expect(fromUrl.url).toBe('https://prom.example.test/api/v1/write');
    expect(fromUrl.headers).toEqual({
      Authorization: `Basic ${Buffer.from('perf:s3cret-store-pass').toString('base64')}`,
    });
    expect(mask('password s3cret-store-pass')).not.toContain('s3cret-store-pass');
    expect(
      storeTarget('http://prom/api/v1/write', { K6_PROMETHEUS_RW_BEARER_TOKEN: 'bearer-token-of-store' }).headers,
    ).toEqual({ Authorization: 'Bearer bearer-token-of-store' });
  });

  it('refuses what is not an http URL (UsageError, exit 2)', () => {
    expect(() => chooseStore({ flag: 'prom:9090', env })).toThrow(
      /--prometheus-rw: prom:9090 is not an http or https URL/,
    );
    expect(() => chooseStore({ flag: 'not a url', env })).toThrow(/is not a URL/);
  });
});
