/**
 * Every report writer, and the console, given a report whose target answered with hostile
 * text (test/hostile/hostile-text.ts) in every field it can reach: nothing unsafe is
 * written raw, junit.xml validates against the JUnit schema, report.html holds no markup
 * of the target's, and report.json still conforms to its published schema.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { summarize, type RunReport } from '../../src/report/model.js';
import { reportSchemaProblems } from '../../src/report/validate.js';
import { writeReports } from '../../src/report/write.js';
import { writeLine } from '../../src/text/console.js';
import { HOSTILE_TEXT, unsafeCharacters } from '../hostile/hostile-text.js';
import { hasXmllint, junitSchemaProblems } from '../support/xmllint.js';
import { fixtureReport } from './fixture.js';

function hostileReport(): RunReport {
  const base = fixtureReport();
  const checks = base.checks.map((check) => ({
    ...check,
    title: `${check.title} ${HOSTILE_TEXT}`,
    clause: `${check.clause} ${HOSTILE_TEXT}`,
    detail: `expected 401 invalid_token, got 401 ${HOSTILE_TEXT}`,
    measurements: {
      ...check.measurements,
      evidence: { response: `401 ${HOSTILE_TEXT}` },
      [`header ${HOSTILE_TEXT}`]: HOSTILE_TEXT,
    },
  }));
  return {
    ...base,
    target: { ...base.target, base_url: `http://127.0.0.1:1/${HOSTILE_TEXT}` },
    checks,
    summary: summarize(checks),
  };
}

const dir = mkdtempSync(join(tmpdir(), 'hostile-text-'));
writeReports(hostileReport(), dir);
const read = (name: string) => readFileSync(join(dir, name), 'utf8');

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('reports of a target that answers with hostile text', () => {
  it.each([['report.json'], ['junit.xml'], ['report.md'], ['report.html']])(
    '%s holds no raw control character or invalid Unicode',
    (name) => {
      expect(unsafeCharacters(read(name))).toEqual([]);
    },
  );

  it('report.md shows the escapes visibly', () => {
    expect(read('report.md')).toContain('\\u001b[2J');
    expect(read('report.md')).toContain('\\u001b]0;pwned\\u0007');
  });

  it('report.html holds no raw markup of the target, and shows it escaped', () => {
    const html = read('report.html');
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html.match(/<script>/g)).toHaveLength(1); // the page's own filter script
  });

  it('report.json is JSON of the published schema', () => {
    expect(reportSchemaProblems(JSON.parse(read('report.json')))).toEqual([]);
  });

  it.skipIf(!hasXmllint)('junit.xml validates against the JUnit schema (xmllint)', () => {
    expect(junitSchemaProblems(read('junit.xml'))).toEqual([]);
  });

  it('a console line shows the escapes instead of sending them', () => {
    const out = new PassThrough();
    writeLine(out, `  FAIL AUTH-UNKNOWN-TOKEN ${HOSTILE_TEXT}`);
    const line = String(out.read());
    expect(unsafeCharacters(line)).toEqual([]);
    expect(line).toContain('\\u001b[2J');
  });
});

describe('junit.xml of an ordinary report', () => {
  it.skipIf(!hasXmllint)('validates against the JUnit schema (xmllint)', () => {
    const plain = mkdtempSync(join(tmpdir(), 'junit-'));
    try {
      writeReports(fixtureReport(), plain);
      expect(junitSchemaProblems(readFileSync(join(plain, 'junit.xml')))).toEqual([]);
    } finally {
      rmSync(plain, { recursive: true, force: true });
    }
  });

  it.skipIf(!hasXmllint)('fails validation where the schema says so (the check can fail)', () => {
    expect(
      junitSchemaProblems(
        '<testsuites skipped="1"><testsuite name="a" tests="1" failures="0" errors="0"><testcase name="x"><properties/></testcase></testsuite></testsuites>',
      ),
    ).not.toEqual([]);
    expect(junitSchemaProblems('<testsuites><testsuite name="\u0001"/></testsuites>').join(' ')).toMatch(
      /not well-formed|Char|invalid/i,
    );
  });
});
