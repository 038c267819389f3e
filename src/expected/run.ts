/** The expected-failures file of one run, read at its start (a bad file stops it: exit 2) and marked on its report at the end. */
import { readExpectedFailures, type ExpectedFailure } from './file.js';
import { markExpectedFailures, type ExpectedFailureMark } from './mark.js';

export interface ExpectedFailuresOfRun {
  entries: readonly ExpectedFailure[];
  /** For report.json's `expected_failures`; undefined without a file. */
  run: { file: string; strict: boolean } | undefined;
}

export const NO_EXPECTED_FAILURES: ExpectedFailuresOfRun = { entries: [], run: undefined };

export interface ExpectedFailuresSource {
  /** The file, as given; undefined: none. */
  path: string | undefined;
  strict: boolean;
  /** The setting it came from, for messages. */
  setting: string;
  /** The ids of the command's checks. */
  known: ReadonlySet<string>;
  /** The other command's ids, so that a check of the wrong command is named as such. */
  other?: { ids: ReadonlySet<string>; command: string };
}

export function expectedFailuresOf(source: ExpectedFailuresSource): ExpectedFailuresOfRun {
  if (source.path === undefined) return NO_EXPECTED_FAILURES;
  return {
    entries: readExpectedFailures(source.path, source.setting, source.known, source.other),
    run: { file: source.path, strict: source.strict },
  };
}

interface Reportable {
  checks: Array<{ id: string; verdict: string; expected_failure?: ExpectedFailureMark | undefined }>;
  expected_failures?: { file: string; strict: boolean } | undefined;
}

/** The report with its listed checks marked and the run's file recorded; unchanged without a file. */
export function withExpectedFailures<R extends Reportable>(
  report: R,
  expected: ExpectedFailuresOfRun,
  now = new Date(),
): R {
  if (expected.run === undefined) return report;
  return {
    ...report,
    checks: markExpectedFailures(report.checks, expected.entries, now),
    expected_failures: expected.run,
  };
}
