/**
 * What a receiver check gets to work with, and the two shapes most checks share: "all of
 * these are acknowledged" and "all of these are rejected".
 */
import { mapLimit } from '../async/map-limit.js';
import { CheckRecord } from '../check/record.js';
import type { ReceiverCertSettings } from '../config/receiver-settings.js';
import type { ReceiverCheckSpec } from './catalog.js';
import { acknowledged, describeAnswer, type DeliveryRequest, type DeliverySender, type Exchange } from './sender.js';

/** What every receiver check shares: the sender, the settings, the preflight's answer and results of earlier checks. */
export interface CheckEnv {
  sender: DeliverySender;
  settings: ReceiverCertSettings;
  /** The preflight's valid delivery: rejections only mean something if it was acknowledged. */
  baseline: Exchange;
  /** Results shared between checks of one run (e.g. the replay sequence). */
  shared: Map<string, Promise<unknown>>;
  /** Uniform numbers in [0, 1) from the run's seed, for every generated choice of a check. */
  random: () => number;
}

/** A receiver check's record (the one check model, src/check/record.ts) with the run's means. */
export class ReceiverCheck extends CheckRecord<ReceiverCheckSpec> {
  constructor(
    spec: ReceiverCheckSpec,
    private readonly env: CheckEnv,
  ) {
    super(spec);
  }

  get sender(): DeliverySender {
    return this.env.sender;
  }

  get settings(): ReceiverCertSettings {
    return this.env.settings;
  }

  get baseline(): Exchange {
    return this.env.baseline;
  }

  get shared(): Map<string, Promise<unknown>> {
    return this.env.shared;
  }

  get random(): () => number {
    return this.env.random;
  }
}

/** A check passes by returning; it fails or skips by throwing (t.fail, t.skip), like a service check. */
export type CheckFn = (t: ReceiverCheck) => Promise<void>;

/** Rejection checks skip when the receiver acknowledged no valid delivery: rejecting everything proves nothing. */
export function requireBaseline(t: ReceiverCheck): void {
  if (!acknowledged(t.baseline)) {
    t.skip(
      `the preflight's valid delivery was not acknowledged (${describeAnswer(t.baseline)}), so a rejection would show nothing; see RCV-ACCEPT-EVENT-TYPES`,
    );
  }
}

/** Sends every request (at most `concurrency` at a time) and passes when every one got a 2xx. */
export async function expectAcknowledged(
  t: ReceiverCheck,
  requests: DeliveryRequest[],
  concurrency = 4,
): Promise<void> {
  const exchanges = await mapLimit(requests, concurrency, (req) => t.sender.deliver(req));
  const refused = exchanges.filter((exchange) => !acknowledged(exchange));
  const times = exchanges.filter(acknowledged).map((exchange) => exchange.durationMs);
  const slowest = times.length > 0 ? Math.round(Math.max(...times)) : undefined;
  if (refused.length > 0) {
    t.measureAll({ deliveries: exchanges.length, not_acknowledged: refused.length });
    t.fail(
      `${refused.length} of ${exchanges.length} not acknowledged: ${refused.map((e) => `${e.label} -> ${describeAnswer(e)}`).join('; ')}`,
      refused[0],
    );
  }
  t.measureAll({ deliveries: exchanges.length, slowest_ms: slowest });
  t.detail(`all ${exchanges.length} acknowledged (${tally(exchanges)}), slowest ${slowest} ms`);
}

/** Sends every request in turn and passes when none got a 2xx (a time-out counts as not acknowledged, as for the service). */
export async function expectRejected(t: ReceiverCheck, requests: DeliveryRequest[]): Promise<void> {
  requireBaseline(t);
  const exchanges: Exchange[] = [];
  for (const req of requests) exchanges.push(await t.sender.deliver(req));
  const accepted = exchanges.filter(acknowledged);
  const answers = exchanges.map((e) => `${e.label} -> ${describeAnswer(e)}`).join('; ');
  if (accepted.length > 0)
    t.fail(`acknowledged ${accepted.length} of ${exchanges.length} that must be rejected: ${answers}`, accepted[0]);
  t.detail(`rejected all ${exchanges.length}: ${answers}`);
}

/** "204 x8" style tally of answers. */
export function tally(exchanges: readonly Exchange[]): string {
  const counts = new Map<string, number>();
  for (const exchange of exchanges) {
    const key =
      exchange.status === null ? (exchange.error === 'timeout' ? 'time-out' : 'no answer') : String(exchange.status);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, n]) => `${key} x${n}`).join(', ');
}
