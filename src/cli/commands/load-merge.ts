import { loadSettingsHelp } from '../../config/load-settings.js';
import type { Command } from '../command.js';

export const loadMergeCommand: Command = {
  words: ['load', 'merge'],
  summary: 'One verdict from the samples of a run made elsewhere (k6-operator runners, one k6 --out json file each).',
  description:
    "Evaluates the scenario's thresholds, as they hold for the whole test under the LOAD_ settings given (the TestRun's), on every runner's samples together, and writes the report npm run load writes (load/README.md, Distributed runs).",
  positionals: { usage: '<scenario> <samples.ndjson[.gz] ...>', description: 'the scenario the runners ran, then each runner\'s k6 JSON output' },
  options: {
    'report-dir': { type: 'string', value: '<dir>', description: 'where reports go (default reports/load)' },
    'no-build': { type: 'boolean', description: 'never build k6; fail when none is found' },
  },
  settings: () => loadSettingsHelp(),
  exitCodes: { 0: 'every threshold held on the merged samples', 1: 'a threshold failed', 2: 'the merge could not happen (no such file, unknown scenario, k6 missing)' },
  async run({ positionals, values }) {
    const { runMerge, toMergeArgs } = await import('../../load/distributed/merge-run.js');
    return runMerge(toMergeArgs(positionals, values));
  },
};
