/**
 * `npm run stability [-- N]`: runs the fast tier N times (default 20) against the
 * embedded reference and reports every check whose verdict changed between runs.
 * Exit 0 when every check kept one verdict in every run, 1 otherwise.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunReport } from '../src/report/model.js';

const runs = Number(process.argv[2] ?? 20);
if (!Number.isInteger(runs) || runs < 2) {
  console.error('stability: give the number of runs, 2 or more (npm run stability -- 20)');
  process.exit(2);
}

const verdicts = new Map<string, Map<string, number>>();
const durations: number[] = [];
let runsWithoutReport = 0;
for (let run = 1; run <= runs; run++) {
  const dir = mkdtempSync(join(tmpdir(), 'stability-'));
  const started = Date.now();
  const child = spawnSync(process.execPath, ['bin/svc-harness.js', 'certify'], {
    env: { ...process.env, CERTIFY_REPORT_DIR: dir, CERTIFY_TIER: 'fast' },
    encoding: 'utf8',
    timeout: 15 * 60_000,
  });
  durations.push(Date.now() - started);
  let report: RunReport | undefined;
  try {
    report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as RunReport;
  } catch {
    runsWithoutReport += 1;
    console.log(`run ${run}: no report (exit ${child.status}): ${(child.stderr || '').trim().split('\n').pop() ?? ''}`);
  }
  rmSync(dir, { recursive: true, force: true });
  if (!report) continue;
  for (const check of report.checks) {
    // What a non-passing verdict said, so that an unstable check can be understood without a re-run.
    if (check.verdict === 'fail' || check.verdict === 'warn') console.log(`run ${run}: ${check.id} ${check.verdict}: ${check.detail ?? ''}`);
    const seen = verdicts.get(check.id) ?? new Map<string, number>();
    seen.set(check.verdict, (seen.get(check.verdict) ?? 0) + 1);
    verdicts.set(check.id, seen);
  }
  const { pass, fail, warn, skip } = report.summary;
  console.log(`run ${run}/${runs}: exit ${child.status}, ${pass} pass, ${fail} fail, ${warn} warn, ${skip} skip, ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

const unstable = [...verdicts].filter(([, seen]) => seen.size > 1);
console.log('');
for (const [id, seen] of unstable) console.log(`UNSTABLE ${id}: ${[...seen].map(([verdict, count]) => `${verdict} ${count}x`).join(', ')}`);
const median = [...durations].sort((a, b) => a - b)[Math.floor(durations.length / 2)] ?? 0;
console.log(`${runs} runs (${runsWithoutReport} without a report), ${verdicts.size} checks, ${unstable.length} changed verdict; median run ${(median / 1000).toFixed(0)} s`);
process.exit(unstable.length === 0 && runsWithoutReport === 0 ? 0 : 1);
