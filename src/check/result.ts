/** How a settled check becomes a line of the report, the same for every subject and runner. */
import type { Level } from '../catalog/checks.js';
import { CheckFailure, CheckSkip } from '../errors.js';
import { verdictOf, type CheckResult } from '../report/model.js';
import { mask } from '../secrets/mask.js';
import type { CheckMeta } from './record.js';
import type { NetworkTally } from '../http/tally.js';
import type { Exchange } from '../exchange.js';

export interface CheckIdentity {
  id: string;
  title: string;
  clause: string;
  level: Level;
  area: string;
}

export type CheckState = 'passed' | 'failed' | 'skipped' | 'errored';

export interface SettledCheck {
  state: CheckState;
  /** The first line of the failure's message. */
  failure?: string;
  meta?: CheckMeta;
  durationMs: number;
}

export function checkResult(spec: CheckIdentity, settled: SettledCheck): CheckResult {
  // A failure names the rule it holds the target to, so that an implementer can argue with it.
  const failure = settled.failure && `${settled.failure} (rule: ${spec.clause})`;
  const errorReason = settled.meta?.errorReason && `no verdict: ${settled.meta.errorReason}`;
  const detail = [errorReason, failure, settled.meta?.skipReason, settled.meta?.detail].filter(Boolean).join('; ');
  const result: CheckResult = {
    id: spec.id,
    title: spec.title,
    clause: spec.clause,
    level: spec.level,
    verdict: verdictOf(spec.level, settled.state),
    duration_ms: Math.round(settled.durationMs),
    area: spec.area,
  };
  if (detail) result.detail = mask(detail);
  const network = settled.meta?.network;
  // The exchanges that decided a verdict other than a pass, and how to see it again.
  const evidence = result.verdict !== 'pass' && result.verdict !== 'skip' ? settled.meta?.evidence : undefined;
  const measurements = {
    ...settled.meta?.measurements,
    ...(network && networkMattered(network) ? { network } : {}),
    ...(evidence ? { evidence: evidence.exchanges, rerun: evidence.rerun } : {}),
  };
  if (Object.keys(measurements).length > 0) result.measurements = measurements;
  return result;
}

/** Whether the network did more than carry the check's requests: worth a line in its measurements. */
function networkMattered(network: NetworkTally): boolean {
  return network.rate_limited + network.resent + network.unanswered > 0;
}

/**
 * Runs a check body outside a test runner: a return passes, a CheckSkip skips, a
 * CheckFailure fails with its reason, and anything else fails as a crash, with its message.
 */
export async function settle(
  body: () => Promise<void>,
): Promise<{ state: CheckState; failure?: string; judged?: Exchange; skipReason?: string }> {
  try {
    await body();
    return { state: 'passed' };
  } catch (error) {
    if (error instanceof CheckSkip) return { state: 'skipped', skipReason: error.message };
    const message = (error as Error)?.message ?? String(error);
    if (!(error instanceof CheckFailure)) return { state: 'failed', failure: `check crashed: ${message}` };
    return { state: 'failed', failure: message, ...(error.judged ? { judged: error.judged } : {}) };
  }
}
