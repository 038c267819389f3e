/**
 * The in-toto Statement v1 of a run (github.com/in-toto/attestation, spec/v1): its subjects
 * are the report files by sha256 (and the certified image by digest), its predicate the
 * test-result predicate v0.1 (spec/predicates/test-result.md). Everything the predicate says
 * comes from the one RunReport; nothing is recomputed.
 *
 * Mapping: `result` is PASSED for a run whose verdict is PASSED without warnings, WARNED with
 * some, FAILED for every other verdict (a failed must, coverage short, no verdict, leftovers,
 * interrupted: the run's own verdict is in the `run` configuration entry). `failedTests`
 * holds the checks that failed and those that ended in error (no verdict is no pass); skipped
 * checks are in no list. `configuration` names what was tested and by what, one resource
 * descriptor each: harness, spec, control contract, catalog, run, target (and image).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { runVerdict, type RunReport } from '../report/model.js';
import { buildText } from '../report/provenance.js';

export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
export const TEST_RESULT_PREDICATE = 'https://in-toto.io/attestation/test-result/v0.1';

/** The media types of the report files, by name: how a verifier tells a report subject from the image's. */
export const REPORT_MEDIA_TYPES: Readonly<Record<string, string>> = {
  'report.json': 'application/json',
  'junit.xml': 'application/xml',
  'report.md': 'text/markdown',
  'report.html': 'text/html',
};
/** An image's id is the digest of its configuration. */
export const IMAGE_MEDIA_TYPE = 'application/vnd.oci.image.config.v1+json';

export interface ResourceDescriptor {
  name?: string;
  uri?: string;
  digest?: Record<string, string>;
  mediaType?: string;
  annotations?: Record<string, unknown>;
}

export type TestResult = 'PASSED' | 'WARNED' | 'FAILED';

export interface TestResultPredicate {
  result: TestResult;
  configuration: ResourceDescriptor[];
  passedTests: string[];
  warnedTests: string[];
  failedTests: string[];
}

export interface Statement {
  _type: typeof STATEMENT_TYPE;
  subject: ResourceDescriptor[];
  predicateType: typeof TEST_RESULT_PREDICATE;
  predicate: TestResultPredicate;
}

export function testResultOf(report: RunReport): TestResult {
  if (runVerdict(report) !== 'PASSED') return 'FAILED';
  return report.checks.some((check) => check.verdict === 'warn') ? 'WARNED' : 'PASSED';
}

export function fileSubject(path: string): ResourceDescriptor {
  const name = basename(path);
  return {
    name,
    digest: { sha256: createHash('sha256').update(readFileSync(path)).digest('hex') },
    ...(REPORT_MEDIA_TYPES[name] ? { mediaType: REPORT_MEDIA_TYPES[name] } : {}),
  };
}

function imageDescriptor(image: NonNullable<NonNullable<RunReport['provenance']>['image']>): ResourceDescriptor {
  return {
    name: image.reference,
    digest: { sha256: image.digest.replace(/^sha256:/, '') },
    mediaType: IMAGE_MEDIA_TYPE,
    ...(image.repo_digests?.length ? { annotations: { repoDigests: image.repo_digests } } : {}),
  };
}

/** Who ran what against what: the provenance of report.json as resource descriptors. */
function configurationOf(report: RunReport): ResourceDescriptor[] {
  const { provenance, selection } = report;
  const run: ResourceDescriptor = {
    name: 'run',
    annotations: {
      verdict: runVerdict(report),
      tier: report.tier,
      ...(report.seed !== undefined ? { seed: report.seed } : {}),
      startedAt: report.started_at,
      finishedAt: report.finished_at,
      partial: report.partial ?? false,
      ...(selection ? { selection } : {}),
      summary: report.summary,
      ...(report.coverage
        ? {
            mustCoveragePercent: report.coverage.must_percent,
            minMustCoveragePercent: report.coverage.min_must_percent,
          }
        : {}),
    },
  };
  const target: ResourceDescriptor = {
    name: 'target',
    uri: report.target.base_url,
    annotations: {
      embeddedReference: report.target.embedded_reference,
      ...(provenance?.target_version ? { version: provenance.target_version } : {}),
    },
  };
  if (!provenance) return [run, target];
  const { harness } = provenance;
  return [
    {
      name: harness.name,
      uri: `pkg:npm/${harness.name}@${harness.version}`,
      ...(harness.build.commit ? { digest: { gitCommit: harness.build.commit } } : {}),
      annotations: {
        role: 'harness',
        version: harness.version,
        build: buildText(harness),
        ...(harness.build.modified !== undefined ? { modified: harness.build.modified } : {}),
      },
    },
    { name: provenance.spec.document, digest: { sha256: provenance.spec.sha256 }, annotations: { role: 'spec' } },
    {
      name: provenance.control_contract.document,
      digest: { sha256: provenance.control_contract.sha256 },
      annotations: { role: 'control contract', version: provenance.control_contract.version },
    },
    {
      name: 'catalog',
      digest: { sha256: provenance.catalog.sha256 },
      annotations: {
        role: 'check catalog',
        checks: provenance.catalog.checks,
        serialization: 'JSON, object keys sorted, no white space',
      },
    },
    run,
    target,
    ...(provenance.image ? [imageDescriptor(provenance.image)] : []),
  ];
}

/** The Statement of a run whose reports were written to `reportFiles`. */
export function statementOf(report: RunReport, reportFiles: readonly string[]): Statement {
  const ids = (...verdicts: string[]) =>
    report.checks.filter((check) => verdicts.includes(check.verdict)).map((check) => check.id);
  const image = report.provenance?.image;
  return {
    _type: STATEMENT_TYPE,
    subject: [...reportFiles.map(fileSubject), ...(image ? [imageDescriptor(image)] : [])],
    predicateType: TEST_RESULT_PREDICATE,
    predicate: {
      result: testResultOf(report),
      configuration: configurationOf(report),
      passedTests: ids('pass'),
      warnedTests: ids('warn'),
      failedTests: ids('fail', 'error'),
    },
  };
}
