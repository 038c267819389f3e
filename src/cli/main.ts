/**
 * `svc-harness <command>`: one entry point for every command (bin/svc-harness.js runs it).
 * Each command is described once in src/cli/commands/; this module picks one, parses its
 * arguments, prints its help, and turns the errors that mean "this run cannot happen" into
 * exit 2 with a one-line reason on stderr.
 */
import { EXIT, HarnessError } from '../errors.js';
import { writeLine } from '../text/console.js';
import { type Command, parseCommandArgs, PROGRAM, renderHelp, UsageError, usageLine } from './command.js';
import { certifyReceiverCommand } from './commands/certify-receiver.js';
import { certifyCommand } from './commands/certify.js';
import { loadCommand } from './commands/load.js';
import { loadMergeCommand } from './commands/load-merge.js';
import { loadFanoutHostCommand } from './commands/load-fanout-host.js';
import { loadSecretCommand } from './commands/load-secret.js';
import { receiverCommand } from './commands/receiver.js';
import { referenceCommand } from './commands/reference.js';
import { reportDiffCommand } from './commands/report-diff.js';
import { sendCommand } from './commands/send.js';
import { verifyCommand } from './commands/verify.js';
import { HARNESS_VERSION } from '../version.js';
import { sourceMappedStack } from './stack.js';

export const COMMANDS: readonly Command[] = [
  certifyCommand,
  certifyReceiverCommand,
  receiverCommand,
  loadCommand,
  loadMergeCommand,
  loadSecretCommand,
  loadFanoutHostCommand,
  reportDiffCommand,
  sendCommand,
  verifyCommand,
  referenceCommand,
];

export function programHelp(): string {
  const width = Math.max(...COMMANDS.map((command) => command.words.join(' ').length));
  return [
    `usage: ${PROGRAM} <command> [options]`,
    '',
    'Conformance and load-test harness for the Voice and Mailer Automation Service.',
    '',
    'commands:',
    ...COMMANDS.map((command) => `  ${command.words.join(' ').padEnd(width)}  ${command.summary}`),
    '',
    `Run \`${PROGRAM} <command> --help\` (or \`${PROGRAM} help <command>\`) for a command's options, settings and exit codes;`,
    `\`${PROGRAM} --version\` prints the version.`,
    '',
  ].join('\n');
}

/** The command named by the longest run of leading words: `certify receiver` before `certify`. */
export function findCommand(argv: readonly string[]): { command: Command; rest: string[] } | undefined {
  const byLength = [...COMMANDS].sort((a, b) => b.words.length - a.words.length);
  for (const command of byLength) {
    if (command.words.every((word, i) => argv[i] === word)) return { command, rest: argv.slice(command.words.length) };
  }
  return undefined;
}

/** Runs the command line; resolves to the exit code. Output goes to stdout and stderr. */
export async function main(argv: readonly string[]): Promise<number> {
  // `help certify receiver` is `certify receiver --help`.
  if (argv[0] === 'help' && argv.length > 1) return main([...argv.slice(1), '--help']);
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    process.stdout.write(programHelp());
    return argv.length === 0 ? EXIT.noRun : 0;
  }
  if (argv[0] === '--version') {
    process.stdout.write(`${HARNESS_VERSION}\n`);
    return 0;
  }
  const found = findCommand(argv);
  if (!found) {
    writeLine(
      process.stderr,
      `${PROGRAM}: unknown command ${JSON.stringify(argv[0])}; commands: ${COMMANDS.map((c) => c.words.join(' ')).join(', ')}`,
    );
    return EXIT.noRun;
  }
  const { command, rest } = found;
  const name = `${PROGRAM} ${command.words.join(' ')}`;
  try {
    const args = parseCommandArgs(command, rest);
    if (args.help) {
      process.stdout.write(renderHelp(command));
      return 0;
    }
    return await command.run(args);
  } catch (error) {
    if (error instanceof UsageError) {
      writeLine(process.stderr, `${name}: ${error.message}\nusage: ${usageLine(command)} (see --help)`);
      return error.exitCode;
    }
    if (error instanceof HarnessError) {
      writeLine(process.stderr, `${name}: ${error.message}`);
      return error.exitCode;
    }
    // Not one of ours: a bug, so the stack goes with it, in the sources' lines.
    const stack = (error as Error)?.stack;
    writeLine(
      process.stderr,
      `${name}: failed: ${typeof stack === 'string' ? sourceMappedStack(stack) : String(error)}`,
    );
    return EXIT.noRun;
  }
}
