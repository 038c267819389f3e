/** Each command's expected-failures file: its setting, and the checks an entry may name. */
import { CHECKS, RECEIVER_CHECKS } from '../catalog/checks.js';
import type { Settings } from '../config/settings.js';
import { expectedFailuresOf, type ExpectedFailuresOfRun } from './run.js';

const SERVICE_IDS: ReadonlySet<string> = new Set(CHECKS.map((check) => check.id));
const RECEIVER_IDS: ReadonlySet<string> = new Set(RECEIVER_CHECKS.map((check) => check.id));

/** `certify`: CERTIFY_EXPECTED_FAILURES (or --expected-failures), CERTIFY_STRICT (or --strict). */
export function serviceExpectedFailures(
  settings: Pick<Settings, 'CERTIFY_EXPECTED_FAILURES' | 'CERTIFY_STRICT'>,
): ExpectedFailuresOfRun {
  return expectedFailuresOf({
    path: settings.CERTIFY_EXPECTED_FAILURES,
    strict: settings.CERTIFY_STRICT,
    setting: 'CERTIFY_EXPECTED_FAILURES',
    known: SERVICE_IDS,
    other: { ids: RECEIVER_IDS, command: 'svc-harness certify receiver' },
  });
}

/** `certify receiver`: TARGET_RECEIVER_EXPECTED_FAILURES (or --expected-failures), TARGET_RECEIVER_STRICT (or --strict). */
export function receiverExpectedFailures(path: string | undefined, strict: boolean): ExpectedFailuresOfRun {
  return expectedFailuresOf({
    path,
    strict,
    setting: 'TARGET_RECEIVER_EXPECTED_FAILURES',
    known: RECEIVER_IDS,
    other: { ids: SERVICE_IDS, command: 'svc-harness certify' },
  });
}
