/**
 * JUnit XML, the one writer for every report that has one (certify's junit.xml, the load
 * run's load-junit.xml): a document of test suites and cases, rendered so that it conforms
 * to the JUnit schema Jenkins validates with (fixtures/schemas/junit-10.xsd, checked with
 * xmllint in the tests): a testcase holds no <properties> there, so what a case needs to say
 * beside its verdict goes into its <system-out>, and <testsuites> carries no `skipped`. All
 * text goes through escapeXml, which also removes what XML 1.0 forbids.
 *
 * certify: one testcase per check id, so CI systems keep a history per check; one testsuite
 * per area. Leftovers of an incomplete clean-up are one more testcase, `clean-up`, with an
 * <error> (a problem of the run, not a check's verdict) listing each with the call that
 * removes it, so a CI system shows the run as not clean, as its exit code 3 does. An expected
 * failure is a <skipped type="expected-failure"> (src/expected/writers.ts says why).
 */
import { escapeXml } from './escape.js';
import { exchangeSummary, judgedExchange } from './evidence.js';
import type { RunReport } from './model.js';
import { buildText } from './provenance.js';
import { partialLine } from './selection.js';
import { expectedJunitOutcome } from '../expected/writers.js';

const seconds = (ms: number): string => (ms / 1000).toFixed(3);

/** A test case's verdict other than a pass: `failure` is the rule's, `error` the run's. */
export interface JunitOutcome {
  kind: 'failure' | 'error' | 'skipped';
  message: string;
  type?: string;
  /** The element's text; for failure and error the message when not given, for skipped none. */
  body?: string;
}

export interface JunitCase {
  classname: string;
  name: string;
  timeMs: number;
  outcome?: JunitOutcome;
  /** Lines of <system-out>, each escaped (and capped) on its own. */
  systemOut?: readonly string[];
}

export interface JunitSuite {
  name: string;
  timestamp: string;
  package: string;
  cases: readonly JunitCase[];
  /** The suite's time; the sum of its cases' when not given. */
  timeMs?: number;
  properties?: Readonly<Record<string, string>>;
}

export interface JunitDocument {
  name: string;
  timeMs: number;
  suites: readonly JunitSuite[];
}

function renderCase(testcase: JunitCase): string {
  const open = `    <testcase classname="${escapeXml(testcase.classname)}" name="${escapeXml(testcase.name)}" time="${seconds(testcase.timeMs)}">`;
  const { outcome } = testcase;
  let verdict = '';
  if (outcome) {
    const message = escapeXml(outcome.message);
    if (outcome.kind === 'skipped') {
      const type = outcome.type === undefined ? '' : ` type="${escapeXml(outcome.type)}"`;
      verdict =
        outcome.body === undefined
          ? `      <skipped${type} message="${message}"/>`
          : `      <skipped${type} message="${message}">${escapeXml(outcome.body)}</skipped>`;
    } else
      verdict = `      <${outcome.kind} message="${message}" type="${escapeXml(outcome.type ?? outcome.kind)}">${outcome.body === undefined ? message : escapeXml(outcome.body)}</${outcome.kind}>`;
  }
  const out =
    testcase.systemOut === undefined
      ? ''
      : `      <system-out>${testcase.systemOut.map((line) => escapeXml(line)).join('\n')}</system-out>`;
  return [open, verdict, out, '    </testcase>'].filter(Boolean).join('\n');
}

const count = (cases: readonly JunitCase[], kind: JunitOutcome['kind']): number =>
  cases.filter((testcase) => testcase.outcome?.kind === kind).length;

/** The document as JUnit XML, valid against fixtures/schemas/junit-10.xsd. */
export function renderJunitDocument(document: JunitDocument): string {
  const suites = document.suites.map((suite, index) => {
    const time = suite.timeMs ?? suite.cases.reduce((sum, testcase) => sum + testcase.timeMs, 0);
    const attributes = `name="${escapeXml(suite.name)}" tests="${suite.cases.length}" failures="${count(suite.cases, 'failure')}" errors="${count(suite.cases, 'error')}" skipped="${count(suite.cases, 'skipped')}" time="${seconds(time)}" timestamp="${escapeXml(suite.timestamp)}" id="${index}" package="${escapeXml(suite.package)}"`;
    const properties = Object.entries(suite.properties ?? {});
    const head =
      properties.length === 0
        ? []
        : [
            `    <properties>\n${properties.map(([name, value]) => `      <property name="${escapeXml(name)}" value="${escapeXml(value)}"/>`).join('\n')}\n    </properties>`,
          ];
    return `  <testsuite ${attributes}>\n${[...head, ...suite.cases.map(renderCase)].join('\n')}\n  </testsuite>`;
  });
  const cases = document.suites.flatMap((suite) => suite.cases);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${escapeXml(document.name)}" tests="${cases.length}" failures="${count(cases, 'failure')}" errors="${count(cases, 'error')}" time="${seconds(Math.max(0, document.timeMs || 0))}">\n${suites.join('\n')}\n</testsuites>\n`;
}

