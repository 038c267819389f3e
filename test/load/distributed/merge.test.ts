import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { SamplesError } from '../../../src/errors.js';
import { holds, mergeSegments, parseMetricKey, percentile } from '../../../src/load/distributed/merge.js';
import { segmentArgs } from '../../../src/load/distributed/segments.js';

const dir = mkdtempSync(join(tmpdir(), 'merge-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const metricLine = (name: string, type: string) =>
  JSON.stringify({
    type: 'Metric',
    data: { name, type, contains: 'default', thresholds: [], submetrics: null },
    metric: name,
  });
const point = (metric: string, value: number, tags: Record<string, string>, second = 0) =>
  JSON.stringify({
    metric,
    type: 'Point',
    data: { time: new Date(Date.UTC(2026, 10, 25, 12, 0, second)).toISOString(), value, tags },
  });

/** A segment's k6 --out json file: `durations` on the place-call endpoint, one request each, `failed` of them failed. */
function segment(file: string, durations: readonly number[], failed: number, gzip: boolean): string {
  const lines = [
    metricLine('http_req_duration', 'trend'),
    metricLine('http_req_failed', 'rate'),
    metricLine('http_reqs', 'counter'),
  ];
  durations.forEach((ms, i) => {
    const tags = { endpoint: 'calls.place', scenario: 'constant_rate' };
    lines.push(
      point('http_req_duration', ms, tags, i % 60),
      point('http_req_failed', i < failed ? 1 : 0, tags, i % 60),
      point('http_reqs', 1, tags, i % 60),
    );
    // Another endpoint's slow request: outside the submetric, never in its percentiles.
    lines.push(point('http_req_duration', 60_000, { endpoint: 'whoami' }, i % 60));
  });
  const text = `${lines.join('\n')}\n`;
  const path = join(dir, file);
  writeFileSync(path, gzip ? gzipSync(text) : text);
  return path;
}

describe('merging segments into one verdict', () => {
  // Segment 1 fast (1..99 ms), segment 2 with a slow tail: its p(99) alone is slow, the whole test's is not.
  const fast = Array.from({ length: 990 }, (_, i) => 1 + (i % 99));
  const slowTail = [...Array.from({ length: 100 }, (_, i) => 1 + (i % 99)), ...Array.from({ length: 5 }, () => 2_000)];
  const files = [segment('a.ndjson', fast, 0, false), segment('b.ndjson.gz', slowTail, 3, true)];
  const thresholds = {
    'http_req_duration{endpoint:calls.place}': ['p(99)<1000', 'max<1000'],
    'http_req_failed{endpoint:calls.place}': [{ threshold: 'rate<=0.01' }],
    'http_reqs{endpoint:calls.place}': ['rate>=5', 'count==1095'],
    dropped_iterations: ['count<=0'],
  };

  it("judges a percentile on every sample, not on an average of the segments' percentiles", async () => {
    const merged = await mergeSegments({ files, thresholds, durationMs: 100_000 });
    const duration = merged.metrics['http_req_duration{endpoint:calls.place}']!;
    const all = [...fast, ...slowTail].sort((a, b) => a - b);
    expect(duration.values['p(99)']).toBeCloseTo(percentile(all, 0.99), 6);
    expect(duration.values.count).toBe(1095);
    // Segment 2 alone has p(99) 2000 ms; the average of the two segments' p(99)s is over 1 s.
    const p99b = percentile(
      [...slowTail].sort((a, b) => a - b),
      0.99,
    );
    const p99a = percentile(
      [...fast].sort((a, b) => a - b),
      0.99,
    );
    expect((p99a + p99b) / 2).toBeGreaterThan(1000);
    expect(duration.thresholds).toEqual({ 'p(99)<1000': { ok: true }, 'max<1000': { ok: false } });
  });

  it("counts rates and counters over all segments and the whole run's duration; a metric without samples is zero", async () => {
    const merged = await mergeSegments({ files, thresholds, durationMs: 100_000 });
    expect(merged.metrics['http_req_failed{endpoint:calls.place}']!.values.rate).toBeCloseTo(3 / 1095, 9);
    expect(merged.metrics['http_req_failed{endpoint:calls.place}']!.thresholds).toEqual({ 'rate<=0.01': { ok: true } });
    expect(merged.metrics['http_reqs{endpoint:calls.place}']!.values).toEqual({ count: 1095, rate: 10.95 });
    expect(merged.metrics.dropped_iterations!.thresholds).toEqual({ 'count<=0': { ok: true } });
    expect(merged.state?.testRunDurationMs).toBe(100_000);
  });

  it('adds the percentiles asked for (--summary-trend-stats) to every trend it summarizes', async () => {
    const merged = await mergeSegments({ files, thresholds, durationMs: 100_000, percentiles: [99.9, 50] });
    const all = [...fast, ...slowTail].sort((a, b) => a - b);
    expect(merged.metrics['http_req_duration{endpoint:calls.place}']!.values['p(99.9)']).toBeCloseTo(
      percentile(all, 0.999),
      6,
    );
    expect(merged.metrics['http_req_duration{endpoint:calls.place}']!.values['p(50)']).toBeCloseTo(
      percentile(all, 0.5),
      6,
    );
  });

  it("says which runs the samples are of, and the tags every sample k6 wrote carries, k6's own apart", async () => {
    const tagged = (file: string, runId: string, extra: Record<string, string>) => {
      const path = join(dir, file);
      writeFileSync(
        path,
        [
          metricLine('http_reqs', 'counter'),
          point('http_reqs', 1, { run_id: runId, testid: 'r2.4', scenario: 'constant_rate', group: '', ...extra }),
          point('http_reqs', 1, { run_id: runId, testid: 'r2.4', group: '::setup' }),
        ].join('\n'),
      );
      return path;
    };
    // The harness's own figures (fan-out's receivers) carry no tag: they take nothing away.
    const observed = join(dir, 'observed.ndjson');
    writeFileSync(observed, point('http_reqs', 0, {}) + '\n');
    const merged = await mergeSegments({
      files: [tagged('r1.ndjson', 'run1', { shard: 'a' }), tagged('r2.ndjson', 'run1', { shard: 'b' }), observed],
      thresholds: { http_reqs: ['count>0'] },
      durationMs: 1_000,
    });
    expect(merged.run_ids).toEqual(['run1']);
    expect(merged.run_tags).toEqual({ run_id: 'run1', testid: 'r2.4' });
    const two = await mergeSegments({
      files: [tagged('r3.ndjson', 'run1', {}), tagged('r4.ndjson', 'run2', {})],
      thresholds: { http_reqs: ['count>0'] },
      durationMs: 1_000,
    });
    expect(two.run_ids).toEqual(['run1', 'run2']);
  });

  it('refuses a file that is not k6 JSON output, naming the line', async () => {
    const bad = join(dir, 'bad.ndjson');
    writeFileSync(bad, `${metricLine('http_reqs', 'counter')}\nnot json at all\n`);
    await expect(mergeSegments({ files: [bad], thresholds, durationMs: 1_000 })).rejects.toThrow(SamplesError);
    await expect(mergeSegments({ files: [bad], thresholds, durationMs: 1_000 })).rejects.toThrow(
      /bad\.ndjson:2 is not a line of k6's JSON output/,
    );
  });

  it('refuses a threshold on a custom metric it knows nothing of, rather than passing it', async () => {
    await expect(mergeSegments({ files, thresholds: { never_seen: ['count==0'] }, durationMs: 1_000 })).rejects.toThrow(
      /never_seen: no sample and no type/,
    );
    const typed = await mergeSegments({
      files,
      thresholds: { never_seen: ['count==0'] },
      durationMs: 1_000,
      knownTypes: { never_seen: 'counter' },
    });
    expect(typed.metrics.never_seen!.thresholds).toEqual({ 'count==0': { ok: true } });
  });
});

describe('threshold expressions and metric keys', () => {
  it("reads k6's aggregates and operators", () => {
    const values = { 'p(95)': 480, rate: 1, count: 3, avg: 10 };
    expect(holds('p(95)<500', values)).toBe(true);
    expect(holds('p(95) < 480', values)).toBe(false);
    expect(holds('rate==1', values)).toBe(true);
    expect(holds('count>=4', values)).toBe(false);
    expect(holds('avg!=10', values)).toBe(false);
    expect(() => holds('p(95)<500ms', values)).toThrow(SamplesError);
    expect(() => holds('p(95)<500ms', values)).toThrow(/is not/);
    expect(() => holds('max<5', values)).toThrow(/has no max/);
  });

  it('parses submetric keys, tag values with spaces included', () => {
    expect(parseMetricKey('checks{check:answer names a call_ id}')).toEqual({
      key: 'checks{check:answer names a call_ id}',
      name: 'checks',
      tags: { check: 'answer names a call_ id' },
    });
    expect(parseMetricKey('http_reqs{endpoint:calls.place,status:201}').tags).toEqual({
      endpoint: 'calls.place',
      status: '201',
    });
    expect(() => parseMetricKey('http_reqs{endpoint}')).toThrow(SamplesError);
    expect(() => parseMetricKey('http_reqs{endpoint}')).toThrow(/not tag:value/);
  });

  it('gives each of n processes its execution segment, as k6-operator does', () => {
    expect(segmentArgs(0, 1)).toEqual(['--execution-segment', '0:1', '--execution-segment-sequence', '0,1']);
    expect([0, 1, 2].map((i) => segmentArgs(i, 3)[1])).toEqual(['0:1/3', '1/3:2/3', '2/3:1']);
    expect(segmentArgs(2, 3)[3]).toBe('0,1/3,2/3,1');
  });
});
