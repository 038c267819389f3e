/**
 * The k6 options a user hands through `svc-harness load … -- <k6 options>`: checked here,
 * before anything starts, against the options of `k6 run` (the pinned release's), and given
 * to every k6 process of the run, each segment of an `--instances` run included.
 *
 * A few options are the harness's own, or would undo what its verdict rests on: they are
 * refused with the reason (REFUSED, shown in `load --help`) rather than left to clash.
 * `--summary-trend-stats` is merged with the statistics the reports need, and a tag the
 * harness sets itself (run_id, load_scenario) cannot be set again.
 */
import { TREND_STATS } from '../../../load/lib/trend-stats.js';
import { UsageError } from '../../errors.js';

/** The tags the harness gives every sample of a run: its id and the scenario. */
export const RUN_TAGS = { runId: 'run_id', scenario: 'load_scenario' } as const;

/** k6's remote-write output to Prometheus (built into k6 v2). */
export const PROMETHEUS_RW_OUTPUT = 'experimental-prometheus-rw';

/** How an option of `k6 run` (v2.2.0, `k6 run --help`) takes its value. */
type Arity = 'value' | 'flag' | 'optional';

interface K6Option {
  arity: Arity;
  short?: string;
}

const K6_RUN_OPTIONS: Record<string, K6Option> = {
  vus: { arity: 'value', short: 'u' },
  duration: { arity: 'value', short: 'd' },
  iterations: { arity: 'value', short: 'i' },
  stage: { arity: 'value', short: 's' },
  'execution-segment': { arity: 'value' },
  'execution-segment-sequence': { arity: 'value' },
  paused: { arity: 'flag', short: 'p' },
  'no-setup': { arity: 'flag' },
  'no-teardown': { arity: 'flag' },
  'max-redirects': { arity: 'value' },
  batch: { arity: 'value' },
  'batch-per-host': { arity: 'value' },
  rps: { arity: 'value' },
  'user-agent': { arity: 'value' },
  'http-debug': { arity: 'optional' },
  'insecure-skip-tls-verify': { arity: 'flag' },
  'no-connection-reuse': { arity: 'flag' },
  'no-vu-connection-reuse': { arity: 'flag' },
  'min-iteration-duration': { arity: 'value' },
  throw: { arity: 'flag', short: 'w' },
  'blacklist-ip': { arity: 'value' },
  'block-hostnames': { arity: 'value' },
  'summary-trend-stats': { arity: 'value' },
  'summary-time-unit': { arity: 'value' },
  'system-tags': { arity: 'value' },
  tag: { arity: 'value' },
  'console-output': { arity: 'value' },
  'discard-response-bodies': { arity: 'flag' },
  'local-ips': { arity: 'value' },
  dns: { arity: 'value' },
  'include-system-env-vars': { arity: 'flag' },
  'compatibility-mode': { arity: 'value' },
  type: { arity: 'value', short: 't' },
  env: { arity: 'value', short: 'e' },
  'no-thresholds': { arity: 'flag' },
  'summary-mode': { arity: 'value' },
  'summary-export': { arity: 'value' },
  'new-machine-readable-summary': { arity: 'flag' },
  'traces-output': { arity: 'value' },
  out: { arity: 'value', short: 'o' },
  linger: { arity: 'flag', short: 'l' },
  'no-usage-report': { arity: 'flag' },
  features: { arity: 'value' },
  help: { arity: 'flag', short: 'h' },
  address: { arity: 'value', short: 'a' },
  config: { arity: 'value', short: 'c' },
  'log-format': { arity: 'value' },
  'log-output': { arity: 'value' },
  'no-color': { arity: 'flag' },
  'profiling-enabled': { arity: 'flag' },
  quiet: { arity: 'flag', short: 'q' },
  'secret-source': { arity: 'value' },
  verbose: { arity: 'flag', short: 'v' },
};

const BY_SHORT = new Map(
  Object.entries(K6_RUN_OPTIONS).flatMap(([name, option]) => (option.short ? [[option.short, name] as const] : [])),
);

/** The options the harness refuses, and why: what `load --help` lists. */
export const REFUSED: ReadonlyArray<{ options: readonly string[]; why: string }> = [
  {
    options: ['vus', 'duration', 'iterations', 'stage'],
    why: "it replaces the scenario's executors with k6's default one; size a run with LOAD_RATE, LOAD_DURATION, LOAD_MAX_VUS",
  },
  {
    options: ['execution-segment', 'execution-segment-sequence'],
    why: 'the harness sets it, one segment per k6 process of --instances',
  },
  {
    options: ['no-thresholds', 'summary-mode', 'new-machine-readable-summary'],
    why: "the verdict is the scenario's thresholds, read from the summary its handleSummary writes",
  },
  {
    options: ['env', 'include-system-env-vars'],
    why: 'the scripts read the LOAD_ settings, which the harness checks and sets, from the environment it gives k6',
  },
  {
    options: ['type', 'no-setup'],
    why: 'the harness gives k6 the bundled script, whose setup() finds the agent calls are placed with',
  },
  { options: ['paused', 'linger', 'help'], why: 'the harness waits for each k6 process to end' },
];

