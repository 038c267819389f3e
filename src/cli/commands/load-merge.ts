import { loadSettingsHelp } from '../../config/load-settings.js';
import { EXIT } from '../../errors.js';
import type { Command } from '../command.js';

export const loadMergeCommand: Command = {
  words: ['load', 'merge'],
  summary: 'One verdict from the samples of a run made elsewhere (k6-operator runners, one k6 --out json file each).',
  description:
    "Evaluates the scenario's thresholds, as they hold for the whole test under the LOAD_ settings given (the TestRun's), on every runner's samples together, and writes the report npm run load writes (load/README.md, Distributed runs).",
  positionals: {
    usage: '<scenario> <samples.ndjson[.gz] ...>',
    description: "the scenario the runners ran, then each runner's k6 JSON output",
  },
  options: {
    'report-dir': { type: 'string', value: '<dir>', description: 'where reports go (default reports/load)' },
    'no-build': { type: 'boolean', description: 'never build k6; fail when none is found' },
    'prometheus-rw': {
      type: 'string',
      value: '<url>',
      description:
        "write the merged verdict and figures to this Prometheus remote-write URL, labelled with the samples' run_id (default LOAD_PROMETHEUS_RW_URL)",
    },
  },
  settings: () => loadSettingsHelp(),
  exitCodes: {
    [EXIT.passed]: 'every threshold held on the merged samples',
    [EXIT.noRun]: 'the merge could not happen (no such file, unknown scenario, k6 missing, samples of several runs)',
    [EXIT.thresholdsFailed]: "a threshold failed (k6's own exit code for it)",
  },
  async run({ positionals, values }) {
    const { runMerge, toMergeArgs } = await import('../../load/distributed/merge-run.js');
    return runMerge(toMergeArgs(positionals, values));
  },
};
