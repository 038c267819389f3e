/**
 * Causing events and reading deliveries, for the webhook suites: placing a call, a tour
 * of all eight event types, bounded waits that report what arrived instead of throwing.
 */
import { DRAMA_TEST_NUMBER } from '../../api/service.js';
import { EVENT_TYPES, type EventType } from '../../control/types.js';
import { findFirstId, ID_PATTERNS } from '../../ids.js';
import type { ReceiverEndpoint } from '../../capturing-receiver/index.js';
import type { CapturedDelivery } from '../../capturing-receiver/types.js';
import { describeResponse, failWith, is2xx } from '../assertions.js';
import { nextEndpointName, type CheckContext } from '../context.js';
import type { HookedEndpoint } from '../webhooks.js';
import type { TestWorkspace } from '../workspace.js';
import { isObject } from '../../json/shape.js';

export const ALL_EVENT_TYPES: readonly EventType[] = EVENT_TYPES;
/** The types the public API cannot cause; the control interface fires them. */
export const FIRED_TYPES: readonly EventType[] = [
  'mailer.email.sent',
  'mailer.reply.received',
  'mailer.campaign.completed',
  'workspace.plan.upgraded',
];

/**
 * call_progress auto promises completion within 2 s of real time; this leaves room for delivery.
 * The spec bounds no delivery's latency: these are the harness's patience, not a rule, so they
 * leave room for a busy machine (a passing check stops waiting at the delivery).
 */
export const CALL_EVENTS_TIMEOUT_MS = 20_000;
/** A fired event reaches a healthy endpoint well within this. */
export const DELIVERY_TIMEOUT_MS = 20_000;
/** How long a placed call's transcript may take to become readable by its own workspace. */
export const TRANSCRIPT_READY_MS = 15_000;

export const typeOf = (delivery: CapturedDelivery): string | undefined => delivery.verdicts.eventType;
export const idOf = (delivery: CapturedDelivery): string | undefined => delivery.verdicts.eventId;

export function dataOf(delivery: CapturedDelivery): Record<string, unknown> | undefined {
  const json = delivery.verdicts.json;
  return isObject(json) && isObject(json['data']) ? json['data'] : undefined;
}

/** The call a voice.* delivery is about (data.call_id, else the first call_ id in data). */
export function callIdOf(delivery: CapturedDelivery): string | undefined {
  const data = dataOf(delivery);
  if (!data) return undefined;
  return typeof data['call_id'] === 'string' ? data['call_id'] : findFirstId(data, ID_PATTERNS.call);
}

export const ofCall = (callId: string, type: string) => (d: CapturedDelivery) =>
  typeOf(d) === type && callIdOf(d) === callId;

/** Waits like `waitFor` but resolves on time-out too, with what had arrived by then. */
export async function settle(
  inbox: ReceiverEndpoint,
  predicate: (deliveries: readonly CapturedDelivery[]) => boolean,
  timeoutMs: number,
  description: string,
): Promise<{ deliveries: readonly CapturedDelivery[]; timedOut: boolean }> {
  try {
    return { deliveries: await inbox.waitFor(predicate, { timeoutMs, description }), timedOut: false };
  } catch {
    return { deliveries: inbox.deliveries.slice(), timedOut: true };
  }
}

export interface PlacedCall {
  callId: string;
  agentId: string;
  to: string;
  metadata: Record<string, unknown>;
}

/** Waits for voice.call.completed of `callId`; fails the check with what arrived instead. */
export async function completedFor(hook: { inbox: ReceiverEndpoint }, callId: string): Promise<CapturedDelivery> {
  const { deliveries, timedOut } = await settle(
    hook.inbox,
    (ds) => ds.some(ofCall(callId, 'voice.call.completed')),
    CALL_EVENTS_TIMEOUT_MS,
    `voice.call.completed of ${callId}`,
  );
  const completed = deliveries.find(ofCall(callId, 'voice.call.completed'));
  if (timedOut || !completed)
    failWith(
      `no voice.call.completed for ${callId} within ${CALL_EVENTS_TIMEOUT_MS} ms; arrived: ${typeCounts(deliveries)}`,
    );
  return completed;
}

/**
 * Places a call on the reserved test number; fails the check when the API refuses it.
 * `metadata` null sends none at all (the call's `metadata` is then the empty object).
 */
