import { describe, expect, it } from 'vitest';
import { parseCommandArgs } from '../../src/cli/command.js';
import { loadCommand } from '../../src/cli/commands/load.js';
import { toLoadArgs } from '../../src/load/args.js';

const KNOWN = ['calls', 'calls-ramp', 'fanout', 'rotation'];
const parseArgs = (argv: string[], known: string[]) => toLoadArgs(parseCommandArgs(loadCommand, argv), known);

describe('svc-harness load arguments', () => {
  it('runs every scenario by default', () => {
    expect(parseArgs([], KNOWN).scenarios).toEqual(KNOWN);
  });

  it('takes scenarios and options', () => {
    const args = parseArgs(
      ['calls', '--smoke', '--baseline', 'b.json', '--tolerance', '15', '--allow-production'],
      KNOWN,
    );
    expect(args).toMatchObject({
      scenarios: ['calls'],
      smoke: true,
      baseline: 'b.json',
      tolerance: 0.15,
      allowProduction: true,
    });
  });

  it('refuses an unknown scenario or option', () => {
    expect(() => parseArgs(['callz'], KNOWN)).toThrow(/unknown scenario callz/);
    expect(() => parseArgs(['--fast'], KNOWN)).toThrow(/Unknown option '--fast'/);
    expect(() => parseArgs(['--baseline'], KNOWN)).toThrow(/--baseline <value>' argument missing/);
    expect(() => parseArgs(['--tolerance', 'lots'], KNOWN)).toThrow(/percentage/);
  });

  it('hands the words after -- to k6, checked, and counts the k6 processes they would go to', () => {
    const args = parseArgs(
      [
        'calls',
        '--prometheus-rw',
        'http://127.0.0.1:9090/api/v1/write',
        '--',
        '--tag',
        'testid=r1',
        '--out',
        'json=calls.json',
      ],
      KNOWN,
    );
    expect(args).toMatchObject({ scenarios: ['calls'], prometheusRw: 'http://127.0.0.1:9090/api/v1/write' });
    expect(args.k6Options).toMatchObject({
      args: ['--tag', 'testid=r1', '--out', 'json=calls.json'],
      tags: { testid: 'r1' },
      outputs: ['json'],
    });
    // Words after -- are k6's, never scenarios.
    expect(() => parseArgs(['--', 'calls'], KNOWN)).toThrow(/not an option; the harness names the script/);
    // One file for every scenario, or for every segment: refused.
    expect(() => parseArgs(['--', '--out', 'json=all.json'], KNOWN)).toThrow(/would share/);
    expect(() => parseArgs(['calls', '--instances', '2', '--', '--out', 'json=all.json'], KNOWN)).toThrow(
      /would share/,
    );
    expect(parseArgs(['calls'], KNOWN).k6Options.args).toEqual([]);
  });
});
