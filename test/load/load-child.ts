/**
 * `svc-harness load` as a child process for the load tests (smoke and thresholds), with the
 * k6 v2 found on this machine. Tests that need k6 are skipped, with `K6_SKIP_REASON` in their
 * name, when there is none, so that unit runs never start a multi-minute k6 build; CI makes
 * k6 available first with `npx tsx scripts/k6/binary.ts --ensure`.
 */
import { findK6 } from '../../src/load/k6-binary.js';
import { runHarness } from '../support/child.js';

function k6Available(): string | undefined {
  try {
    return findK6()?.path;
  } catch {
    return undefined;
  }
}

export const K6_PATH = k6Available();
export const K6_SKIP_REASON = K6_PATH ? '' : ' (skipped: k6 v2 is neither on PATH nor in .tools/k6; run `npx tsx scripts/k6/binary.ts --ensure`)';

/** `svc-harness load <args>`, with the k6 found above and the caller's settings only. */
export async function runLoad(args: string[], timeoutMs: number, env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  const exit = await runHarness(['load', ...args], { env: { ...(K6_PATH ? { LOAD_K6_BINARY: K6_PATH } : {}), ...env }, timeoutMs });
  return { code: exit.exitCode, output: exit.output };
}
