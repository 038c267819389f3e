/**
 * A failed check's evidence as every report reads it (report.json's `measurements.evidence`):
 * the exchange its assertion judged, marked `judged` and first when there is one, then the
 * check's recent exchanges. The fields come from the target and are masked already; each
 * writer escapes them for its own format.
 */
import type { CheckResult } from './model.js';

export interface EvidenceExchange {
  request?: unknown;
  answer?: unknown;
  headers?: Record<string, unknown>;
  body?: unknown;
  reproduce?: unknown;
  judged?: unknown;
}

/** The check's recorded exchanges, in report order (the judged one first), or none. */
export function evidenceOf(check: CheckResult): EvidenceExchange[] {
  const evidence = check.measurements?.evidence;
  if (!Array.isArray(evidence)) return [];
  return evidence.filter((exchange): exchange is EvidenceExchange => typeof exchange === 'object' && exchange !== null);
}

/** The exchange the failing assertion judged, when it named one. */
export function judgedExchange(check: CheckResult): EvidenceExchange | undefined {
  const first = evidenceOf(check)[0];
  return first?.judged === true ? first : undefined;
}

/** "GET /v1/whoami → 403": the request line and the answer, on one line. */
export function exchangeSummary(exchange: EvidenceExchange): string {
  return `${String(exchange.request ?? '').split('\n')[0] ?? ''} → ${String(exchange.answer ?? '')}`;
}
