import { loadSettingsHelp } from '../../config/load-settings.js';
import { settingsHelp } from '../../config/settings.js';
import type { Command } from '../command.js';

const TARGET_SETTINGS = ['SVC_BASE_URL', 'SVC_CONTROL_URL', 'SVC_CONTROL_TOKEN', 'SVC_TOKEN', 'SVC_IMAGE', 'RECEIVER_HOST', 'RECEIVER_PORT', 'RECEIVER_PUBLIC_URL'];

export const loadCommand: Command = {
  words: ['load'],
  summary: 'Run k6 load scenarios against the target, thresholds as the verdict.',
  description: 'Scenarios: calls, calls-ramp, rotation, fanout. The target is chosen as for certify. Reports go to reports/load/.',
  positionals: { usage: '[scenario ...]', description: 'calls, calls-ramp, rotation, fanout, or all (default all)' },
  options: {
    smoke: { type: 'boolean', description: 'short, low-rate runs (a check that the scenarios work, not a load test)' },
    baseline: { type: 'string', value: '<summary.json>', description: 'compare with an earlier run; a regression fails the run' },
    tolerance: { type: 'string', value: '<pct>', description: 'regression allowed against the baseline, in percent (default 10)' },
    'report-dir': { type: 'string', value: '<dir>', description: 'where reports go (default LOAD_REPORT_DIR or reports/load)' },
    'allow-production': { type: 'boolean', description: 'allow a production (svc_live_) target' },
    'no-build': { type: 'boolean', description: 'never build k6; fail when none is found' },
    instances: { type: 'string', value: '<n>', description: 'split each scenario into n k6 processes (execution segments, as k6-operator does); one verdict from all their samples' },
  },
  settings: () => [...settingsHelp().filter((setting) => TARGET_SETTINGS.includes(setting.name)), ...loadSettingsHelp()],
  exitCodes: { 0: 'every threshold held and nothing regressed', 1: 'a threshold failed or a figure regressed', 2: 'the run could not happen (settings, k6 missing, target unreachable)' },
  async run(args) {
    const { runLoad } = await import('../../load/run.js');
    return runLoad(args);
  },
};
