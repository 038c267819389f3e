import { loadSettingsHelp } from '../../config/load-settings.js';
import { settingsHelp } from '../../config/settings.js';
import { EXIT } from '../../errors.js';
import { k6OptionsHelp } from '../../load/k6/options.js';
import type { Command } from '../command.js';

const TARGET_SETTINGS = [
  'SVC_BASE_URL',
  'SVC_CONTROL_URL',
  'SVC_CONTROL_TOKEN',
  'SVC_TOKEN',
  'SVC_IMAGE',
  'RECEIVER_HOST',
  'RECEIVER_PORT',
  'RECEIVER_PUBLIC_URL',
];

export const loadCommand: Command = {
  words: ['load'],
  summary: 'Run k6 load scenarios against the target, thresholds as the verdict.',
  description:
    'Scenarios: calls, calls-ramp, rotation, fanout. The target is chosen as for certify. Reports go to reports/load/.',
  positionals: { usage: '[scenario ...]', description: 'calls, calls-ramp, rotation, fanout, or all (default all)' },
  options: {
    smoke: { type: 'boolean', description: 'short, low-rate runs (a check that the scenarios work, not a load test)' },
    baseline: {
      type: 'string',
      value: '<summary.json>',
      description: 'compare with an earlier run; a regression fails the run',
    },
    tolerance: {
      type: 'string',
      value: '<pct>',
      description: 'regression allowed against the baseline, in percent (default 10)',
    },
    'report-dir': {
      type: 'string',
      value: '<dir>',
      description: 'where reports go (default LOAD_REPORT_DIR or reports/load)',
    },
    'allow-production': { type: 'boolean', description: 'allow a production (svc_live_) target' },
    'no-build': { type: 'boolean', description: 'never build k6; fail when none is found' },
    instances: {
      type: 'string',
      value: '<n>',
      description:
        'split each scenario into n k6 processes (execution segments, as k6-operator does); one verdict from all their samples',
    },
    'prometheus-rw': {
      type: 'string',
      value: '<url>',
      description:
        "a Prometheus remote-write URL: k6 writes its samples there (--out experimental-prometheus-rw), and the harness each scenario's verdict and figures (default LOAD_PROMETHEUS_RW_URL; with -- --out experimental-prometheus-rw, where k6 writes)",
    },
  },
  passThrough: { usage: '[-- <k6 options>]' },
  settings: () => [
    ...settingsHelp().filter((setting) => TARGET_SETTINGS.includes(setting.name)),
    ...loadSettingsHelp(),
  ],
  exitCodes: {
    [EXIT.passed]: 'every threshold held and nothing regressed',
    [EXIT.mustFailed]:
      'no threshold failed, but a scenario could not complete (preparation failed, k6 ended otherwise) or a figure regressed past the baseline',
    [EXIT.noRun]: 'the run could not happen (settings, k6 options, k6 missing, target unreachable)',
    [EXIT.thresholdsFailed]: "a threshold failed (k6's own exit code for it)",
  },
  notes: k6OptionsHelp(),
  async run(args) {
    const { runLoad } = await import('../../load/run.js');
    return runLoad(args);
  },
};
