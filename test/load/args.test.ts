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
    const args = parseArgs(['calls', '--smoke', '--baseline', 'b.json', '--tolerance', '15', '--allow-production'], KNOWN);
    expect(args).toMatchObject({ scenarios: ['calls'], smoke: true, baseline: 'b.json', tolerance: 0.15, allowProduction: true });
  });

  it('refuses an unknown scenario or option', () => {
    expect(() => parseArgs(['callz'], KNOWN)).toThrow(/unknown scenario callz/);
    expect(() => parseArgs(['--fast'], KNOWN)).toThrow(/Unknown option '--fast'/);
    expect(() => parseArgs(['--baseline'], KNOWN)).toThrow(/--baseline <value>' argument missing/);
    expect(() => parseArgs(['--tolerance', 'lots'], KNOWN)).toThrow(/percentage/);
  });
});
