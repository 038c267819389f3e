/**
 * The harness proves itself: for every fault of the reference, a certification run
 * against the faulted reference fails, and the checks the fault breaks are among those
 * that fail. Prints the mutation score (faults caught / faults).
 */
import { afterAll, describe, expect, inject, it } from 'vitest';
import { getCheck } from '../../src/catalog/checks.js';
import { runCertify, WAITING_RUN_TIMEOUT_MS } from './certify-child.js';
import { FAULTS, LOAD_BUDGET_FAULTS, NOISE_FAULTS, OPEN_CHOICE_FAULTS } from '../../reference/faults.js';
import { limiter } from '../support/limit.js';
import { certifyPool } from './certify-pool.js';
import { FAULT_PROOFS, type FaultProof } from './registry.js';
import { startRank } from '../../src/runner/selection.js';

const caught = new Set<string>();
/** The longest shrunk sequence a model fault may be shown with (issue #23). */
const MAX_COUNTEREXAMPLE_STEPS = 6;
const missedRuns = new Set<string>();
/** The short runs' own times: a long one started late ends the short pool late, and belongs with the waiting runs. */
const shortRunTimes: Array<{ fault: string; ms: number }> = [];
/** How many of the longest short runs the matrix names at its end. */
const LONGEST_SHORT_RUNS_SHOWN = 10;

/**
 * Two pools of runs, side by side. A run that waits out a time limit (`waits` in the registry,
 * and the two noise runs, mostly idle) holds a slot of the first; the short runs (mostly their
 * start-up, CPU-bound) share the second. Under one limit for all, long runs held every slot
 * while the CPU sat idle. The faults at the edge of a timing tolerance run once the short runs
 * have ended (calmMoment), so the short pool can keep the CPU busy. The two noise runs, declared
 * last, start once the first waiting runs end.
 */
const waitingRuns = limiter(22);
/**
 * The short runs go to long-lived workers that run the CLI's certify again and again
 * (certify-pool.ts): a run's own Node start-up and loading of the harness cost more CPU than
 * most short runs' checks. Six keep two cores busy: each run also waits on the reference.
 */
const shortRuns = certifyPool(6);
/** Lets every other test reach its pool before a calm one looks at the short pool. */
const CALM_START_DELAY_MS = 2_000;

/**
 * The moment for a run at the edge of a tolerance or in a race's window (`calm` in the
 * registry): once every other short run has ended. Their start-ups stall this machine for
 * hundreds of milliseconds at a time: a check widens each tolerance by the stalls it measures,
 * past a fault a tenth or a fifth off, and requests sent at once reach a busy reference too far
 * apart to race. Calm runs share the moment with the waiting runs still going, mostly idle.
 */
async function calmMoment(): Promise<void> {
  await new Promise((wait) => setTimeout(wait, CALM_START_DELAY_MS));
  await shortRuns.idle();
}

/**
 * The runs likely to take longest start first, so that none begins near the end: the full
 * tier's, then by the area of their checks in the runner's own start order (the retry
 * schedule's short runs are the longest of the short runs, and started last in registry order).
 */
const LONGEST_FIRST = [...FAULT_PROOFS].sort(
  (a, b) => Number(b.tier === 'full') - Number(a.tier === 'full') || firstRank(a) - firstRank(b),
);

function firstRank(proof: FaultProof): number {
  return Math.min(...proof.breaks.map((id) => startRank(getCheck(id).area)));
}

