/** Runs `npm run certify` as a child process, as a user would, and reads its report. */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { RunReport } from '../../src/report/model.js';
import { readReportFile } from '../../src/report/validate.js';

const ROOT = resolve(import.meta.dirname, '../..');
const RUN_TIMEOUT_MS = 150_000;

export interface ChildRun {
  exitCode: number | null;
  output: string;
  report?: RunReport;
}

/** The environment without any setting of ours, so the caller's settings are the only ones. */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(SVC|RECEIVER|CERTIFY)_/.test(name)));
}

export async function runCertify(settings: Record<string, string>): Promise<ChildRun> {
  const reportDir = mkdtempSync(join(tmpdir(), 'certify-child-'));
  try {
    const child = spawn(process.execPath, [join(ROOT, 'bin/svc-harness.js'), 'certify'], {
      cwd: ROOT,
      env: { ...cleanEnv(), ...settings, CERTIFY_REPORT_DIR: reportDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
    const exitCode = await new Promise<number | null>((done) => child.on('close', done));
    clearTimeout(timer);
    let report: RunReport | undefined;
    // A report that exists must conform to the published schema; a run that wrote none has none.
    const reportPath = join(reportDir, 'report.json');
    if (existsSync(reportPath)) report = readReportFile(reportPath);
    return { exitCode, output, ...(report ? { report } : {}) };
  } finally {
    rmSync(reportDir, { recursive: true, force: true });
  }
}
