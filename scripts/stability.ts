/**
 * `npm run stability [-- N] [--lane reference|plain-proxy|staging-alternate]`: runs the fast tier
 * N times (default 20), one run at a time, and reports every check whose verdict changed between
 * runs, and per run its exit code, verdict counts, resends, unanswered requests and wall time.
 * - `reference` (default): the embedded reference, as the environment sets it up;
 * - `plain-proxy`: the reference on plain HTTP through tinyproxy set as HTTP_PROXY
 *   (`scripts/certify-network-path.ts --plain`, its refused proof included);
 * - `staging-alternate`: the alternate personality 40 ms away, 10 requests/s per workspace and
 *   50/s per client, 1% of connections reset, a seed of resets per run.
 * Exit 0 when every check kept one verdict in every run, and, in the two network lanes, every run
 * ended exit 0 with no fail, warn or error; 1 otherwise.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { RunReport } from '../src/report/model.js';

const LANES = ['reference', 'plain-proxy', 'staging-alternate'] as const;
type Lane = (typeof LANES)[number];

const { values, positionals } = parseArgs({
  options: { lane: { type: 'string', default: 'reference' } },
  allowPositionals: true,
});
const runs = Number(positionals[0] ?? 20);
const lane = values.lane as Lane;
if (!Number.isInteger(runs) || runs < 2 || !LANES.includes(lane)) {
  console.error(
    `stability: give the number of runs, 2 or more, and a lane of ${LANES.join(', ')} (npm run stability -- 20 --lane plain-proxy)`,
  );
  process.exit(2);
}
/** The network lanes promise a clean run every time, not only the same verdicts. */
const mustBeClean = lane !== 'reference';

/** The command of one run, writing its reports to `dir`. */
function command(run: number, dir: string): { args: string[]; env: NodeJS.ProcessEnv } {
  const env = { ...process.env, CERTIFY_REPORT_DIR: dir, CERTIFY_TIER: 'fast' };
  if (lane === 'plain-proxy')
    return { args: ['--import', 'tsx', 'scripts/certify-network-path.ts', '--plain', '--report-dir', dir], env };
  if (lane === 'staging-alternate') {
    const network = {
      REFERENCE_PERSONALITY: 'alternate',
      REFERENCE_LATENCY_MS: '40',
      REFERENCE_RATE_LIMIT: '10/workspace,50/client',
      REFERENCE_RESET_FRACTION: '0.01',
      REFERENCE_SEED: String(run),
    };
    return { args: ['bin/svc-harness.js', 'certify'], env: { ...env, ...network } };
  }
  return { args: ['bin/svc-harness.js', 'certify'], env };
}

const verdicts = new Map<string, Map<string, number>>();
const durations: number[] = [];
let runsWithoutReport = 0;
let uncleanRuns = 0;
const totals = { resent: 0, unanswered: 0, error: 0 };
for (let run = 1; run <= runs; run++) {
  const dir = mkdtempSync(join(tmpdir(), 'stability-'));
  const started = Date.now();
  const { args, env } = command(run, dir);
  const child = spawnSync(process.execPath, args, {
    env,
    encoding: 'utf8',
    timeout: 15 * 60_000,
    maxBuffer: 64 * 1024 * 1024,
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
    if (check.verdict === 'fail' || check.verdict === 'warn' || check.verdict === 'error')
      console.log(`run ${run}: ${check.id} ${check.verdict}: ${check.detail ?? ''}`);
    const seen = verdicts.get(check.id) ?? new Map<string, number>();
    seen.set(check.verdict, (seen.get(check.verdict) ?? 0) + 1);
    verdicts.set(check.id, seen);
  }
  const { pass, fail, warn, skip } = report.summary;
  const error = report.summary.error ?? 0;
  const { resent, unanswered } = report.network ?? { resent: 0, unanswered: 0 };
  totals.resent += resent;
  totals.unanswered += unanswered;
  totals.error += error;
  if (child.status !== 0 || fail + warn + error > 0) uncleanRuns += 1;
  console.log(
    `run ${run}/${runs}: exit ${child.status}, ${pass} pass, ${fail} fail, ${warn} warn, ${error} error, ${skip} skip; ${resent} resent, ${unanswered} unanswered; ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
}

const unstable = [...verdicts].filter(([, seen]) => seen.size > 1);
console.log('');
for (const [id, seen] of unstable)
  console.log(`UNSTABLE ${id}: ${[...seen].map(([verdict, count]) => `${verdict} ${count}x`).join(', ')}`);
const sorted = [...durations].sort((a, b) => a - b);
const seconds = (ms: number) => `${(ms / 1000).toFixed(0)} s`;
console.log(
  `lane ${lane}: ${runs} runs (${runsWithoutReport} without a report, ${uncleanRuns} not exit 0 or not clean), ${verdicts.size} checks, ${unstable.length} changed verdict`,
);
console.log(
  `resends ${totals.resent}, unanswered ${totals.unanswered}, errors ${totals.error}; wall min ${seconds(sorted[0] ?? 0)}, median ${seconds(sorted[Math.floor(sorted.length / 2)] ?? 0)}, max ${seconds(sorted.at(-1) ?? 0)}`,
);
const stable = unstable.length === 0 && runsWithoutReport === 0 && (!mustBeClean || uncleanRuns === 0);
process.exit(stable ? 0 : 1);
