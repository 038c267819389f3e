/**
 * What a receiver check gets to work with, how it reports, and the two shapes most checks
 * share: "all of these are acknowledged" and "all of these are rejected".
 */
import type { ReceiverCertSettings } from '../config/receiver-settings.js';
import { acknowledged, describeAnswer, type DeliveryRequest, type DeliverySender, type Exchange } from './sender.js';

/** A check passes by returning `passed: true`; `detail` says what was seen either way. */
export interface CheckOutcome {
  passed: boolean;
  detail: string;
  measurements?: Record<string, unknown>;
}

/** "Not applicable here", with the reason; a skip never counts as passed. */
export class CheckSkip extends Error {
  override name = 'CheckSkip';
}

export function skip(reason: string): never {
  throw new CheckSkip(reason);
}

export interface CheckEnv {
  sender: DeliverySender;
  settings: ReceiverCertSettings;
  /** The preflight's valid delivery: rejections only mean something if it was acknowledged. */
  baseline: Exchange;
  /** Results shared between checks of one run (e.g. the replay sequence). */
  shared: Map<string, Promise<unknown>>;
}

export type CheckFn = (env: CheckEnv) => Promise<CheckOutcome>;

/** Rejection checks skip when the receiver acknowledged no valid delivery: rejecting everything proves nothing. */
export function requireBaseline(env: CheckEnv): void {
  if (!acknowledged(env.baseline)) {
    skip(`the preflight's valid delivery was not acknowledged (${describeAnswer(env.baseline)}), so a rejection would show nothing; see RCV-ACCEPT-EVENT-TYPES`);
  }
}

/** Sends every request (at most `concurrency` at a time) and passes when every one got a 2xx. */
export async function expectAcknowledged(env: CheckEnv, requests: DeliveryRequest[], concurrency = 4): Promise<CheckOutcome> {
  const exchanges = await mapLimit(requests, concurrency, (req) => env.sender.deliver(req));
  const refused = exchanges.filter((exchange) => !acknowledged(exchange));
  const times = exchanges.filter(acknowledged).map((exchange) => exchange.durationMs);
  const slowest = times.length > 0 ? Math.round(Math.max(...times)) : undefined;
  if (refused.length === 0) {
    return { passed: true, detail: `all ${exchanges.length} acknowledged (${tally(exchanges)}), slowest ${slowest} ms`, measurements: { deliveries: exchanges.length, slowest_ms: slowest } };
  }
  return {
    passed: false,
    detail: `${refused.length} of ${exchanges.length} not acknowledged: ${refused.map((e) => `${e.label} -> ${describeAnswer(e)}`).join('; ')}`,
    measurements: { deliveries: exchanges.length, not_acknowledged: refused.length },
  };
}

/** Sends every request in turn and passes when none got a 2xx (a time-out counts as not acknowledged, as for the service). */
export async function expectRejected(env: CheckEnv, requests: DeliveryRequest[]): Promise<CheckOutcome> {
  requireBaseline(env);
  const exchanges: Exchange[] = [];
  for (const req of requests) exchanges.push(await env.sender.deliver(req));
  const accepted = exchanges.filter(acknowledged);
  const answers = exchanges.map((e) => `${e.label} -> ${describeAnswer(e)}`).join('; ');
  if (accepted.length === 0) return { passed: true, detail: `rejected all ${exchanges.length}: ${answers}` };
  return { passed: false, detail: `acknowledged ${accepted.length} of ${exchanges.length} that must be rejected: ${answers}` };
}

/** "204 x8" style tally of answers. */
export function tally(exchanges: readonly Exchange[]): string {
  const counts = new Map<string, number>();
  for (const exchange of exchanges) {
    const key = exchange.status === null ? (exchange.error === 'timeout' ? 'time-out' : 'no answer') : String(exchange.status);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, n]) => `${key} x${n}`).join(', ');
}

export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      out[index] = await fn(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
