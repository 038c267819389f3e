/** The load command's parsed command line (src/cli/commands/load.ts) as LoadArgs. */
import { UsageError } from '../errors.js';
import { parseK6Options, type K6Options } from './k6/options.js';

/** A command line as the CLI parsed it: its options by name, the words after them, and those after `--` (k6's). */
export interface CommandLine {
  values: Readonly<Record<string, string | boolean | undefined>>;
  positionals: readonly string[];
  passThrough?: readonly string[];
}

/** k6 processes one machine runs side by side for one scenario. */
const MAX_INSTANCES = 16;

export interface LoadArgs {
  scenarios: string[];
  smoke: boolean;
  baseline?: string;
  tolerance: number;
  reportDir?: string;
  allowProduction: boolean;
  build: boolean;
  /** k6 processes per scenario, each with its execution segment (1: one process). */
  instances: number;
  /** --prometheus-rw: the metrics store (src/load/store/). */
  prometheusRw?: string;
  /** The k6 options after `--`, checked. */
  k6Options: K6Options;
}

/** The command line as LoadArgs; scenario names checked against `known`. */
export function toLoadArgs({ values, positionals, passThrough = [] }: CommandLine, known: readonly string[]): LoadArgs {
  const args: Omit<LoadArgs, 'k6Options'> = {
    scenarios: [],
    smoke: values.smoke === true,
    tolerance: 0.1,
    allowProduction: values['allow-production'] === true,
    build: values['no-build'] !== true,
    instances: 1,
    ...(typeof values.baseline === 'string' ? { baseline: values.baseline } : {}),
    ...(typeof values['report-dir'] === 'string' ? { reportDir: values['report-dir'] } : {}),
    ...(typeof values['prometheus-rw'] === 'string' ? { prometheusRw: values['prometheus-rw'] } : {}),
  };
  if (typeof values.tolerance === 'string') {
    const pct = Number(values.tolerance);
    if (values.tolerance.trim() === '' || !Number.isFinite(pct) || pct < 0)
      throw new UsageError('--tolerance takes a percentage, e.g. 10');
    args.tolerance = pct / 100;
  }
  for (const name of positionals) {
    if (name === 'all') args.scenarios.push(...known);
    else if (known.includes(name)) args.scenarios.push(name);
    else throw new UsageError(`unknown scenario ${name} (known: ${known.join(', ')})`);
  }
  if (args.scenarios.length === 0) args.scenarios = [...known];
  args.scenarios = [...new Set(args.scenarios)];
  if (typeof values.instances === 'string') {
    const count = Number(values.instances);
    if (!Number.isInteger(count) || count < 1 || count > MAX_INSTANCES)
      throw new UsageError(`--instances takes a whole number from 1 to ${MAX_INSTANCES}`);
    args.instances = count;
  }
  return { ...args, k6Options: parseK6Options(passThrough, args.scenarios.length * args.instances) };
}