const REFUSED_BY_NAME = new Map(REFUSED.flatMap(({ options, why }) => options.map((name) => [name, why] as const)));

/** Options naming one file or one port: with more than one k6 process in a run, every process would share it. */
const ONE_PER_PROCESS = new Set(['summary-export', 'console-output', 'address']);
const FILE_OUTPUTS = new Set(['json', 'csv']);
const ONE_PER_PROCESS_WHY =
  'names one file or port, which every k6 process of this run (each scenario, each --instances segment) would share';

/** k6's web dashboard: the harness runs it for each scenario itself (`<scenario>.dashboard.html`). */
const DASHBOARD_OUTPUT = 'web-dashboard';

/** The statistics the digest, the baseline and the reports read from every trend. */
export const HARNESS_TREND_STATS: readonly string[] = TREND_STATS;

const TREND_STAT = /^(avg|min|med|max|count|p\(\d+(\.\d+)?\))$/;

export interface K6Options {
  /** What every k6 process gets, in the order given (`--summary-trend-stats` apart: see trendStats). */
  args: string[];
  /** The `--tag name=value` pairs given. */
  tags: Record<string, string>;
  /** The `--out` outputs given, by name (`json`, `experimental-prometheus-rw`, …). */
  outputs: string[];
  /** The trend statistics k6 computes: the harness's, then those `--summary-trend-stats` adds. */
  trendStats: string[];
}

export const NO_K6_OPTIONS: K6Options = { args: [], tags: {}, outputs: [], trendStats: [...HARNESS_TREND_STATS] };

interface Token {
  name: string;
  /** As written: `--out`, `-o`. */
  spelled: string;
  value?: string;
  /** The words it took on the command line. */
  words: string[];
}

/** The words after `--` as k6 would read them; anything `k6 run` does not know is a UsageError. */
function tokenize(argv: readonly string[]): Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    let name: string | undefined;
    let inline: string | undefined;
    let spelled = word;
    if (word.startsWith('--') && word.length > 2) {
      const eq = word.indexOf('=');
      name = eq === -1 ? word.slice(2) : word.slice(2, eq);
      inline = eq === -1 ? undefined : word.slice(eq + 1);
      spelled = `--${name}`;
      if (!(name in K6_RUN_OPTIONS))
        throw new UsageError(`k6 option ${spelled}: k6 run has no such option (k6 run --help)`);
    } else if (word.startsWith('-') && word.length > 1 && word !== '--') {
      // Short options: one that takes a value takes the rest of the word (or the next);
      // flags may be grouped (-qv). The word goes to k6 once, with the first of them.
      const first = tokens.length;
      for (let j = 1; j < word.length; j++) {
        const short = word[j]!;
        const long = BY_SHORT.get(short);
        if (!long) throw new UsageError(`k6 option -${short}: k6 run has no such option (k6 run --help)`);
        if (K6_RUN_OPTIONS[long]!.arity !== 'value') {
          tokens.push({ name: long, spelled: `-${short}`, words: [] });
          continue;
        }
        const rest = word.slice(j + 1).replace(/^=/, '');
        if (rest !== '') tokens.push({ name: long, spelled: `-${short}`, value: rest, words: [] });
        else {
          tokens.push(takeValue(long, `-${short}`, argv, i, []));
          i += 1;
        }
        break;
      }
      tokens[first]!.words.unshift(word);
      continue;
    } else {
      throw new UsageError(`k6 option ${JSON.stringify(word)}: not an option; the harness names the script k6 runs`);
    }
    const { arity } = K6_RUN_OPTIONS[name]!;
    if (inline !== undefined || arity !== 'value')
      tokens.push({ name, spelled, ...(inline !== undefined ? { value: inline } : {}), words: [word] });
    else {
      tokens.push(takeValue(name, spelled, argv, i, [word]));
      i += 1;
    }
  }
  return tokens;
}

function takeValue(name: string, spelled: string, argv: readonly string[], i: number, words: string[]): Token {
  const value = argv[i + 1];
  if (value === undefined) throw new UsageError(`k6 option ${spelled} needs a value`);
  return { name, spelled, value, words: [...words, value] };
}

/**
 * The k6 options after `--`, checked: refused ones (REFUSED) and unknown ones are a
 * UsageError naming the option and why; `processes` is how many k6 processes the run
 * starts (scenarios × instances), for the options that name one file or port.
 */
