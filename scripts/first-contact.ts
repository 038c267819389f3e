/**
 * `npm run first-contact -- <round> --harness <folder> [--parallel N] [fault…]`: scores a red-team
 * round on first contact (docs/proving.md, Red team rounds). The reference of this clone, with
 * the round's faults, is certified in the fast tier under each fault of docs/red-team/round-<N>.json
 * by the harness of another folder: a worktree of the commit the red team started from, which
 * nobody edits after (`git worktree add <folder> <commit>`, then its own `npm ci`). The checks
 * that failed, warned or erred are run again under the fault, and the ones still failing are run
 * against the clean reference. A fault counts as caught by a check that failed or warned under it
 * both times and passed clean, unless only its own time-out failed it (its detail then names
 * nothing the fault did). Writes `<round>-first-contact.json` beside the round and prints a line
 * per fault. Not part of `npm test`: a round takes about two fast-tier runs per fault.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startReference, type RunningReference } from '../reference/index.js';
import type { RunReport } from '../src/report/model.js';
import { withoutSettings } from '../test/support/child.js';

/** A fast-tier run that has not ended by then is killed: no report, nothing caught. */
const RUN_LIMIT_MS = 600_000;
const OWN_TIME_OUT = /did not finish within its time-out/;

const { values, positionals } = parseArgs({
  options: { harness: { type: 'string' }, parallel: { type: 'string', default: '2' } },
  allowPositionals: true,
});
const [round, ...only] = positionals;
if (!round || !values.harness) {
  console.error('first-contact: give the round and the harness folder (npm run first-contact -- 5 --harness ../ft5)');
  process.exit(2);
}
const roundFile = resolve(`docs/red-team/round-${round}.json`);
const faults =
  only.length > 0
    ? only
    : (JSON.parse(readFileSync(roundFile, 'utf8')) as Array<{ fault: string }>).map((f) => f.fault);
const harness = resolve(values.harness);

interface Verdicts {
  exitCode: number | null;
  /** `ID:verdict` of each check that failed, warned or erred. */
  bad: Array<{ id: string; verdict: string; detail: string }>;
}

/** The harness's `certify` against the reference under `prefix`, of `checks` (or the whole fast tier). */
function certify(reference: RunningReference, prefix: string, checks?: readonly string[]): Promise<Verdicts> {
  const dir = mkdtempSync(join(tmpdir(), 'first-contact-'));
  const env = {
    ...withoutSettings(),
    SVC_BASE_URL: reference.baseUrl + prefix,
    SVC_CONTROL_URL: reference.controlUrl.replace(reference.baseUrl, reference.baseUrl + prefix),
    SVC_CONTROL_TOKEN: reference.controlToken,
    CERTIFY_REPORT_DIR: dir,
    CERTIFY_TIER: 'fast',
    ...(checks ? { CERTIFY_CHECKS: checks.join(',') } : {}),
  };
  return new Promise((done) => {
    const child = spawn(process.execPath, ['bin/svc-harness.js', 'certify'], { cwd: harness, env, stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_LIMIT_MS);
    child.on('exit', (exitCode) => {
      clearTimeout(timer);
      let report: RunReport | undefined;
      try {
        report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as RunReport;
      } catch {
        report = undefined;
      }
      rmSync(dir, { recursive: true, force: true });
      const bad = (report?.checks ?? [])
        .filter((check) => ['fail', 'warn', 'error'].includes(check.verdict))
        .map((check) => ({ id: check.id, verdict: check.verdict, detail: String(check.detail ?? '') }));
      done({ exitCode, bad });
    });
  });
}

async function score(reference: RunningReference, fault: string) {
  const prefix = `/faults/${fault}`;
  const first = await certify(reference, prefix);
  const again =
    first.bad.length > 0
      ? (
          await certify(
            reference,
            prefix,
            first.bad.map((c) => c.id),
          )
        ).bad
      : [];
  const stillBad = again.filter((check) => check.verdict !== 'error');
  const clean =
    stillBad.length > 0
      ? (
          await certify(
            reference,
            '',
            stillBad.map((c) => c.id),
          )
        ).bad
      : [];
  const cleanIds = new Set(clean.map((check) => check.id));
  const caughtBy = stillBad.filter((check) => !cleanIds.has(check.id) && !OWN_TIME_OUT.test(check.detail));
  return {
    fault,
    caught: caughtBy.length > 0,
    failed_checks: caughtBy.map((check) => check.id),
    first: first.bad.map((check) => `${check.id}: ${check.verdict}`),
    again: again.map((check) => `${check.id}: ${check.verdict}`),
    clean: clean.map((check) => `${check.id}: ${check.verdict}`),
  };
}

const reference = await startReference({ quiet: true });
const results: Array<Awaited<ReturnType<typeof score>>> = [];
let next = 0;
const worker = async () => {
  while (next < faults.length) {
    const result = await score(reference, faults[next++]!);
    results.push(result);
    console.log(`${result.fault}: ${result.caught ? `caught by ${result.failed_checks.join(', ')}` : 'missed'}`);
  }
};
try {
  await Promise.all(Array.from({ length: Math.max(1, Number(values.parallel)) }, worker));
} finally {
  await reference.close();
}
const out = roundFile.replace(/\.json$/, '-first-contact.json');
writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
const caught = results.filter((result) => result.caught).length;
console.log(
  `round ${round}: ${caught} of ${results.length} caught on first contact (${Math.round((100 * caught) / results.length)}%); ${out}`,
);
