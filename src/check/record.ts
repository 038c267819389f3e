/**
 * The one check model, for both subjects (a service, a webhook receiver): a check body gets
 * a record, leaves details and measurements on it, and ends by returning (pass), by
 * `fail(reason)` (a typed CheckFailure) or by `skip(reason)` (a CheckSkip: never a pass).
 */
import { CheckFailure, CheckSkip } from '../errors.js';
import { mask, maskDeep } from '../secrets/mask.js';
import type { Exchange, Judged, NetworkTally } from '../http/tally.js';

/** What a check leaves for the reports. */
export interface CheckMeta {
  checkId: string;
  detail?: string;
  measurements?: Record<string, unknown>;
  skipReason?: string;
  /** Why the check reached no verdict (the network kept an answer away): its verdict is `error`. */
  errorReason?: string;
  /** What the network cost the check (src/http/tally.ts). */
  network?: NetworkTally;
  /** For a check that did not pass: its last exchanges, and the command that re-runs it alone. */
  evidence?: { exchanges: Exchange[]; rerun: string };
}

export class CheckRecord<Spec extends { id: string } = { id: string }> {
  private readonly details: string[] = [];
  private readonly measurements: Record<string, unknown> = {};

  constructor(readonly spec: Spec) {}

  detail(text: string): void {
    this.details.push(text);
  }

  measure(name: string, value: unknown): void {
    this.measurements[name] = value;
  }

  /** Several measurements at once. */
  measureAll(values: Record<string, unknown>): void {
    Object.assign(this.measurements, values);
  }

  /** Ends the check as failed; `judged` is the answer the failing assertion judged (an HttpResponse), shown first in its evidence. */
  fail(reason: string, judged?: Judged): never {
    throw new CheckFailure(mask(reason), judged?.exchange);
  }

  skip(reason: string): never {
    throw new CheckSkip(reason);
  }

  toMeta(
    skipReason?: string,
    errorReason?: string,
    network?: NetworkTally,
    evidence?: CheckMeta['evidence'],
  ): CheckMeta {
    const meta: CheckMeta = { checkId: this.spec.id };
    if (this.details.length > 0) meta.detail = mask(this.details.join('; '));
    if (Object.keys(this.measurements).length > 0) meta.measurements = maskDeep(this.measurements);
    if (skipReason) meta.skipReason = mask(skipReason);
    if (errorReason) meta.errorReason = mask(errorReason);
    if (network) meta.network = maskDeep(network) as NetworkTally;
    if (evidence) meta.evidence = maskDeep(evidence);
    return meta;
  }
}
