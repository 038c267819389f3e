import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import {
  HARNESS_TREND_STATS,
  REFUSED,
  extraPercentiles,
  k6OptionsHelp,
  k6RunArgs,
  parseK6Options,
} from '../../../src/load/k6/options.js';

describe('k6 options after --', () => {
  it('go to k6 as given, with the tags and outputs read from them', () => {
    const options = parseK6Options(
      [
        '--out',
        'experimental-prometheus-rw',
        '--tag',
        'testid=release-2.4',
        '-o',
        'influxdb=http://127.0.0.1:8086/k6',
        '--http-debug=full',
        '-q',
      ],
      4,
    );
    expect(options.args).toEqual([
      '--out',
      'experimental-prometheus-rw',
      '--tag',
      'testid=release-2.4',
      '-o',
      'influxdb=http://127.0.0.1:8086/k6',
      '--http-debug=full',
      '-q',
    ]);
    expect(options.tags).toEqual({ testid: 'release-2.4' });
    expect(options.outputs).toEqual(['experimental-prometheus-rw', 'influxdb']);
  });

  it('read short options as k6 does: a value in the same word or the next, flags grouped', () => {
    expect(parseK6Options(['-oexperimental-prometheus-rw'], 1).outputs).toEqual(['experimental-prometheus-rw']);
    expect(parseK6Options(['-o=json=a.json'], 1).outputs).toEqual(['json']);
    expect(parseK6Options(['-qwo', 'csv=a.csv'], 1)).toMatchObject({ args: ['-qwo', 'csv=a.csv'], outputs: ['csv'] });
    expect(() => parseK6Options(['-qu', '5'], 1)).toThrow(/k6 option -u is refused/);
  });

  it('add --summary-trend-stats to the statistics the reports need, never in place of them', () => {
    const options = parseK6Options(['--summary-trend-stats', 'avg,p(99.9), p(50)'], 1);
    expect(options.args).toEqual([]);
    expect(options.trendStats).toEqual([...HARNESS_TREND_STATS, 'p(99.9)', 'p(50)']);
    expect(extraPercentiles(options.trendStats)).toEqual([99.9, 50]);
    expect(() => parseK6Options(['--summary-trend-stats=p99'], 1)).toThrow(/"p99" is not a trend statistic/);
  });

  it.each([
    [['--vus', '10'], /--vus is refused: it replaces the scenario's executors/],
    [['-d', '1m'], /-d is refused: .*LOAD_DURATION/],
    [['--execution-segment=0:1/2'], /--execution-segment is refused: the harness sets it/],
    [['--no-thresholds'], /--no-thresholds is refused: the verdict is the scenario's thresholds/],
    [['--summary-mode', 'disabled'], /--summary-mode is refused/],
    [['-e', 'LOAD_RATE=5000'], /-e is refused: the scripts read the LOAD_ settings/],
    [['--include-system-env-vars=false'], /--include-system-env-vars is refused/],
    [['--linger'], /--linger is refused: the harness waits/],
    [['--tag', 'run_id=mine'], /--tag run_id=…: the harness tags every sample with run_id/],
    [['--tag', 'load_scenario=x'], /load_scenario/],
    [['--tag', 'novalue'], /--tag takes name=value/],
    [['--out', 'web-dashboard'], /the harness runs k6's web dashboard for each scenario itself/],
    [['--bogus'], /--bogus: k6 run has no such option/],
    [['-Z'], /-Z: k6 run has no such option/],
    [['script.js'], /not an option; the harness names the script/],
    [['--out'], /--out needs a value/],
  ])('refuse %j, saying why (UsageError, exit 2)', (argv, message) => {
    expect(() => parseK6Options(argv, 1)).toThrow(UsageError);
    expect(() => parseK6Options(argv, 1)).toThrow(message);
  });

  it('refuse a file or port every k6 process would share only when the run starts more than one', () => {
    for (const argv of [
      ['--out', 'json=samples.json'],
      ['-o', 'csv=a.csv'],
      ['--summary-export', 's.json'],
      ['--console-output', 'c.log'],
      ['-a', '127.0.0.1:6565'],
    ]) {
      expect(parseK6Options(argv, 1).args).toEqual(argv);
      expect(() => parseK6Options(argv, 2)).toThrow(/every k6 process of this run .* would share/);
    }
  });

  it('list every refused option in the help', () => {
    const help = k6OptionsHelp().join('\n');
    for (const { options } of REFUSED) for (const name of options) expect(help).toContain(`--${name}`);
  });
});

describe('the arguments of one k6 run', () => {
  const k6Options = parseK6Options(['--tag', 'testid=r1', '--summary-trend-stats', 'p(99.9)'], 1);

  it('tag every sample with the run id and the scenario, then add the user options', () => {
    const args = k6RunArgs({
      k6Options,
      runId: 'abcd1234',
      scenario: 'calls',
      tty: false,
      extra: ['--out', 'json=x.ndjson.gz'],
    });
    expect(args).toEqual([
      'run',
      '--no-usage-report',
      '--quiet',
      '--no-color',
      '--tag',
      'run_id=abcd1234',
      '--tag',
      'load_scenario=calls',
      '--summary-trend-stats',
      'avg,min,med,max,p(90),p(95),p(99),count,p(99.9)',
      '--out',
      'json=x.ndjson.gz',
      '--tag',
      'testid=r1',
    ]);
  });

  it("leave k6's progress on when stdout is a terminal, and quiet off one", () => {
    expect(k6RunArgs({ k6Options, runId: 'a', scenario: 'calls', tty: true })).not.toContain('--quiet');
    expect(k6RunArgs({ k6Options, runId: 'a', scenario: 'calls', tty: false })).toContain('--quiet');
  });
});
