/** Runs `svc-harness certify`, as a child process of its own (as a user would) or in a pooled worker, and reads its report. */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunReport } from '../../src/report/model.js';
import { readReportFile } from '../../src/report/validate.js';
import { runHarness } from '../support/child.js';

const RUN_TIMEOUT_MS = 150_000;

export interface ChildRun {
  exitCode: number | null;
  output: string;
  report?: RunReport;
}

/** How a run is made: a `svc-harness certify` process of its own, or a run in a pooled worker (certify-pool.ts). */
export type CertifyRunner = (
  env: Record<string, string>,
  timeoutMs: number,
) => Promise<{ exitCode: number | null; output: string }>;

const ownProcess: CertifyRunner = (env, timeoutMs) => runHarness(['certify'], { env, timeoutMs });

export async function runCertify(
  settings: Record<string, string>,
  runner: CertifyRunner = ownProcess,
): Promise<ChildRun> {
  const reportDir = mkdtempSync(join(tmpdir(), 'certify-child-'));
  try {
    const run = await runner({ ...settings, CERTIFY_REPORT_DIR: reportDir }, RUN_TIMEOUT_MS);
    // A report that exists must conform to the published schema; a run that wrote none has none.
    const reportPath = join(reportDir, 'report.json');
    const report = existsSync(reportPath) ? readReportFile(reportPath) : undefined;
    return { exitCode: run.exitCode, output: run.output, ...(report ? { report } : {}) };
  } finally {
    rmSync(reportDir, { recursive: true, force: true });
  }
}
