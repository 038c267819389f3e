/**
 * One command of the `svc-harness` CLI: its options (parsed by node:util parseArgs), the
 * settings it reads, its exit codes, and `run`. `--help` is every command's, rendered
 * from the same description, so the help cannot drift from what is parsed.
 */
import { parseArgs } from 'node:util';
import type { SettingHelp } from '../config/describe.js';
import { UsageError } from '../errors.js';

export { UsageError };

export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  /** Shown after the option in help, e.g. <file>. */
  value?: string;
  description: string;
}

export interface ParsedArgs {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
  /** The words after `--`, for a command that hands them to another program (Command.passThrough). */
  passThrough?: string[];
}

export interface Command {
  /** Words after the program name: ['certify'] or ['certify', 'receiver']. */
  words: string[];
  /** One line, for the list of commands. */
  summary: string;
  /** More about the command, shown under the summary in its help. */
  description?: string;
  /** Positional arguments, as shown in usage: '[scenario ...]'. */
  positionals?: { usage: string; description: string; min?: number; max?: number };
  options?: Record<string, OptionSpec>;
  /** Words after `--` go, unparsed, to another program (load: k6); shown in usage. */
  passThrough?: { usage: string };
  /** Environment settings the command reads (environment first, then .env). */
  settings?: () => SettingHelp[];
  exitCodes: Record<number, string>;
  /** More lines of help, after the settings. */
  notes?: string[];
  run(args: ParsedArgs): Promise<number>;
}

export const PROGRAM = 'svc-harness';

/**
 * For the commands that serve until stopped: resolves with the first SIGINT or SIGTERM.
 * Call it before announcing readiness: until a listener exists, a signal kills the process.
 */
export function untilStopSignal(): Promise<'SIGINT' | 'SIGTERM'> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
}

const HELP_OPTION: OptionSpec = { type: 'boolean', short: 'h', description: 'print this help and exit' };

export function parseCommandArgs(command: Command, argv: string[]): ParsedArgs & { help: boolean } {
  const specs = { ...command.options, help: HELP_OPTION };
  const separator = command.passThrough ? argv.indexOf('--') : -1;
  const own = separator === -1 ? argv : argv.slice(0, separator);
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: own,
      allowPositionals: command.positionals !== undefined,
      strict: true,
      options: Object.fromEntries(
        Object.entries(specs).map(([name, spec]) => [
          name,
          { type: spec.type, ...(spec.short ? { short: spec.short } : {}) },
        ]),
      ),
    });
  } catch (error) {
    // parseArgs's messages name the option ("Unknown option '--x'"); the first sentence is enough.
    throw new UsageError(`${(error as Error).message.split('. ')[0]}`);
  }
  const { help, ...values } = parsed.values as Record<string, string | boolean | undefined>;
  const positionals = parsed.positionals;
  if (!help && command.positionals) {
    const { min = 0, max = Infinity } = command.positionals;
    if (positionals.length < min || positionals.length > max) {
      throw new UsageError(
        `expected ${command.positionals.usage}, got ${positionals.length} argument${positionals.length === 1 ? '' : 's'}`,
      );
    }
  }
  return {
    values,
    positionals,
    help: help === true,
    ...(command.passThrough ? { passThrough: separator === -1 ? [] : argv.slice(separator + 1) } : {}),
  };
}

export function usageLine(command: Command): string {
  const options = Object.entries(command.options ?? {}).map(
    ([name, spec]) => `[--${name}${spec.value ? ` ${spec.value}` : ''}]`,
  );
  return [
    PROGRAM,
    ...command.words,
    ...options,
    ...(command.positionals ? [command.positionals.usage] : []),
    ...(command.passThrough ? [command.passThrough.usage] : []),
  ].join(' ');
}

export function renderHelp(command: Command): string {
  const lines = [
    `usage: ${usageLine(command)}`,
    '',
    command.summary,
    ...(command.description ? [command.description] : []),
    '',
  ];
  if (command.positionals)
    lines.push(
      'arguments:',
      `  ${command.positionals.usage}`,
      `  ${''.padEnd(28)} ${command.positionals.description}`,
      '',
    );
  lines.push('options:');
  for (const [name, spec] of Object.entries({ ...command.options, help: HELP_OPTION })) {
    const flag = `${spec.short ? `-${spec.short}, ` : ''}--${name}${spec.value ? ` ${spec.value}` : ''}`;
    lines.push(`  ${flag.padEnd(28)} ${spec.description}`);
  }
  const settings = command.settings?.() ?? [];
  if (settings.length > 0) {
    lines.push('', 'settings (environment, then .env in the working directory; the environment wins):');
    const width = Math.max(...settings.map((s) => s.name.length));
    for (const setting of settings) {
      lines.push(
        `  ${setting.name.padEnd(width)}  ${setting.description}${setting.default !== undefined ? ` (default ${setting.default})` : ''}`,
      );
    }
  }
  lines.push('', 'exit codes:');
  for (const [code, meaning] of Object.entries(command.exitCodes)) lines.push(`  ${code.padStart(3)}  ${meaning}`);
  if (command.notes?.length) lines.push('', ...command.notes);
  return `${lines.join('\n')}\n`;
}
