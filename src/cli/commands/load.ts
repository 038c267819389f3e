import type { SettingHelp } from '../../config/describe.js';
import { settingsHelp } from '../../config/settings.js';
import { RunAbort } from '../../runner/errors.js';
import type { Command } from '../command.js';

// Meanings and defaults in full: load/README.md ("Load settings").
const LOAD_SETTINGS_HELP: SettingHelp[] = [
  { name: 'LOAD_RATE', description: 'arrivals per second (calls; per token in rotation); default per scenario' },
  { name: 'LOAD_DURATION', description: 'measured phase as a k6 duration (20s, 1m30s); default per scenario' },
  { name: 'LOAD_MAX_VUS', description: 'VU cap of arrival-rate executors', default: '50' },
  { name: 'LOAD_P95_MS', description: 'p95 latency threshold of call placement', default: '500' },
  { name: 'LOAD_P99_MS', description: 'p99 latency threshold of call placement', default: '1000' },
  { name: 'LOAD_MAX_ERROR_RATE', description: 'failed-request rate allowed for call placement', default: '0.01' },
  { name: 'LOAD_ABORT_ON_FAIL', description: 'false lets a run go on after a gate fails', default: 'true' },
  { name: 'LOAD_ENDPOINTS', description: 'fan-out endpoints (at most 25)', default: '25' },
  { name: 'LOAD_DRAIN_S', description: 'fan-out: how long teardown waits for deliveries' },
  { name: 'LOAD_INSTANCES', description: 'runners of a distributed run', default: '1' },
  { name: 'LOAD_TOKEN', description: 'place calls with this token instead of making one' },
  { name: 'LOAD_AGENT_ID', description: 'place calls with this agent instead of finding one' },
  { name: 'LOAD_REPORT_DIR', description: 'where reports go (or --report-dir)', default: 'reports/load' },
  { name: 'LOAD_K6_BINARY', description: 'use this k6 v2 binary; default k6 on PATH, else .tools/k6 (built from its Go module)' },
  { name: 'LOAD_ALLOW_PRODUCTION', description: 'same as --allow-production', default: 'false' },
];
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
  },
  settings: () => [...settingsHelp().filter((setting) => TARGET_SETTINGS.includes(setting.name)), ...LOAD_SETTINGS_HELP],
  exitCodes: { 0: 'every threshold held and nothing regressed', 1: 'a threshold failed or a figure regressed', 2: 'the run could not happen (settings, k6 missing, target unreachable)' },
  async run(args) {
    const [{ runLoad }, { K6NotFound }] = await Promise.all([import('../../load/run.js'), import('../../load/k6-binary.js')]);
    try {
      return await runLoad(args);
    } catch (error) {
      if (error instanceof K6NotFound) throw new RunAbort(error.message);
      throw error;
    }
  },
};
