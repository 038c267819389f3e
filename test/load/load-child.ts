/**
 * `svc-harness load` as a child process for the load tests (smoke and thresholds), with the
 * k6 v2 found on this machine. Tests that need k6 are skipped, with `K6_SKIP_REASON` in their
 * name, when there is none, so that unit runs never start a multi-minute k6 build; CI makes
 * k6 available first with `npx tsx scripts/k6/binary.ts --ensure`.
 */
import { findK6 } from '../../src/load/k6/binary.js';
import { runHarness } from '../support/child.js';

function k6Available(): string | undefined {
  try {
    return findK6()?.path;
  } catch {
    return undefined;
  }
}

export const K6_PATH = k6Available();
export const K6_SKIP_REASON = K6_PATH
  ? ''
  : ' (skipped: k6 v2 is neither on PATH nor in .tools/k6; run `npx tsx scripts/k6/binary.ts --ensure`)';

/**
 * The latency budgets and the drain of the load tests' runs: these tests check what the load
 * command does, not how fast a machine shared with the other test files is. At the
 * scenarios' defaults fan-out missed its p95 in CI with the unit tests beside it, and with
 * busy loops beside the unit tests its deliveries queued far past any budget, where alone
 * they hardly queue. The drain ends as soon as nothing is missing. A run that proves a
 * latency threshold fails sets the default budget back (threshold-proofs.ts). LOAD_P99_MS
 * also sizes the VUs (executors.ts), hence its smaller widening.
 */
export const SHARED_MACHINE_BUDGETS = {
  LOAD_P95_MS: '5000',
  LOAD_P99_MS: '10000',
  LOAD_FANOUT_P95_MS: '60000',
  LOAD_FANOUT_P99_MS: '120000',
  LOAD_DRAIN_S: '60',
};

/** `svc-harness load <args>`, with the k6 found above, the budgets above and the caller's settings only. */
export async function runLoad(
  args: string[],
  timeoutMs: number,
  env: Record<string, string> = {},
): Promise<{ code: number | null; output: string }> {
  const exit = await runHarness(['load', ...args], {
    env: { ...(K6_PATH ? { LOAD_K6_BINARY: K6_PATH } : {}), ...SHARED_MACHINE_BUDGETS, ...env },
    timeoutMs,
  });
  return { code: exit.exitCode, output: exit.output };
}
