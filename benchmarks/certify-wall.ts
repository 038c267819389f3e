/**
 * The fast tier's wall time beside its longest check, in one run of each reference
 * personality: the suites run side by side, so a run should take little more than its
 * longest check (goal: wall ≤ 1.35 × longest). The wall is the whole command, from start
 * to exit, as a CI job waits for it.
 * Runnable alone: `npx tsx benchmarks/certify-wall.ts`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { RunReport } from '../src/report/model.js';
import { formatBound, GOALS } from './goals.js';

const PROJECT_ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const RUN_LIMIT_MS = 10 * 60_000;

export interface CertifyWall {
  personality: 'default' | 'alternate';
  wallMs: number;
  longestCheck: { id: string; ms: number };
  exitCode: number | null;
}

export async function benchCertifyWall(personality: CertifyWall['personality']): Promise<CertifyWall> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-certify-'));
  try {
    const started = performance.now();
    const exitCode = await new Promise<number | null>((done, failed) => {
      const child = spawn(process.execPath, ['bin/svc-harness.js', 'certify'], {
        cwd: PROJECT_ROOT,
        env: {
          ...process.env,
          CERTIFY_REPORT_DIR: dir,
          CERTIFY_TIER: 'fast',
          ...(personality === 'alternate' ? { REFERENCE_PERSONALITY: 'alternate' } : {}),
        },
        stdio: 'ignore',
        timeout: RUN_LIMIT_MS,
      });
      child.on('error', failed);
      child.on('exit', (code) => done(code));
    });
    const wallMs = performance.now() - started;
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as RunReport;
    const longest = report.checks.reduce((a, b) => (b.duration_ms > a.duration_ms ? b : a));
    return { personality, wallMs, longestCheck: { id: longest.id, ms: longest.duration_ms }, exitCode };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatCertifyWall(row: CertifyWall): string {
  const ratio = row.wallMs / row.longestCheck.ms;
  return `${row.personality.padEnd(10)} wall ${(row.wallMs / 1000).toFixed(1)} s, longest check ${row.longestCheck.id} ${(row.longestCheck.ms / 1000).toFixed(1)} s: ${ratio.toFixed(2)} × (goal ${formatBound(GOALS.wallOverLongestCheck, '×')})${row.exitCode === 0 ? '' : `; exit ${row.exitCode}`}`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const personality of ['default', 'alternate'] as const)
    console.log(formatCertifyWall(await benchCertifyWall(personality)));
}
