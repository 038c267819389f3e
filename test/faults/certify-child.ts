/** Runs `svc-harness certify`, as a child process of its own (as a user would) or in a pooled worker, and reads its report. */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunReport } from '../../src/report/model.js';
import { readReportFile } from '../../src/report/validate.js';
import { runHarness } from '../support/child.js';

/** A run's limit, against a run that never ends; a run that waits out time limits gets more (WAITING_RUN_TIMEOUT_MS). */
const RUN_TIMEOUT_MS = 150_000;
/**
 * The limit of a run that waits out time limits (a full retry schedule and the drop after it, a
 * real-time minute): such runs take up to two minutes alone, and start beside a dozen others.
 */
export const WAITING_RUN_TIMEOUT_MS = 300_000;

export interface ChildRun {
  exitCode: number | null;
  output: string;
  report?: RunReport;
  /** A pooled run's own time, without the wait for a worker. */
  ownMs?: number;
}

/** How a run is made: a `svc-harness certify` process of its own, or a run in a pooled worker (certify-pool.ts). */
export type CertifyRunner = (
  env: Record<string, string>,
  timeoutMs: number,
) => Promise<{ exitCode: number | null; output: string; ownMs?: number }>;

const ownProcess: CertifyRunner = (env, timeoutMs) => runHarness(['certify'], { env, timeoutMs });

export async function runCertify(
  settings: Record<string, string>,
  runner: CertifyRunner = ownProcess,
  timeoutMs = RUN_TIMEOUT_MS,
): Promise<ChildRun> {
  const reportDir = mkdtempSync(join(tmpdir(), 'certify-child-'));
  try {
    const run = await runner({ ...settings, CERTIFY_REPORT_DIR: reportDir }, timeoutMs);
    // A report that exists must conform to the published schema; a run that wrote none has none.
    const reportPath = join(reportDir, 'report.json');
    const report = existsSync(reportPath) ? readReportFile(reportPath) : undefined;
    return {
      exitCode: run.exitCode,
      output: run.output,
      ...(report ? { report } : {}),
      ...(run.ownMs === undefined ? {} : { ownMs: run.ownMs }),
    };
  } finally {
    rmSync(reportDir, { recursive: true, force: true });
  }
}
