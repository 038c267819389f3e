import { receiverSettingsHelp } from '../../config/receiver-settings.js';
import type { Command } from '../command.js';
import { rerunSettings, settingsFromFlags } from './certify.js';

/** Each flag and the setting it stands for; a flag given wins over the environment and .env. */
const FLAG_SETTINGS: Record<string, string> = {
  checks: 'TARGET_RECEIVER_CHECKS',
  seed: 'FAST_CHECK_SEED',
  'report-dir': 'TARGET_RECEIVER_REPORT_DIR',
  'expected-failures': 'TARGET_RECEIVER_EXPECTED_FAILURES',
  strict: 'TARGET_RECEIVER_STRICT',
};

export const certifyReceiverCommand: Command = {
  words: ['certify', 'receiver'],
  summary: 'Certify a webhook receiver: the harness plays the service.',
  description:
    'Sends the receiver signed deliveries, good and bad, and judges its answers. Reports go to TARGET_RECEIVER_REPORT_DIR.',
  options: {
    checks: {
      type: 'string',
      value: '<ids>',
      description: 'only these checks: ids or prefixes ending in *, comma-separated; wins over TARGET_RECEIVER_CHECKS',
    },
    'report-dir': {
      type: 'string',
      value: '<dir>',
      description: 'where the reports go; wins over TARGET_RECEIVER_REPORT_DIR',
    },
    seed: {
      type: 'string',
      value: '<n>',
      description:
        "the seed of the run's generated choices (the timing probe's order and signatures); wins over FAST_CHECK_SEED",
    },
    'rerun-failed': {
      type: 'string',
      value: '<report.json>',
      description: 'only the checks that failed, warned or ended in error in that report, with its seed',
    },
    'expected-failures': {
      type: 'string',
      value: '<file>',
      description:
        'checks expected to fail (YAML or JSON, schemas/expected-failures.schema.json); wins over TARGET_RECEIVER_EXPECTED_FAILURES',
    },
    strict: {
      type: 'boolean',
      description: 'an expected failure that passes fails the run; same as TARGET_RECEIVER_STRICT=true',
    },
  },
  settings: receiverSettingsHelp,
  exitCodes: {
    0: 'no must check failed',
    1: 'a must check failed (other than as --expected-failures expects), or with --strict an expected failure passed',
    2: 'the run could not happen (settings, an unknown check id in --expected-failures, receiver unreachable)',
  },
  async run({ values }) {
    const { certifyReceiver } = await import('../../receiver-cert/runner.js');
    const rerun =
      typeof values['rerun-failed'] === 'string'
        ? await rerunSettings(values['rerun-failed'], 'TARGET_RECEIVER_CHECKS')
        : {};
    return certifyReceiver({ env: { ...process.env, ...rerun, ...settingsFromFlags(values, FLAG_SETTINGS) } });
  },
};