describe.concurrent('faults', () => {
  afterAll(() => {
    shortRuns.close();
    // The score counts every fault of the reference, so one without a proof counts as missed;
    // a load budget is no spec rule, so its faults are proved by test/load instead, and a fault
    // that takes a choice the spec leaves open breaks no rule.
    const faults = Object.keys(FAULTS).filter(
      (fault) => ![...LOAD_BUDGET_FAULTS, ...NOISE_FAULTS, ...OPEN_CHOICE_FAULTS].includes(fault as never),
    );
    const killed = faults.filter((fault) => caught.has(fault) && !missedRuns.has(fault));
    const missed = faults.filter((fault) => !killed.includes(fault));
    const line = `mutation score: ${killed.length}/${faults.length} faults caught (${((100 * killed.length) / faults.length).toFixed(0)}%)`;
    process.stdout.write(`\n${line}${missed.length > 0 ? `; not caught: ${missed.join(', ')}` : ''}\n`);
    const longest = shortRunTimes.sort((a, b) => b.ms - a.ms).slice(0, LONGEST_SHORT_RUNS_SHOWN);
    process.stdout.write(
      `longest short runs (mark one that waits out a time limit \`waits\` in registry.ts): ${longest.map(({ fault, ms }) => `${fault} ${(ms / 1000).toFixed(1)} s`).join(', ')}\n`,
    );
  });

  it.each(LONGEST_FIRST.map((proof) => [`${proof.fault}${proof.tier ? ` (${proof.tier} tier)` : ''}`, proof] as const))(
    '%s is caught',
    async (_name, proof) => {
      const { fault } = proof;
      let shown = false;
      try {
        const settings = {
          ...faultedTarget(proof.calm ? 'calm' : proof.tier, `/faults/${fault}`),
          CERTIFY_CHECKS: proof.breaks.join(','),
          CERTIFY_TIER: proof.tier ?? 'fast',
        };
        if (proof.calm) await calmMoment();
        const run = proof.waits
          ? await waitingRuns(() => runCertify(settings, undefined, WAITING_RUN_TIMEOUT_MS))
          : await runCertify(settings, shortRuns.run);
        if (run.ownMs !== undefined && !proof.calm) shortRunTimes.push({ fault, ms: run.ownMs });
        expect(run.report, `no report; output:\n${run.output}`).toBeDefined();
        const verdicts = Object.fromEntries(run.report!.checks.map((check) => [check.id, check.verdict]));
        for (const id of proof.breaks) {
          const expected = getCheck(id).level === 'must' ? 'fail' : 'warn';
          expect(
            verdicts[id],
            `${id} under ${fault}: ${run.report!.checks.find((check) => check.id === id)?.detail}`,
          ).toBe(expected);
        }
        // A sequence fault is shown by its shrunk counterexample: a few steps a person can follow.
        const model = run.report!.checks.find(
          (check) => check.id.startsWith('MODEL-') && proof.breaks.includes(check.id),
        );
        if (model) {
          const steps = (model.measurements?.['counterexample'] ?? []) as unknown[];
          process.stdout.write(`${fault}: ${model.detail}\n`);
          expect(steps.length, model.detail).toBeGreaterThan(0);
          expect(steps.length, model.detail).toBeLessThanOrEqual(MAX_COUNTEREXAMPLE_STEPS);
        }
        const mustBroken = proof.breaks.some((id) => getCheck(id).level === 'must');
        expect(run.exitCode).toBe(mustBroken ? 1 : 0);
        shown = true;
      } finally {
        (shown ? caught : missedRuns).add(fault);
      }
    },
  );

  // The other side of the late-retry faults: a retry late once (a stall of the service's machine)
  // is measured again and passes; only a delay outside its tolerance both times fails.
  it('a retry late once, then on time, passes after being measured again', async () => {
    const run = await waitingRuns(() =>
      runCertify(
        {
          ...faultedTarget(undefined, '/faults/retry-late-once'),
          CERTIFY_CHECKS: 'HOOK-RETRY-EARLY-SCHEDULE,HOOK-RETRY-FULL-SCHEDULE,HOOK-RETRY-ON-4XX',
        },
        undefined,
        WAITING_RUN_TIMEOUT_MS,
      ),
    );
    const checks = run.report?.checks ?? [];
    const verdict = (id: string) => checks.find((check) => check.id === id);
    const remeasured = (id: string) => (verdict(id)?.measurements?.['remeasured'] as string[] | undefined) ?? [];
    for (const id of ['HOOK-RETRY-EARLY-SCHEDULE', 'HOOK-RETRY-FULL-SCHEDULE', 'HOOK-RETRY-ON-4XX'])
      expect(verdict(id)?.verdict, `${id}: ${verdict(id)?.detail}\n${run.output.slice(-3000)}`).toBe('pass');
    // Every delay is late the first time it is used at a scale. The early schedule times 5m, 30m
    // and 2h alone; 1 minute at scale 12 is timed there and by HOOK-RETRY-ON-4XX, and whichever
    // came first met the late one. 12h is late in the full schedule.
    const early = verdict('HOOK-RETRY-EARLY-SCHEDULE')!.detail ?? '';
    expect(early).toMatch(/re-measured once after a first measurement outside its tolerance: (1m, )?5m, 30m, 2h/);
    const earlyRetimedOneMinute = /tolerance: 1m, /.test(early);
    expect(remeasured('HOOK-RETRY-ON-4XX'), early).toEqual(
      earlyRetimedOneMinute ? [] : [expect.stringMatching(/^retry 1 came .*; on its own: retry 1 came/)],
    );
    expect(remeasured('HOOK-RETRY-FULL-SCHEDULE')).toEqual([
      expect.stringMatching(/^retry 5 came .*; on its own: retry 5 came/),
    ]);
    expect(run.exitCode).toBe(0);
  });

  // The other side of the 24 s and 37 s faults: a dispatcher that keeps the spec's 30 s passes.
  it('the real 30 s time-out passes (full tier)', async () => {
    const run = await waitingRuns(() =>
      runCertify(
        { ...faultedTarget('full', ''), CERTIFY_CHECKS: 'HOOK-TIMEOUT-30S', CERTIFY_TIER: 'full' },
        undefined,
        WAITING_RUN_TIMEOUT_MS,
      ),
    );
    const check = run.report?.checks.find((candidate) => candidate.id === 'HOOK-TIMEOUT-30S');
    expect(check, `no report; output:\n${run.output}`).toBeDefined();
    expect(check!.verdict, check!.detail).toBe('pass');
    expect(check!.detail).toMatch(/^the real 30 s time-out/);
    expect(run.exitCode).toBe(0);
  });
});

/** Settings for a run against the reference of `tier` (or the calm one) with the path prefix that switches a fault on ('' for none). */
function faultedTarget(tier: 'full' | 'calm' | undefined, prefix: string) {
  const { baseUrl, controlUrl, controlToken } = inject(
    tier === 'full' ? 'realTimeoutReference' : tier === 'calm' ? 'calmReference' : 'reference',
  );
  return {
    SVC_BASE_URL: `${baseUrl}${prefix}`,
    SVC_CONTROL_URL: controlUrl.replace(baseUrl, `${baseUrl}${prefix}`),
    SVC_CONTROL_TOKEN: controlToken,
  };
}