export async function placeCall(
  t: CheckContext,
  workspace: TestWorkspace,
  token: string,
  metadata: Record<string, unknown> | null = {},
  to: string = DRAMA_TEST_NUMBER,
): Promise<PlacedCall> {
  // The workspace's last agent: where it has several, events naming another one (its first) show.
  const agentId = workspace.agentIds.at(-1) ?? workspace.agentId;
  const res = await t.api.placeCall(token, {
    agent_id: agentId,
    to,
    ...(metadata === null ? {} : { metadata }),
  });
  if (!is2xx(res.status))
    failWith(`placing a call (needed to cause voice.* events): expected a 2xx, got ${describeResponse(res)}`, res);
  const callId = findFirstId(res.json, ID_PATTERNS.call);
  if (!callId) failWith(`placing a call answered no call_ id: ${describeResponse(res)}`, res);
  // The checks select events by the call id they got; calls placed by an unanswered attempt are recorded, not judged.
  if (res.unconfirmedAttempts) t.measure('unconfirmed_placements', t.api.unconfirmedPlacements(token));
  return { callId, agentId, to, metadata: metadata ?? {} };
}

/**
 * Deliveries of `legs` about calls other than those the check placed and got an answer for,
 * where a placement with the leg's token was sent again after no answer: events of a call the
 * target may hold from the unanswered attempt. Counting a workspace's events skips these.
 */
function unconfirmedCallDeliveries(t: CheckContext, leg: TourLeg, token: string): Set<CapturedDelivery> {
  if (t.api.unconfirmedPlacements(token) === 0) return new Set();
  const known = new Set([...leg.expected.values()].map((cause) => cause.callId).filter((id) => id !== undefined));
  return new Set(
    leg.hook.inbox.deliveries.filter((d) => typeOf(d)?.startsWith('voice.') && !known.has(callIdOf(d) ?? '')),
  );
}

/** Data for fired events: nested values and characters a re-serializer would change. */
export function firedData(type: string): Record<string, unknown> {
  return {
    note: `certify ${type}: “quotes”, é, ✓, </script>, \u2028 and a / slash`,
    nested: { list: [1, 2.5, 'three', null, { deep: true }], empty: {} },
    large_number: 12345678901234,
    // Fractions a rounding or fixed-precision pass changes (round 15 rounded to two decimals).
    fraction: 0.875,
    precise: Math.PI,
    tiny: -1e-7,
    // Date strings a JSON reviver or an ORM would parse and write back in another form (round 16).
    sent_at: '2026-11-28T10:00:00Z',
    day: '2026-11-28',
    // Top-level empty and falsy values, which a "drop or null the blanks" pass changes.
    empty_text: '',
    zero: 0,
    no: false,
    nothing: null,
    no_items: [],
    // One-item lists, which an "unwrap a list of one" pass turns into their item (round 17).
    one_item: ['only'],
    one_object: [{ email: 'lead@example.invalid' }],
    // Text a trimming, newline-normalising, escaping, Unicode-normalising or 3-byte UTF-8 store changes.
    padded: '  outer spaces and a\ttab  ',
    lines: 'line one\nline two\r\nline three',
    markup: '<b>bold</b> &amp; <a href="x">',
    decomposed: 'cafe\u0301',
    astral: 'emoji \u{1F600} and \u{1D11E}',
    // Numbers at the edges of a double's exact integers and of its plain notation.
    largest_exact: -9_007_199_254_740_991,
    exponent: 1e21,
    // A member named like the envelope's own id, which a merge of data into the envelope lets win (round 20).
    id: 'lead_certify_data_id',
    // A key a dotted-path store nests, and one a case-folding store re-cases.
    'dotted.key': 'as given',
    MixedCaseKey: 'as given',
  };
}

/** One workspace's part of the tour: the endpoint that saw it and what was caused there. */
export interface TourLeg {
  workspace: TestWorkspace;
  hook: HookedEndpoint;
  /** Event ids and call ids caused, by type. */
  expected: Map<EventType, { eventId?: string; callId?: string }>;
}

export interface Tour {
  legs: TourLeg[];
  /** Every delivery of both legs, with the leg it belongs to. */
  deliveries: Array<{ leg: TourLeg; delivery: CapturedDelivery }>;
  /** Types caused but not seen at their endpoint within the time-out. */
  missing: EventType[];
}

export interface TourOptions {
  /** The workspaces' time scale (retries within the tour); the target's default when not given. */
  timeScale?: number;
  /** Programs each leg's endpoint before anything is caused (answers to fail, for instance). */
  prepare?: (hook: HookedEndpoint) => void;
}