/** What every certify testsuite states about the run: whether it was partial, what was selected, and its provenance. */
function runProperties(report: RunReport): Record<string, string> {
  const { selection, provenance } = report;
  const partial = selection && partialLine(selection);
  return {
    ...(report.partial !== undefined ? { partial: String(report.partial) } : {}),
    ...(partial ? { 'partial.reason': partial } : {}),
    ...(selection
      ? { 'selection.tier': selection.tier, 'selection.selected': `${selection.selected} of ${selection.of_tier}` }
      : {}),
    ...(selection?.checks ? { 'selection.checks': selection.checks } : {}),
    ...(selection?.rerun_failed ? { 'selection.rerun_failed': selection.rerun_failed } : {}),
    ...(report.seed !== undefined ? { seed: String(report.seed) } : {}),
    'target.base_url': report.target.base_url,
    ...(provenance
      ? {
          'harness.build': buildText(provenance.harness),
          'spec.sha256': provenance.spec.sha256,
          'catalog.sha256': provenance.catalog.sha256,
          'control_contract.version': String(provenance.control_contract.version),
          ...(provenance.target_version ? { 'target.version': provenance.target_version } : {}),
          ...(provenance.image
            ? { 'image.reference': provenance.image.reference, 'image.digest': provenance.image.digest }
            : {}),
        }
      : {}),
  };
}

/** The exchange a failing assertion judged, and how to send it again: where a CI reader looks first. */
function judgedLines(check: RunReport['checks'][number]): string[] {
  const judged = judgedExchange(check);
  if (!judged) return [];
  return [
    `judged exchange: ${exchangeSummary(judged)}`,
    ...(typeof judged.reproduce === 'string' ? [`reproduce with: ${judged.reproduce}`] : []),
  ];
}

/** certify's junit.xml: one testsuite per area, one testcase per check, and the clean-up's leftovers. */
export function renderJunit(report: RunReport): string {
  const properties = runProperties(report);
  const byArea = new Map<string, RunReport['checks']>();
  for (const check of report.checks) byArea.set(check.area, [...(byArea.get(check.area) ?? []), check]);
  const suites: JunitSuite[] = [...byArea].map(([area, checks]) => ({
    name: area,
    timestamp: report.started_at,
    package: 'certify',
    properties,
    cases: checks.map((check): JunitCase => {
      const detail = check.detail ?? '';
      const about = `level ${check.level}, verdict ${check.verdict}${check.verdict === 'warn' ? ' (WARN)' : ''}; clause: ${check.clause}`;
      const listed = expectedJunitOutcome(check, report.expected_failures);
      const outcome: JunitOutcome | undefined =
        listed !== undefined
          ? listed.outcome
          : check.verdict === 'fail'
            ? { kind: 'failure', message: detail, type: check.level }
            : check.verdict === 'skip'
              ? { kind: 'skipped', message: detail }
              : check.verdict === 'error'
                ? { kind: 'error', message: detail, type: 'no-answer' }
                : undefined;
      return {
        classname: `certify.${area}`,
        name: `${check.id} ${check.title}`,
        timeMs: check.duration_ms,
        ...(outcome ? { outcome } : {}),
        systemOut: [about, ...(listed ? [listed.line] : []), ...(detail ? [detail] : []), ...judgedLines(check)],
      };
    }),
  }));
  const leftovers = report.leftovers ?? [];
  if (leftovers.length > 0) {
    suites.push({
      name: 'clean-up',
      timestamp: report.finished_at,
      package: 'certify',
      cases: [
        {
          classname: 'certify.clean-up',
          name: 'clean-up',
          timeMs: 0,
          outcome: {
            kind: 'error',
            message: `clean-up incomplete: ${leftovers.length} resources left on the target`,
            type: 'clean-up-incomplete',
            body: leftovers.map((leftover) => `${leftover.kind} ${leftover.id}: ${leftover.remove_with}`).join('\n'),
          },
        },
      ],
    });
  }
  return renderJunitDocument({
    name: report.partial ? 'certify (partial run)' : 'certify',
    timeMs: Date.parse(report.finished_at) - Date.parse(report.started_at),
    suites,
  });
}