export function parseK6Options(argv: readonly string[], processes: number): K6Options {
  const options: K6Options = { args: [], tags: {}, outputs: [], trendStats: [...HARNESS_TREND_STATS] };
  for (const token of tokenize(argv)) {
    const refused = REFUSED_BY_NAME.get(token.name);
    if (refused) throw new UsageError(`k6 option ${token.spelled} is refused: ${refused}`);
    if (ONE_PER_PROCESS.has(token.name) && processes > 1)
      throw new UsageError(
        `k6 option ${token.spelled} ${ONE_PER_PROCESS_WHY}; run one scenario without --instances to use it`,
      );
    switch (token.name) {
      case 'tag': {
        const eq = token.value!.indexOf('=');
        const name = token.value!.slice(0, eq);
        if (eq <= 0)
          throw new UsageError(`k6 option ${token.spelled} takes name=value, got ${JSON.stringify(token.value)}`);
        if (Object.values(RUN_TAGS).includes(name as never))
          throw new UsageError(
            `k6 option ${token.spelled} ${name}=…: the harness tags every sample with ${RUN_TAGS.runId} (the run's id) and ${RUN_TAGS.scenario}; name your tag otherwise (testid, release)`,
          );
        options.tags[name] = token.value!.slice(eq + 1);
        break;
      }
      case 'out': {
        const output = token.value!.split('=', 1)[0]!;
        if (output === DASHBOARD_OUTPUT)
          throw new UsageError(
            `k6 option ${token.spelled} ${DASHBOARD_OUTPUT}: the harness runs k6's web dashboard for each scenario itself (<scenario>.dashboard.html beside the reports)`,
          );
        if (FILE_OUTPUTS.has(output) && processes > 1)
          throw new UsageError(
            `k6 option ${token.spelled} ${output}=… ${ONE_PER_PROCESS_WHY}; run one scenario without --instances to use it (with --instances, each process's samples are kept as <scenario>.segment-<i>.ndjson.gz)`,
          );
        options.outputs.push(output);
        break;
      }
      case 'summary-trend-stats': {
        const stats = token
          .value!.split(',')
          .map((stat) => stat.trim())
          .filter(Boolean);
        const bad = stats.find((stat) => !TREND_STAT.test(stat));
        if (bad !== undefined || stats.length === 0)
          throw new UsageError(
            `k6 option ${token.spelled}: ${JSON.stringify(bad ?? token.value)} is not a trend statistic (avg, min, med, max, count, p(N))`,
          );
        for (const stat of stats) if (!options.trendStats.includes(stat)) options.trendStats.push(stat);
        continue;
      }
    }
    options.args.push(...token.words);
  }
  return options;
}

/** The percentiles (as fractions of 100) that trendStats names beyond the harness's own. */
export function extraPercentiles(trendStats: readonly string[]): number[] {
  return trendStats.flatMap((stat) => {
    const match = /^p\((\d+(?:\.\d+)?)\)$/.exec(stat);
    return match && !HARNESS_TREND_STATS.includes(stat) ? [Number(match[1])] : [];
  });
}

export interface K6RunArgsOptions {
  k6Options: K6Options;
  runId: string;
  scenario: string;
  /** k6's progress on the terminal: when the harness's stdout is one. */
  tty: boolean;
  /** The harness's own arguments for this process (execution segment, samples file). */
  extra?: readonly string[];
}

/** The arguments of one `k6 run` before its script: the harness's, then the user's. */
export function k6RunArgs(options: K6RunArgsOptions): string[] {
  const { k6Options, runId, scenario, tty } = options;
  return [
    'run',
    '--no-usage-report',
    ...(tty ? [] : ['--quiet']),
    '--no-color',
    '--tag',
    `${RUN_TAGS.runId}=${runId}`,
    '--tag',
    `${RUN_TAGS.scenario}=${scenario}`,
    '--summary-trend-stats',
    k6Options.trendStats.join(','),
    ...(options.extra ?? []),
    ...k6Options.args,
  ];
}

/** What `load --help` says of the k6 options after `--`. */
export function k6OptionsHelp(): string[] {
  return [
    'k6 options (after --, for every k6 process of the run, each --instances segment included):',
    `  e.g. -- --out ${PROMETHEUS_RW_OUTPUT} --tag testid=release-2.4 --summary-trend-stats 'p(99.9)'`,
    `  every sample is tagged ${RUN_TAGS.runId} (the run's id) and ${RUN_TAGS.scenario}; --summary-trend-stats adds to ${HARNESS_TREND_STATS.join(',')};`,
    "  k6's progress shows when stdout is a terminal (--quiet hides it). Refused, as the harness's own:",
    ...REFUSED.map(({ options, why }) => `    ${options.map((name) => `--${name}`).join(', ')}: ${why}`),
    `    --out ${DASHBOARD_OUTPUT}: the harness runs k6's web dashboard for each scenario itself`,
    `    --tag ${RUN_TAGS.runId}=…, --tag ${RUN_TAGS.scenario}=…: set by the harness`,
    `    --out json=…, --out csv=…, --summary-export, --console-output, --address: with more than one k6 process, each would write the same file or port`,
  ];
}