const matchesCause = (type: EventType, cause: { eventId?: string; callId?: string }) => (d: CapturedDelivery) =>
  typeOf(d) === type &&
  (cause.eventId ? idOf(d) === cause.eventId : cause.callId ? callIdOf(d) === cause.callId : true);

/**
 * Causes all eight event types: a call in a call_progress auto workspace (queued, started,
 * completed) with the four fired types beside it, and a call moved from queued to failed by
 * hand in a call_progress manual workspace (failed means "did not connect": it never started;
 * transitions are not shown, and queued → failed is the one every reading allows). Each workspace has one endpoint subscribed to `events`.
 * Waits until every subscribed type arrived (or the time-out), then returns.
 */
export async function eventTour(
  t: CheckContext,
  events: readonly string[] = ['*'],
  options: TourOptions = {},
): Promise<Tour> {
  const subscribed = (type: EventType) => events.includes('*') || events.includes(type);
  const scaled = options.timeScale === undefined ? {} : { timeScale: options.timeScale };
  const [auto, manual] = await Promise.all([
    t.workspaceWithToken({ callProgress: 'auto', ...scaled }),
    t.workspaceWithToken({ callProgress: 'manual', ...scaled }),
  ]);
  const autoLeg: TourLeg = {
    workspace: auto.workspace,
    hook: await t.hookEndpoint(auto.workspace, events, nextEndpointName(`${t.spec.id}-auto`)),
    expected: new Map(),
  };
  const manualLeg: TourLeg = {
    workspace: manual.workspace,
    hook: await t.hookEndpoint(manual.workspace, events, nextEndpointName(`${t.spec.id}-manual`)),
    expected: new Map(),
  };

  for (const leg of [autoLeg, manualLeg]) options.prepare?.(leg.hook);
  const completed = await placeCall(t, auto.workspace, auto.token.token, { lead_id: 'lead_certifytour' });
  for (const type of ['voice.call.queued', 'voice.call.started', 'voice.call.completed'] as const)
    autoLeg.expected.set(type, { callId: completed.callId });
  for (const type of FIRED_TYPES)
    autoLeg.expected.set(type, { eventId: await auto.workspace.fireEvent(type, firedData(type)) });

  const failed = await placeCall(t, manual.workspace, manual.token.token, { lead_id: 'lead_certifyfail' });
  await manual.workspace.progressCall(failed.callId, { state: 'failed' });
  manualLeg.expected.set('voice.call.failed', { callId: failed.callId });

  const missing: EventType[] = [];
  await Promise.all(
    [autoLeg, manualLeg].map(async (leg) => {
      const wanted = [...leg.expected].filter(([type]) => subscribed(type));
      const { deliveries } = await settle(
        leg.hook.inbox,
        (ds) => wanted.every(([type, cause]) => ds.some(matchesCause(type, cause))),
        CALL_EVENTS_TIMEOUT_MS,
        `the tour's ${wanted.map(([type]) => type).join(', ')}`,
      );
      for (const [type, cause] of wanted) if (!deliveries.some(matchesCause(type, cause))) missing.push(type);
    }),
  );
  const legs = [autoLeg, manualLeg];
  const ignored = new Set([
    ...unconfirmedCallDeliveries(t, autoLeg, auto.token.token),
    ...unconfirmedCallDeliveries(t, manualLeg, manual.token.token),
  ]);
  if (ignored.size > 0)
    t.measure(
      'ignored_deliveries',
      [...ignored].map((d) => `${typeOf(d) ?? '?'} of ${callIdOf(d) ?? '?'} (a call placed by an unanswered attempt)`),
    );
  return {
    legs,
    deliveries: legs.flatMap((leg) =>
      leg.hook.inbox.deliveries.filter((delivery) => !ignored.has(delivery)).map((delivery) => ({ leg, delivery })),
    ),
    missing: ALL_EVENT_TYPES.filter((type) => missing.includes(type)),
  };
}

/** "voice.call.queued x2, mailer.email.sent" */
export function typeCounts(deliveries: readonly CapturedDelivery[]): string {
  const counts = new Map<string, number>();
  for (const d of deliveries) counts.set(typeOf(d) ?? '?', (counts.get(typeOf(d) ?? '?') ?? 0) + 1);
  return [...counts].map(([type, n]) => (n > 1 ? `${type} x${n}` : type)).join(', ') || 'nothing';
}
