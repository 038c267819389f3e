import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCommandArgs, renderHelp, UsageError } from '../../src/cli/command.js';
import { COMMANDS, findCommand, programHelp } from '../../src/cli/main.js';

import { runHarness } from '../support/child.js';

/** The installed command as a user runs it. */
async function svcHarness(args: string[], env: Record<string, string> = {}) {
  const run = await runHarness(args, { env, timeoutMs: 30_000 });
  return { code: run.exitCode, stdout: run.stdout, stderr: run.stderr };
}

describe('svc-harness', () => {
  it('--help lists every command and exits 0', async () => {
    const run = await svcHarness(['--help']);
    expect(run.code).toBe(0);
    for (const command of COMMANDS) expect(run.stdout).toContain(`  ${command.words.join(' ')} `);
  });

  it("help <command> prints that command's help, as <command> --help does, and --help names --version", async () => {
    const viaHelp = await svcHarness(['help', 'certify', 'receiver']);
    const viaFlag = await svcHarness(['certify', 'receiver', '--help']);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toBe(viaFlag.stdout);
    expect(viaHelp.stdout).not.toBe(programHelp());
    expect(programHelp()).toContain('--version');
  });

  it('without a command prints the list and exits 2', async () => {
    const run = await svcHarness([]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe(programHelp());
  });

  it('certify --help prints usage, every setting of the contract and the exit codes', async () => {
    const run = await svcHarness(['certify', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^usage: svc-harness certify .*\[--allow-production\]/);
    for (const name of [
      'SVC_BASE_URL',
      'SVC_CONTROL_URL',
      'SVC_CONTROL_TOKEN',
      'SVC_TOKEN',
      'RECEIVER_PORT',
      'RECEIVER_PUBLIC_URL',
      'CERTIFY_TIER',
      'CERTIFY_REPORT_DIR',
    ]) {
      expect(run.stdout).toContain(`  ${name} `);
    }
    expect(run.stdout).toMatch(/exit codes:\n\s+0 .*\n\s+1 .*\n\s+2 .*\n\s+3 .*clean-up incomplete.*\n\s+130 /);
  });

  it.each(COMMANDS.map((command) => [command.words.join(' '), command] as const))(
    '%s --help shows its options, settings and exit codes',
    async (_name, command) => {
      const run = await svcHarness([...command.words, '--help']);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(renderHelp(command));
      expect(run.stdout).toContain('exit codes:');
      for (const option of Object.keys(command.options ?? {})) expect(run.stdout).toContain(`--${option}`);
      for (const setting of command.settings?.() ?? []) expect(run.stdout).toContain(setting.name);
    },
  );

  it('refuses an unknown option with exit 2, the reason and the usage on stderr', async () => {
    const run = await svcHarness(['certify', '--alow-production']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^svc-harness certify: Unknown option '--alow-production'\nusage: svc-harness certify/);
  });

  it('refuses an unknown command with exit 2', async () => {
    const run = await svcHarness(['certfy']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unknown command "certfy"; commands: certify, certify receiver/);
  });

  it('stops a run whose settings are wrong with exit 2 and one line naming the setting', async () => {
    const run = await svcHarness(['certify'], { SVC_BASE_URL: 'staging.example.test' });
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/SVC_BASE_URL must be an absolute http/);
  });

  it.each([
    [['reference'], { REFERENCE_LATENCY_MS: '' }, /^svc-harness reference: REFERENCE_LATENCY_MS is set but empty/],
    [
      ['certify'],
      { REFERENCE_PERSONALITY: 'lenient' },
      /^certify: REFERENCE_PERSONALITY must be reference or alternate or jsonwebtoken, got "lenient"/,
    ],
  ])(
    '%j stops with exit 2 and one line naming the REFERENCE_ setting it cannot start the reference with',
    async (args, env, message) => {
      const run = await svcHarness(args, { ...env, CERTIFY_REPORT_DIR: join(tmpdir(), 'never-written') });
      expect(run.code).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(message);
    },
  );

  it('takes a flag over the environment for the setting it stands for', async () => {
    const run = await svcHarness(['certify', '--base-url', 'staging.example.test'], {
      SVC_BASE_URL: 'https://staging.example.test',
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/SVC_BASE_URL must be an absolute http/);
  });

  it('certifies the checks --checks names into --report-dir, with the --seed in report.json', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-flags-'));
    try {
      const run = await runHarness(
        ['certify', '--checks', 'AUTH-WHOAMI-ACCEPTED', '--report-dir', dir, '--seed', '4242', '--tier', 'fast'],
        { env: { CERTIFY_CHECKS: 'SCOPE-*' }, timeoutMs: 90_000 },
      );
      expect(run.exitCode, run.stderr).toBe(0);
      const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as {
        seed: number;
        checks: Array<{ id: string }>;
      };
      expect(report.seed).toBe(4242);
      expect(report.checks.map((check) => check.id)).toEqual(['AUTH-WHOAMI-ACCEPTED']);
      expect(run.stdout).toContain('seed 4242');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('report diff refuses a file that is not a report, naming the schema', async () => {
    const run = await svcHarness(['report', 'diff', 'package.json', 'package.json']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/package\.json does not conform to schemas\/report\.schema\.json/);
  });
});

describe('command lookup and arguments', () => {
  it('takes the longest matching command: certify receiver before certify', () => {
    expect(findCommand(['certify', 'receiver', '--help'])?.command.words).toEqual(['certify', 'receiver']);
    expect(findCommand(['certify', '--help'])?.command.words).toEqual(['certify']);
    expect(findCommand(['report'])).toBeUndefined();
  });

  it('counts positional arguments against the command', () => {
    const diff = findCommand(['report', 'diff'])!.command;
    expect(() => parseCommandArgs(diff, ['a.json'])).toThrow(UsageError);
    expect(() => parseCommandArgs(diff, ['a.json', 'b.json', 'c.json'])).toThrow(/got 3 arguments/);
    expect(parseCommandArgs(diff, ['a.json', 'b.json', '--html', 'd.html'])).toEqual({
      values: { html: 'd.html' },
      positionals: ['a.json', 'b.json'],
      help: false,
    });
  });

  it('refuses positional arguments to a command that takes none', () => {
    expect(() => parseCommandArgs(findCommand(['certify'])!.command, ['extra'])).toThrow(/Unexpected argument 'extra'/);
  });
});

describe('commands that serve until stopped', () => {
  it.each([
    ['receiver', /SIGTERM: stopped after 0 deliveries/],
    ['reference', /SIGTERM: stopping the reference/],
  ])('%s stops on SIGTERM with exit 0', async (command, stopped) => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-serve-'));
    const run = await runHarness([command], {
      env: { REFERENCE_TOKEN_FILE: join(dir, 'control-token') },
      timeoutMs: 30_000,
      onSpawn: (child) =>
        child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('Ctrl-C') && child.kill('SIGTERM')),
    }).finally(() => rmSync(dir, { recursive: true, force: true }));
    expect(run.exitCode, run.output).toBe(0);
    expect(run.stdout).toMatch(stopped);
  });
});
