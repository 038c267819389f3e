/**
 * The target's clock as its Date header shows it (RFC 9110: an origin server with a
 * clock sends Date), so a token can be made "issued 61 s ago" by the target's clock
 * rather than ours, and a strict target is not failed for a second of clock skew.
 */
import type { HttpResponse } from '../../src/http/client.js';

/** Whole seconds the target's clock is ahead of ours (negative: behind); 0 without a Date header. */
export function targetSkewSeconds(res: HttpResponse, receivedAtMs = Date.now()): number {
  const date = Date.parse(res.headers.date ?? '');
  if (Number.isNaN(date)) return 0;
  return Math.floor(date / 1000) - Math.floor(receivedAtMs / 1000);
}
