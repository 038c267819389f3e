/**
 * load-junit.xml: one testcase per scenario threshold, a failed one naming the figure it
 * judged against its bound; valid against the JUnit schema the certification's junit.xml is
 * checked against, hostile text from the target included.
 */
import { describe, expect, it } from 'vitest';
import { compareDigests } from '../../../src/load/report/baseline.js';
import { digestSummary, failedDigest, skippedDigest } from '../../../src/load/report/digest.js';
import { renderLoadJunit } from '../../../src/load/report/junit.js';
import { loadExitCode } from '../../../src/load/report/write.js';
import { hasXmllint, junitSchemaProblems } from '../../support/xmllint.js';
import { callsSummary, loadReport } from '../k6-summary.js';

const HOSTILE = 'preparation failed: control answered 500 "<b>&amp;</b>" ]]> \u001b[2J\u0007 \ud800 \uffff end';

const summary = callsSummary({ ok: false, p95: 612.5 });
summary.metrics['checks{check:answer names a call_ id}'] = {
  type: 'rate',
  values: { rate: 0.75 },
  thresholds: { 'rate==1': { ok: false } },
};
const failedCalls = digestSummary(summary, 99, 'calls');
const passedCalls = digestSummary(callsSummary(), 0, 'calls');

/** The testcases of an XML text: [classname, name, what is inside]. */
function cases(xml: string): Array<[string, string, string]> {
  return [...xml.matchAll(/<testcase classname="([^"]*)" name="([^"]*)" time="[^"]*">([\s\S]*?)<\/testcase>/g)].map(
    (m) => [m[1]!, m[2]!, m[3]!],
  );
}

describe('load-junit.xml', () => {
  const xml = renderLoadJunit(
    loadReport([
      failedCalls,
      skippedDigest('rotation', 'needs the control interface'),
      failedDigest('fanout', HOSTILE),
      { ...passedCalls, scenario: 'calls-ramp', exitCode: 108 },
    ]),
  );

  it('has one testcase per scenario threshold: classname the scenario, name the expression on its metric', () => {
    const calls = cases(xml).filter(([classname]) => classname === 'calls');
    expect(calls.map(([, name]) => name)).toEqual(
      failedCalls.thresholds.map((t) => `${t.metric} ${t.expression}`.replaceAll('<', '&lt;').replaceAll('>', '&gt;')),
    );
    expect(calls).toHaveLength(4);
  });

  it('fails a threshold with the figure it judged and its bound', () => {
    const [, , body] = cases(xml).find(([, name]) => name === 'http_req_duration{endpoint:calls.place} p(95)&lt;500')!;
    expect(body).toContain(
      '<failure message="p(95) of http_req_duration{endpoint:calls.place} was 612.5 ms; the threshold is p(95)&lt;500" type="threshold">',
    );
    const [, , check] = cases(xml).find(([, name]) => name.startsWith('checks{'))!;
    expect(check).toContain(
      'message="rate of checks{check:answer names a call_ id} was 0.75; the threshold is rate==1"',
    );
    const [, , held] = cases(xml).find(([, name]) => name === 'http_req_duration{endpoint:calls.place} p(99)&lt;1000')!;
    expect(held).not.toContain('<failure');
    expect(held).toContain('<system-out>p(99) 200\nheld</system-out>');
  });

  it('marks a skipped scenario skipped, and one that could not run or whose k6 ended otherwise an error', () => {
    expect(cases(xml).find(([classname]) => classname === 'rotation')![2]).toContain(
      '<skipped message="needs the control interface"/>',
    );
    expect(cases(xml).find(([classname]) => classname === 'fanout')![2]).toMatch(
      /<error message="preparation failed: [^"]*" type="could-not-run">/,
    );
    expect(cases(xml).find(([classname, name]) => classname === 'calls-ramp' && name === 'run')![2]).toContain(
      '<error message="k6 exited 108" type="k6-exit">',
    );
    expect(xml).toMatch(/<testsuites name="load" tests="10" failures="2" errors="2" time="60.000">/);
    expect(xml).toContain('<property name="run_id" value="3f2a9c1b"/>');
  });

  it('escapes what the target said, as the certification JUnit does', () => {
    expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u001F\uFFFE\uFFFF]|[\uD800-\uDFFF]/);
    expect(xml).toContain('\\u001b[2J\\u0007');
    expect(xml).toContain('&quot;&lt;b&gt;&amp;amp;&lt;/b&gt;&quot; ]]&gt;');
  });

  it('fails a figure that regressed past the baseline', () => {
    const comparison = compareDigests([digestSummary(callsSummary({ p95: 150 }), 0, 'calls')], [passedCalls], 0.1);
    const regressed = renderLoadJunit(
      loadReport([digestSummary(callsSummary({ p95: 150 }), 0, 'calls')], { file: 'b.json', comparison }),
    );
    const [, , body] = cases(regressed).find(
      ([, name]) => name === 'baseline http_req_duration{endpoint:calls.place} p(95)',
    )!;
    expect(body).toContain(
      '<failure message="http_req_duration{endpoint:calls.place} p(95): 150.0 ms against 100.0 ms in the baseline (+50.0 %); lower is better, tolerance 10 %" type="regression">',
    );
  });

  it.skipIf(!hasXmllint)('validates against the JUnit schema the certification junit.xml is checked against', () => {
    expect(junitSchemaProblems(xml)).toEqual([]);
    expect(junitSchemaProblems(renderLoadJunit(loadReport([passedCalls])))).toEqual([]);
  });

  it.skipIf(!hasXmllint)('fails the schema once broken: the check is really made', () => {
    expect(
      junitSchemaProblems(xml.replace('<testsuites name="load"', '<testsuites bogus="1" name="load"')).length,
    ).toBeGreaterThan(0);
  });
});

describe('the exit code of a load verdict', () => {
  it("is 0 passed, 99 (k6's) a threshold failed, 1 failed otherwise", () => {
    expect(loadExitCode(true, [passedCalls])).toBe(0);
    expect(loadExitCode(false, [passedCalls, failedCalls])).toBe(99);
    expect(loadExitCode(false, [passedCalls, failedDigest('fanout', 'preparation failed')])).toBe(1);
    // A regression only: every threshold held.
    expect(loadExitCode(false, [passedCalls])).toBe(1);
  });
});
