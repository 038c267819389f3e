import { dirname, resolve } from 'node:path';
import { readSettingSources, settingsHelp } from '../../config/settings.js';
import { writeLine } from '../../text/console.js';
import { UsageError, type Command } from '../command.js';

export const certifyCommand: Command = {
  words: ['certify'],
  summary: 'Certify a service against the interface spec.',
  description:
    'The target is SVC_BASE_URL (or SVC_IMAGE); with neither, the bundled reference implementation. Reports\n' +
    '(report.json, junit.xml, report.md, report.html) go to CERTIFY_REPORT_DIR; with CERTIFY_SIGNING_KEY, also a signed\n' +
    'attestation.intoto.json (check it with `svc-harness verify`).',
  options: {
    'base-url': { type: 'string', value: '<url>', description: 'the service under test; wins over SVC_BASE_URL' },
    checks: {
      type: 'string',
      value: '<ids>',
      description: 'only these checks: ids or prefixes ending in *, comma-separated; wins over CERTIFY_CHECKS',
    },
    tier: { type: 'string', value: 'fast|full', description: 'wins over CERTIFY_TIER' },
    'report-dir': { type: 'string', value: '<dir>', description: 'where the reports go; wins over CERTIFY_REPORT_DIR' },
    seed: {
      type: 'string',
      value: '<n>',
      description: "the seed of every generated check (report.json's seed re-runs a run's); wins over FAST_CHECK_SEED",
    },
    'rerun-failed': {
      type: 'string',
      value: '<report.json>',
      description:
        'only the checks that failed, warned or ended in error in that report, with its seed; a partial run, whose reports go beside it (<its folder>-rerun) unless --report-dir names another folder',
    },
    'target-version': {
      type: 'string',
      value: '<version>',
      description:
        'the version or build of the service under test, carried in every report; wins over CERTIFY_TARGET_VERSION',
    },
    'allow-production': {
      type: 'boolean',
      description: 'allow a production (svc_live_) target; same as CERTIFY_ALLOW_PRODUCTION=true',
    },
    'expected-failures': {
      type: 'string',
      value: '<file>',
      description:
        'checks expected to fail (YAML or JSON, schemas/expected-failures.schema.json); wins over CERTIFY_EXPECTED_FAILURES',
    },
    strict: {
      type: 'boolean',
      description: 'an expected failure that passes fails the run; same as CERTIFY_STRICT=true',
    },
  },
  settings: () => settingsHelp().filter((setting) => setting.name !== 'RECEIVER_SECRET'),
  exitCodes: {
    0: 'no must check failed, and the clean-up removed everything the run created',
    1: "a must check failed (other than as --expected-failures expects), with --strict an expected failure passed, or fewer of the tier's must checks ran than CERTIFY_MIN_COVERAGE demands (a partial run counts against the whole tier)",
    2: 'the run could not happen (settings, target unreachable), or no must check failed but one ended in error (the network kept its answers away); one line on stderr',
    3: 'clean-up incomplete: no must check failed, but resources are left on the target (the reports list each, with the control call that removes it)',
    130: 'interrupted',
  },
  notes: ['report.json conforms to schemas/report.schema.json; the settings to schemas/settings.schema.json.'],
  async run({ values }) {
    const { certify } = await import('../../runner/certify.js');
    const rerunFailed = typeof values['rerun-failed'] === 'string' ? values['rerun-failed'] : undefined;
    const flags = settingsFromFlags(values);
    const rerun = rerunFailed ? await rerunSettings(rerunFailed) : {};
    const reportDir = rerunFailed
      ? { CERTIFY_REPORT_DIR: rerunReportDir(rerunFailed, { ...process.env, ...flags }) }
      : {};
    if (reportDir.CERTIFY_REPORT_DIR)
      writeLine(
        process.stdout,
        `re-run of ${rerunFailed}: its reports go to ${reportDir.CERTIFY_REPORT_DIR}, never over the report it re-runs`,
      );
    return certify({
      allowProduction: values['allow-production'] === true,
      env: { ...process.env, ...rerun, ...flags, ...reportDir },
      ...(rerunFailed ? { rerunFailed } : {}),
    });
  },
};

/** The checks of `reportPath` that did not pass (fail, warn, error), and its seed, as settings (`checksSetting`: the command's). */
export async function rerunSettings(
  reportPath: string,
  checksSetting = 'CERTIFY_CHECKS',
): Promise<Record<string, string>> {
  const { readReportFile } = await import('../../report/validate.js');
  const report = readReportFile(reportPath);
  const again = report.checks
    .filter((check) => check.verdict === 'fail' || check.verdict === 'warn' || check.verdict === 'error')
    .map((check) => check.id);
  if (again.length === 0)
    throw new UsageError(`${reportPath}: no check failed, warned or ended in error there; nothing to re-run`);
  return {
    [checksSetting]: again.join(','),
    ...(report.seed !== undefined ? { FAST_CHECK_SEED: String(report.seed) } : {}),
  };
}

/**
 * Where a re-run's reports go: never over the report it read. The folder the settings name,
 * unless that is the one it read (refused); when none is named, beside it: `<its folder>-rerun`.
 */
export function rerunReportDir(reportPath: string, env: NodeJS.ProcessEnv, cwd = process.cwd()): string {
  const readFrom = dirname(resolve(cwd, reportPath));
  const named = readSettingSources(env, cwd).CERTIFY_REPORT_DIR;
  if (named === undefined || named === '') return `${readFrom}-rerun`;
  if (resolve(cwd, named) === readFrom) {
    throw new UsageError(
      `--rerun-failed ${reportPath} would write its reports over the report it re-runs (${readFrom}); name another --report-dir, or leave CERTIFY_REPORT_DIR unset for ${readFrom}-rerun`,
    );
  }
  return named;
}

/** The flags as the settings they stand for: a flag given wins over the environment and .env. */
export function settingsFromFlags(
  values: Record<string, string | boolean | undefined>,
  names: Record<string, string> = CERTIFY_FLAG_SETTINGS,
): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const [flag, name] of Object.entries(names)) {
    const value = values[flag];
    if (typeof value === 'string') settings[name] = value;
    else if (value === true) settings[name] = 'true';
  }
  return settings;
}

const CERTIFY_FLAG_SETTINGS: Record<string, string> = {
  'base-url': 'SVC_BASE_URL',
  checks: 'CERTIFY_CHECKS',
  tier: 'CERTIFY_TIER',
  'report-dir': 'CERTIFY_REPORT_DIR',
  'target-version': 'CERTIFY_TARGET_VERSION',
  seed: 'FAST_CHECK_SEED',
  'expected-failures': 'CERTIFY_EXPECTED_FAILURES',
  strict: 'CERTIFY_STRICT',
};
