/**
 * Envelopes and event data (Events > Envelope; Event types; Resources, call fields;
 * Endpoint registration rules, 3): every type arrives well formed, voice.call.completed
 * carries the call's fields, calls emit their lifecycle, subscriptions filter.
 */
import { isDeepStrictEqual } from 'node:util';
import type { CapturedDelivery } from '../src/capturing-receiver/types.js';
import type { HookedEndpoint } from '../src/suite/webhooks.js';
import type { TestWorkspace } from '../src/suite/workspace.js';
import type { CallProgress } from '../src/control/types.js';
import {
  assert,
  certifySuite,
  check,
  describeResponse,
  is2xx,
  nextEndpointName,
  type CheckContext,
} from '../src/suite/index.js';
import { envelopeProblems, parseIsoUtc } from '../src/suite/webhook-observation/envelope.js';
import {
  ALL_EVENT_TYPES,
  CALL_EVENTS_TIMEOUT_MS,
  callIdOf,
  completedFor,
  dataOf,
  DELIVERY_TIMEOUT_MS,
  eventTour,
  firedData,
  idOf,
  ofCall,
  placeCall,
  settle,
  type PlacedCall,
  typeCounts,
  typeOf,
} from '../src/suite/webhook-observation/events.js';
import { RESERVED_TEST_NUMBER, ServiceApi } from '../src/api/service.js';
import { HttpClient, type HttpResponse } from '../src/http/client.js';
import { ControlError, HttpError } from '../src/errors.js';
import { SPEC_RETRY_DELAYS_MS, scaled } from '../src/suite/timing/schedule.js';
import { findFirstId, ID_PATTERNS } from '../src/ids.js';
import { sleep } from '../src/clock/wait.js';

/** After the last expected delivery, how long an unexpected one is still awaited. */
const QUIET_GRACE_MS = 1_500;
/**
 * What HOOK-COMPLETED-AS-REPORTED completes its calls with: a length no clock between two control
 * calls would measure, and 0, the length a falsy test drops.
 */
const REPORTED = [
  { durationSeconds: 137, outcome: 'answered' },
  { durationSeconds: 0, outcome: 'answered' },
  // Past an hour: a long conference call, beyond any cap a column or a clamp might put on it.
  { durationSeconds: 7_261, outcome: 'answered' },
  // Another outcome (the set is not shown), in mixed case: refused, or carried as reported.
  { durationSeconds: 12, outcome: 'Voicemail_Left' },
] as const;
/** The `index`th number of the UK's drama range (07700 900100 on), one per call placed. */
const dramaNumber = (index: number) => `+4477009001${String(index).padStart(2, '0')}`;
/** A transcript_url at another origin than SVC_BASE_URL's is given this long an attempt. */
const OWN_ORIGIN_TIMEOUT_MS = 5_000;
/** HOOK-PROGRESS-ONE-CALL's workspace: manual progress, and a time scale above 1 beside it. */
const MANUAL_TIME_SCALE = 60;
/** The time scale of twoFiredDeliveries' workspace, and the longest its retry may take to be included. */
const QUICK_RETRY_SCALE = 600;
const QUICK_RETRY_MS = 1_000;
const LIFECYCLE = ['voice.call.queued', 'voice.call.started', 'voice.call.completed'] as const;
/** Calls placed, or events fired, at once. */
const AT_ONCE = 6;
const FIRED_AT_ONCE = 'mailer.email.sent';

/** Event ids that stand for two different events (another call, or another type), as `id: what; what`. */
function sharedEventIds(deliveries: readonly CapturedDelivery[]): string[] {
  const events = new Map<string, Set<string>>();
  for (const delivery of deliveries) {
    const id = idOf(delivery);
    if (id === undefined) continue;
    const what = `${typeOf(delivery) ?? '?'} of ${callIdOf(delivery) ?? '?'}`;
    events.set(id, (events.get(id) ?? new Set()).add(what));
  }
  return [...events].filter(([, whats]) => whats.size > 1).map(([id, whats]) => `${id}: ${[...whats].join(', ')}`);
}

/** The call fields of Resources, each of them voice.call.completed's data (TYPE-VOICE-CALL-COMPLETED). */
const CALL_FIELD_NAMES = [
  'call_id',
  'agent_id',
  'to',
  'duration_seconds',
  'outcome',
  'transcript_url',
  'metadata',
] as const;

/** Metadata keys named like the call's own fields: they stay in metadata (round 22 spread them over the fields). */
const FIELD_NAMED_VALUE = 'from metadata';
const FIELD_NAMED_METADATA = Object.fromEntries(
  // Not call_id: the harness finds a call's events by it, so its loss would read as a missing event.
  ['agent_id', 'to', 'duration_seconds', 'outcome', 'transcript_url'].map((field) => [field, FIELD_NAMED_VALUE]),
);
/**
 * "Caller-supplied key/value data, for example a lead_id entry; its keys are free-form":
 * string values are the reading every implementation shares (Stripe's metadata is strings
 * only), so they are the rule; other value types are a choice, recorded.
 */
const STRING_METADATA = {
  lead_id: 'lead_certify42',
  'free-form key ✓': 'Q4 “outreach”, é, </script>',
  empty: '',
  // Keys a case-converting serializer or a case-insensitive store would change or merge.
  crmLeadId: 'crm_7',
  Region: 'EU',
  region: 'eu',
  // A key with dots, which a path-style store (lodash set, a document database) would nest, and
  // one starting with $, which a document database refuses or drops (round 19): keys are free-form.
  'crm.lead.id': '7',
  $source: 'crm',
};

/** Metadata with nested values, types a sloppy implementation would flatten or stringify. */
const NESTED_METADATA = {
  lead_id: 'lead_certify42',
  campaign: { name: 'Q4 “outreach” ✓', tags: ['a', 'b'], weights: [1, 2.5, -3] },
  flags: { consent: true, do_not_call: false, note: null },
  empty: {},
  count: 7,
  // Fractions at the top, which an integer column or a parseInt keeps the whole part of (round 19).
  ratio: 0.75,
  score: -2.5,
};

/** A metadata value past the lengths stores commonly cut at (255, 500): a note a CRM syncs along. */
const LONG_METADATA = {
  lead_id: 'lead_certify42',
  notes: `Call notes. ${'Lead asked for a follow-up next quarter; prefers email. '.repeat(20)}End.`,
};
/** How long after the queued event a manual call is moved to started (HOOK-CREATED-AT-WHEN-HAPPENED). */
const LATER_MOVE_MS = 2_500;
/** A created_at in whole seconds, and the arrival of the queued event after it, take up to this off the gap. */
const CREATED_AT_SLACK_MS = 1_500;

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** `url` fetched at its own origin with `token`, one client made for it and closed after; a string says why there was no answer. */
async function atOwnOrigin(t: CheckContext, url: URL, token: string): Promise<HttpResponse | string> {
  const client = new HttpClient(url.origin, { ...t.run.network, timeoutMs: OWN_ORIGIN_TIMEOUT_MS });
  try {
    const api = new ServiceApi(client);
    api.transcriptMethod = t.api.transcriptMethod;
    return await api.transcriptAt(token, `${url.pathname}${url.search}`);
  } catch (error) {
    if (error instanceof HttpError) return error.message;
    throw error;
  } finally {
    await client.close();
  }
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/**
 * Places a call with `metadata` in a workspace of call_progress auto and reads the metadata its
 * voice.call.completed carries; a placement refused is answered as such (recorded as `status`).
 */
async function metadataReturned(
  t: CheckContext,
  metadata: Record<string, unknown>,
): Promise<{ refused: string } | { metadata: unknown }> {
  const { workspace, token } = await t.workspaceWithToken({ callProgress: 'auto' });
  const hook = await t.hookEndpoint(workspace, ['voice.call.completed']);
  const res = await t.api.placeCall(token.token, { agent_id: workspace.agentId, to: RESERVED_TEST_NUMBER, metadata });
  t.measure('status', res.status);
  if (!is2xx(res.status)) return { refused: describeResponse(res) };
  const callId = findFirstId(res.json, ID_PATTERNS.call);
  assert(callId, `placing the call answered no call_ id: ${describeResponse(res)}`, res);
  return { metadata: dataOf(await completedFor(hook, callId))?.['metadata'] };
}

/** A call placed on a workspace of call_progress auto, and the first delivery and created_at (ms, when it parses) of each of its LIFECYCLE events. */
async function autoLifecycle(
  t: CheckContext,
): Promise<{ callId: string; first: CapturedDelivery[]; created: Array<number | undefined> }> {
  const { workspace, token } = await t.workspaceWithToken({ callProgress: 'auto' });
  const hook = await t.hookEndpoint(workspace, ['*']);
  const { callId } = await placeCall(t, workspace, token.token);
  const all = (ds: readonly CapturedDelivery[]) => LIFECYCLE.every((type) => ds.some(ofCall(callId, type)));
  const { deliveries } = await settle(
    hook.inbox,
    all,
    CALL_EVENTS_TIMEOUT_MS,
    `queued, started and completed of ${callId}`,
  );
  const mine = deliveries.filter((d) => callIdOf(d) === callId);
  const missing = LIFECYCLE.filter((type) => !mine.some((d) => typeOf(d) === type));
  assert(
    missing.length === 0,
    `call ${callId} (call_progress auto): no ${missing.join(', ')} within ${CALL_EVENTS_TIMEOUT_MS} ms; arrived: ${typeCounts(mine)}`,
  );
  const first = LIFECYCLE.map((type) => mine.find((d) => typeOf(d) === type) as CapturedDelivery);
  const created = first.map((d) => parseIsoUtc((d.verdicts.json as Record<string, unknown>)['created_at']));
  return { callId, first, created };
}

/** How long after its first read a transcript URL is read again: it must still work. */
const TRANSCRIPT_READ_AGAIN_MS = 10_000;
/** Calls placed in the workspace between a transcript's two reads. */
const LATER_CALLS = 2;
/** call_progress auto: queued to completed within this (the control contract). */
const AUTO_PROGRESS_LIMIT_MS = 2_000;
/** call_progress auto: the outcome a call is completed with (the control contract). */
const AUTO_PROGRESS_OUTCOME = 'answered';

certifySuite('webhook-envelope', () => {
  check(
    'HOOK-ENVELOPE',
    async (t) => {
      const tour = await eventTour(t, ['*']);
      const seen = new Set(tour.deliveries.map(({ delivery }) => typeOf(delivery)));
      const bad: string[] = [];
      for (const { leg, delivery } of tour.deliveries) {
        const problems = envelopeProblems(delivery, leg.workspace.id);
        if (problems.length > 0) bad.push(`${typeOf(delivery) ?? '?'}: ${problems.join(', ')}`);
      }
      t.measure('deliveries', tour.deliveries.length);
      t.measure('types_seen', [...seen].filter(Boolean));
      assert(
        bad.length === 0,
        `${bad.length} of ${tour.deliveries.length} envelopes break the rules; first: ${bad[0]}`,
      );
      assert(
        tour.missing.length === 0,
        `no delivery of ${tour.missing.join(', ')} within ${CALL_EVENTS_TIMEOUT_MS} ms; all eight types were caused`,
      );
      t.detail(`${tour.deliveries.length} deliveries of all eight types, every envelope valid`);
    },
    { timeoutMs: 40_000 },
  );

  check('HOOK-CALL-COMPLETED-FIELDS', async (t) => {
    const { workspace, token } = await t.workspaceWithToken({ callProgress: 'auto' });
    const hook = await t.hookEndpoint(workspace, ['voice.call.completed']);
    const call = await placeCall(t, workspace, token.token, { lead_id: 'lead_certifyfields' });
    const completed = await completedFor(hook, call.callId);
    const data = dataOf(completed);
    assert(data, `voice.call.completed has no data object: ${completed.rawBody.toString('utf8').slice(0, 200)}`);
    const expectedTypes: Record<string, string> = {
      call_id: 'string',
      agent_id: 'string',
      to: 'string',
      duration_seconds: 'integer',
      outcome: 'string',
      transcript_url: 'string',
      metadata: 'object',
    };
    const wrong = Object.entries(expectedTypes)
      .filter(([field, type]) => jsonType(data[field]) !== type)
      .map(
        ([field, type]) =>
          `${field} is ${data[field] === undefined ? 'missing' : `${jsonType(data[field])} ${JSON.stringify(data[field])}`} (expected ${type})`,
      );
    t.measure(
      'field_types',
      Object.fromEntries(
        Object.keys(expectedTypes).map((field) => [
          field,
          data[field] === undefined ? 'missing' : jsonType(data[field]),
        ]),
      ),
    );
    assert(wrong.length === 0, `voice.call.completed data: ${wrong.join('; ')}`);
    assert(
      ID_PATTERNS.call.test(String(data['call_id'])) && data['call_id'] === call.callId,
      `call_id ${String(data['call_id'])} is not the placed call ${call.callId}`,
    );
    assert(
      ID_PATTERNS.agent.test(String(data['agent_id'])) && data['agent_id'] === call.agentId,
      `agent_id ${String(data['agent_id'])} is not the agent the call was placed with (${call.agentId})`,
    );
    assert(data['to'] === call.to, `to ${String(data['to'])} is not the number called (${call.to})`);
    assert(
      (data['duration_seconds'] as number) >= 0,
      `duration_seconds ${String(data['duration_seconds'])} is negative`,
    );
    assert(parseUrl(String(data['transcript_url'])), `transcript_url ${String(data['transcript_url'])} is not a URL`);
    t.detail(
      `every call field with its type; outcome ${String(data['outcome'])}, duration ${String(data['duration_seconds'])} s`,
    );
  });

  // The event's data is "the call fields listed in Resources": a field is listed whatever its
  // value, so a call placed without metadata carries the empty object, not no metadata at all.
  check('HOOK-CALL-FIELDS-PRESENT', async (t) => {
    const { workspace, token } = await t.workspaceWithToken({ callProgress: 'auto' });
    const hook = await t.hookEndpoint(workspace, ['voice.call.completed']);
    const call = await placeCall(t, workspace, token.token, null);
    const data = dataOf(await completedFor(hook, call.callId));
    assert(data, `voice.call.completed of ${call.callId} has no data object`);
    const absent = CALL_FIELD_NAMES.filter((field) => !Object.hasOwn(data, field));
    t.measure('fields', Object.keys(data));
    t.measure('metadata', data['metadata'] === undefined ? 'absent' : JSON.stringify(data['metadata']).slice(0, 200));
    assert(
      absent.length === 0,
      `voice.call.completed of a call placed without metadata lacks ${absent.join(', ')}: its data is every call field listed (${CALL_FIELD_NAMES.join(', ')}), an empty one too`,
    );
    const metadata = data['metadata'];
    assert(
      jsonType(metadata) === 'object' && Object.keys(metadata as object).length === 0,
      `voice.call.completed of a call placed without metadata carries metadata ${JSON.stringify(metadata)?.slice(0, 200)}: expected the empty object (no caller-supplied data)`,
    );
    t.detail(
      `a call placed without metadata: voice.call.completed carries all ${CALL_FIELD_NAMES.length} call fields, metadata {}`,
    );
  });

  // An id minted from a sequence read, then written (or from the clock) passes every check of
  // one call at a time; only calls placed together show two of them sharing it.
  check('CALL-PLACE-CONCURRENT', async (t) => {
    const { workspace, token } = await t.workspaceWithToken({ callProgress: 'auto' });
    const hook = await t.hookEndpoint(workspace, ['*']);
    const calls = await Promise.all(
      Array.from({ length: AT_ONCE }, (_, i) =>
        placeCall(t, workspace, token.token, { lead_id: `lead_certifyatonce${i + 1}` }),
      ),
    );
    const ids = calls.map((call) => call.callId);
    t.measure('distinct_call_ids', new Set(ids).size);
    assert(
      new Set(ids).size === ids.length,
      `${ids.length} calls placed at once (one workspace, one agent) were given ${new Set(ids).size} distinct call ids (${ids.join(', ')}): each call is its own call_<id>`,
    );
    const lifecycleOf = (ds: readonly CapturedDelivery[], call: PlacedCall) =>
      LIFECYCLE.filter((type) => !ds.some(ofCall(call.callId, type)));
    const { deliveries } = await settle(
      hook.inbox,
      (ds) => calls.every((call) => lifecycleOf(ds, call).length === 0),
      CALL_EVENTS_TIMEOUT_MS,
      `the lifecycles of ${ids.length} calls`,
    );
    const missing = calls.flatMap((call) => lifecycleOf(deliveries, call).map((type) => `${type} of ${call.callId}`));
    assert(
      missing.length === 0,
      `calls placed at once (call_progress auto): no ${missing.join(', ')} within ${CALL_EVENTS_TIMEOUT_MS} ms; arrived: ${typeCounts(deliveries)}`,
    );
    // Each call's completion carries that call's own metadata, and no event id stands for two events.
    const completedMetadata = (call: PlacedCall) =>
      dataOf(deliveries.find(ofCall(call.callId, 'voice.call.completed'))!)?.['metadata'];
    const foreign = calls.filter((call) => !isDeepStrictEqual(completedMetadata(call), call.metadata));
    assert(
      foreign.length === 0,
      `voice.call.completed of ${foreign.map((call) => call.callId).join(', ')} carries metadata other than its own call's (calls placed at once)`,
    );
    const shared = sharedEventIds(deliveries);
    assert(shared.length === 0, `one event id stands for two events of calls placed at once: ${shared.join('; ')}`);
    t.detail(
      `${ids.length} calls placed at once: ${ids.length} distinct call ids, each with its own queued, started and completed events and metadata`,
    );
  });

  check('EVENT-FIRE-CONCURRENT', async (t) => {
    const workspace = await t.workspace();
    const hooks = [await t.hookEndpoint(workspace, ['*']), await t.hookEndpoint(workspace, [FIRED_AT_ONCE])];
    const ids = await Promise.all(
      Array.from({ length: AT_ONCE }, (_, i) =>
        workspace.fireEvent(FIRED_AT_ONCE, { certify: 'fired at once', nth: i + 1 }),
      ),
    );
    t.measure('distinct_event_ids', new Set(ids).size);
    assert(
      new Set(ids).size === ids.length,
      `${ids.length} events fired at once were given ${new Set(ids).size} distinct ids (${ids.join(', ')}): an event's id is its idempotency key, so a receiver would process one of them`,
    );
    assert(
      ids.every((id) => ID_PATTERNS.event.test(id)),
      `events fired at once were given ids that are not evt_<id>: ${ids.join(', ')}`,
    );
    const all = (ds: readonly CapturedDelivery[]) => ids.every((id) => ds.some((d) => idOf(d) === id));
    await Promise.all(
      hooks.map((hook) => settle(hook.inbox, all, DELIVERY_TIMEOUT_MS, `${ids.length} events fired at once`)),
    );
    await sleep(QUIET_GRACE_MS);
    const problems: string[] = [];
    const copies: number[] = [];
    for (const [h, hook] of hooks.entries()) {
      const deliveries = hook.inbox.deliveries;
      ids.forEach((id, i) => {
        const arrived = deliveries.filter((d) => idOf(d) === id);
        copies.push(arrived.length);
        if (arrived.length !== 1) problems.push(`endpoint ${h + 1} got ${id} ${arrived.length} times`);
        else if (dataOf(arrived[0]!)?.['nth'] !== i + 1)
          problems.push(
            `endpoint ${h + 1} got ${id} with the data of another event (${JSON.stringify(dataOf(arrived[0]!))?.slice(0, 100)})`,
          );
      });
    }
    t.measure('copies_per_endpoint', copies);
    assert(
      problems.length === 0,
      `${ids.length} events fired at once, each acknowledged, to two endpoints subscribed to ${FIRED_AT_ONCE}: ${problems.join('; ')}: each event is delivered once to each, as its own`,
    );
    t.detail(
      `${ids.length} events fired at once: distinct ids, each delivered once to each of two subscribed endpoints with its own data`,
    );
  });

  check('HOOK-METADATA-ROUNDTRIP', async (t) => {
    const { workspace, token } = await t.workspaceWithToken({ callProgress: 'auto' });
    const hook = await t.hookEndpoint(workspace, ['voice.call.completed']);
    const sent = { ...STRING_METADATA, ...FIELD_NAMED_METADATA };
    const call = await placeCall(t, workspace, token.token, sent);
    const data = dataOf(await completedFor(hook, call.callId));
    const metadata = data?.['metadata'];
    assert(
      isDeepStrictEqual(metadata, sent),
      `metadata came back as ${JSON.stringify(metadata)?.slice(0, 200) ?? 'nothing'}; expected ${JSON.stringify(sent)}`,
    );
    const overwritten = Object.keys(FIELD_NAMED_METADATA).filter((field) => data?.[field] === FIELD_NAMED_VALUE);
    assert(
      overwritten.length === 0,
      `call ${call.callId}'s voice.call.completed carries ${overwritten.map((field) => `${field}: ${JSON.stringify(FIELD_NAMED_VALUE)}`).join(', ')}, the value of its metadata key of that name: metadata keys named like call fields overwrote the call's own`,
    );
    t.detail(
      'string-valued metadata with free-form keys came back deep-equal; keys named like call fields left the fields alone',
    );
  });

  // A long value is refused, or kept whole: a column cut at 255 characters returns another value
  // (round 18). Limits exist (Stripe's is 500 characters): refusing is a choice, cutting is not.
  check('HOOK-METADATA-LONG-VALUE', async (t) => {
    const returned = await metadataReturned(t, LONG_METADATA);
    if ('refused' in returned)
      return t.detail(`metadata with a ${LONG_METADATA.notes.length}-character value refused: ${returned.refused}`);
    const metadata = returned.metadata as Record<string, unknown> | undefined;
    const notes = metadata?.['notes'];
    t.measure('returned_length', typeof notes === 'string' ? notes.length : null);
    assert(
      isDeepStrictEqual(metadata, LONG_METADATA),
      `metadata with a ${LONG_METADATA.notes.length}-character value was accepted and came back ${typeof notes === 'string' ? `with it ${notes.length} characters long` : `as ${JSON.stringify(metadata)?.slice(0, 200) ?? 'nothing'}`}: accepted means kept whole`,
    );
    t.detail(`a ${LONG_METADATA.notes.length}-character metadata value was accepted and came back whole`);
  });

  // created_at is the event's: a call moved to started seconds after it was placed carries a later
  // created_at on its started event than on its queued one (round 18 stamped every call event
  // with the placement time).
  check('HOOK-CREATED-AT-WHEN-HAPPENED', async (t) => {
    const { workspace, token } = await t.workspaceWithToken({ callProgress: 'manual' });
    const hook = await t.hookEndpoint(workspace, ['voice.call.queued', 'voice.call.started']);
    const call = await placeCall(t, workspace, token.token);
    const arrival = async (type: string) => {
      const { deliveries, timedOut } = await settle(
        hook.inbox,
        (ds) => ds.some(ofCall(call.callId, type)),
        CALL_EVENTS_TIMEOUT_MS,
        `${type} of ${call.callId}`,
      );
      const delivery = deliveries.find(ofCall(call.callId, type));
      assert(!timedOut && delivery, `no ${type} of ${call.callId} within ${CALL_EVENTS_TIMEOUT_MS} ms`);
      return delivery;
    };
    const queued = await arrival('voice.call.queued');
    await sleep(LATER_MOVE_MS);
    await workspace.progressCall(call.callId, { state: 'started' });
    const started = await arrival('voice.call.started');
    const [queuedAt, startedAt] = [queued, started].map((d) =>
      parseIsoUtc((d.verdicts.json as Record<string, unknown> | undefined)?.['created_at']),
    );
    if (queuedAt === undefined || startedAt === undefined)
      return t.skip('a created_at did not parse as ISO 8601 UTC (see HOOK-ENVELOPE): nothing to compare');
    t.measure('moved_after_ms', LATER_MOVE_MS);
    t.measure('created_at_apart_ms', startedAt - queuedAt);
    assert(
      startedAt - queuedAt >= LATER_MOVE_MS - CREATED_AT_SLACK_MS,
      `call ${call.callId} was moved to started ${LATER_MOVE_MS} ms after its queued event arrived, and the two events' created_at are ${startedAt - queuedAt} ms apart: created_at is when each event happened`,
    );
    t.detail(
      `moved to started ${LATER_MOVE_MS} ms after queued; the events' created_at are ${startedAt - queuedAt} ms apart`,
    );
  });

  check('HOOK-METADATA-NESTED', async (t) => {
    const returned = await metadataReturned(t, NESTED_METADATA);
    if ('refused' in returned)
      return t.detail(`metadata with nested, numeric, boolean and null values refused: ${returned.refused}`);
    const { metadata } = returned;
    const same = isDeepStrictEqual(metadata, NESTED_METADATA);
    t.measure('returned_as_sent', same);
    // Accepted means kept: a caller who gets "7" for 7 finds out in production.
    assert(
      same,
      `metadata with nested, numeric, boolean and null values was accepted and came back changed: ${JSON.stringify(metadata)?.slice(0, 300) ?? 'nothing'}; sent ${JSON.stringify(NESTED_METADATA)}`,
    );
    t.detail('accepted; nested values came back deep-equal');
  });

  check('HOOK-TRANSCRIPT-URL', async (t) => {
    const { workspace, token } = await t.workspaceWithToken({ callProgress: 'auto' });
    const hook = await t.hookEndpoint(workspace, ['voice.call.completed']);
    // Two calls, one after the other: each event's URL must name its own call, not the one before.
    const earlier = await placeCall(t, workspace, token.token);
    await completedFor(hook, earlier.callId);
    const call = await placeCall(t, workspace, token.token);
    const base = new URL(t.run.baseUrl);
    const pathOf = (callId: string) => `${base.pathname.replace(/\/+$/, '')}/v1/voice/calls/${callId}/transcript`;
    let url: URL | undefined;
    let text: unknown;
    for (const placed of [earlier, call]) {
      text = dataOf(await completedFor(hook, placed.callId))?.['transcript_url'];
      assert(typeof text === 'string', `transcript_url is ${JSON.stringify(text)}, not a string`);
      url = parseUrl(text);
      assert(url, `transcript_url ${text} is not a URL`);
      t.measure('transcript_url', text);
      assert(
        url.pathname === pathOf(placed.callId),
        `transcript_url ${text} of call ${placed.callId}: expected the path ${pathOf(placed.callId)} (the {base_url}/v1/voice/calls/<call_id>/transcript form, of this call)`,
      );
    }
    assert(url && typeof text === 'string', 'no transcript_url was read');
    const suffix = `/v1/voice/calls/${call.callId}/transcript`;
    // A service reached through a tunnel or reverse proxy announces its own base URL, not
    // the one the harness was given: the origin is recorded, the path is the rule.
    const sameOrigin = url.origin === base.origin;
    t.measure('transcript_url_same_origin', sameOrigin);
    const res = await t.api.transcriptAt(token.token, `${suffix}${url.search}`);
    const method = t.api.transcriptMethod;
    t.measure('transcript_status', res.status);
    t.measure('transcript_method', method);
    assert(
      is2xx(res.status),
      `${method} ${text} with the workspace's token: expected a 2xx, got ${describeResponse(res)}`,
      res,
    );
    t.detail(
      `${method} ${text} answered ${res.status} with ${res.text.length} characters (the method is not shown: GET, or POST where GET answers 405 Allow: POST)${sameOrigin ? '' : `; its origin ${url.origin} is not SVC_BASE_URL's ${base.origin} (a proxy or tunnel; fetched through SVC_BASE_URL)`}`,
    );
  });

  check('HOOK-LIFECYCLE-COMPLETED', async (t) => {
    const { callId, first, created } = await autoLifecycle(t);
    const arrival = first.map((d) => d.seq);
    t.measure('created_at_ms', Object.fromEntries(LIFECYCLE.map((type, i) => [type, created[i] ?? null])));
    t.measure('arrival_ms', Object.fromEntries(LIFECYCLE.map((type, i) => [type, first[i]?.receivedAtMs ?? null])));
    // Order by created_at only. Deliveries are independent, so arrival order proves nothing,
    // and equal created_at values (a clock of whole seconds) say nothing about order.
    const notAfter = (a: number, b: number): boolean => {
      const [ca, cb] = [created[a], created[b]];
      return ca === undefined || cb === undefined || ca <= cb;
    };
    assert(
      notAfter(0, 1) && notAfter(1, 2),
      `call ${callId}: created_at not in the order queued, started, completed (${created.map((c) => (c === undefined ? '?' : new Date(c).toISOString())).join(', ')})`,
    );
    const arrivalOrdered = arrival[0]! < arrival[1]! && arrival[1]! < arrival[2]!;
    t.detail(
      `queued, started, completed for ${callId}${arrivalOrdered ? ', arriving in that order' : '; created_at in order, arrival order differed (deliveries are independent)'}`,
    );
  });

  // The control contract's promise behind every auto-progressed call: queued to completed
  // within 2 s of real time, judged on the service's own created_at (network and this
  // process's stalls left out), with outcome answered. A clock of whole seconds shows only a
  // gap of 3 s or more.
  check('CALL-AUTO-PROGRESS-2S', async (t) => {
    const { callId, created, first } = await autoLifecycle(t);
    const outcome = dataOf(first[2]!)?.['outcome'];
    t.measure('outcome', outcome ?? null);
    assert(
      outcome === AUTO_PROGRESS_OUTCOME,
      `call ${callId} (call_progress auto) completed with outcome ${JSON.stringify(outcome)}: auto completes a call with outcome ${AUTO_PROGRESS_OUTCOME}`,
    );
    const [queued, , completed] = created;
    if (queued === undefined || completed === undefined)
      return t.skip(`created_at of ${callId}'s events does not parse (HOOK-ENVELOPE judges it): no gap to measure`);
    const wholeSeconds = queued % 1000 === 0 && completed % 1000 === 0;
    const gapMs = completed - queued;
    t.measure('queued_to_completed_ms', gapMs);
    t.measure('created_at_resolution', wholeSeconds ? 'seconds' : 'milliseconds');
    const limitMs = wholeSeconds ? AUTO_PROGRESS_LIMIT_MS + 1_000 : AUTO_PROGRESS_LIMIT_MS;
    assert(
      gapMs < limitMs || (!wholeSeconds && gapMs === limitMs),
      `call ${callId} (call_progress auto) took ${gapMs} ms from voice.call.queued to voice.call.completed by their created_at: auto completes a call within 2 s${wholeSeconds ? ' (whole seconds: 3 s or more apart)' : ''}`,
    );
    t.detail(
      `voice.call.queued to voice.call.completed: ${gapMs} ms by created_at${wholeSeconds ? ' (whole seconds)' : ''}, outcome ${AUTO_PROGRESS_OUTCOME}`,
    );
  });

  check('HOOK-TRANSCRIPT-URL-AS-GIVEN', async (t) => {
    const { workspace, token } = await t.workspaceWithToken({ callProgress: 'auto' });
    const hook = await t.hookEndpoint(workspace, ['voice.call.completed']);
    const call = await placeCall(t, workspace, token.token);
    const text = dataOf(await completedFor(hook, call.callId))?.['transcript_url'];
    const url = typeof text === 'string' ? parseUrl(text) : undefined;
    assert(
      url && /^https?:$/.test(url.protocol),
      `transcript_url ${JSON.stringify(text)} is not an http(s) URL (HOOK-TRANSCRIPT-URL judges its form)`,
    );
    t.measure('transcript_url', url.href);
    // A client reads the URL as handed out: at its own origin, path and query, not rebuilt on the base URL the harness was given.
    const answer = await atOwnOrigin(t, url, token.token);
    t.measure('transcript_status', typeof answer === 'string' ? answer : answer.status);
    if (typeof answer !== 'string' && is2xx(answer.status))
      return t.detail(
        `${t.api.transcriptMethod} ${url.href}, as given${url.origin === new URL(t.run.baseUrl).origin ? '' : " (another origin than SVC_BASE_URL's)"}, answered ${answer.status}`,
      );
    // Whether the same call's transcript is there at all decides between a bad URL and a service that serves no transcript.
    const base = await t.api.transcript(token.token, call.callId);
    t.measure('through_base_url_status', base.status);
    assert(
      !is2xx(base.status),
      `${url.href}, as given, ${typeof answer === 'string' ? `got no answer (${answer})` : `answered ${describeResponse(answer)}`}, while the same call's transcript answers ${base.status} through SVC_BASE_URL: the URL handed out does not work where a client uses it`,
      typeof answer === 'string' ? base : answer,
    );
    t.fail(
      `${url.href}, as given, ${typeof answer === 'string' ? `got no answer (${answer})` : `answered ${describeResponse(answer)}`}, and the transcript through SVC_BASE_URL answered ${describeResponse(base)}`,
      typeof answer === 'string' ? base : answer,
    );
  });

  // A URL handed out keeps working: a client reads a call's transcript when its own queue gets
  // to the event, not at once, and after other calls. The spec gives it no lifetime; seconds
  // and two calls are far below any a user expects.
  check(
    'HOOK-TRANSCRIPT-URL-LASTS',
    async (t) => {
      const { workspace, token } = await t.workspaceWithToken({ callProgress: 'auto' });
      const hook = await t.hookEndpoint(workspace, ['voice.call.completed']);
      const call = await placeCall(t, workspace, token.token);
      const text = dataOf(await completedFor(hook, call.callId))?.['transcript_url'];
      const url = typeof text === 'string' ? parseUrl(text) : undefined;
      if (!url) return t.skip(`transcript_url ${JSON.stringify(text)} is no URL (HOOK-TRANSCRIPT-URL judges its form)`);
      const first = await atOwnOrigin(t, url, token.token);
      if (typeof first === 'string' || !is2xx(first.status))
        return t.skip(
          `${url.href} did not answer with the transcript at once (${typeof first === 'string' ? first : first.status}; HOOK-TRANSCRIPT-URL-AS-GIVEN judges it): nothing to read again`,
        );
      const readAgainAt = Date.now() + TRANSCRIPT_READ_AGAIN_MS;
      // Later calls must not push an earlier one's transcript out (a store of the last few calls).
      for (let index = 0; index < LATER_CALLS; index += 1) await placeCall(t, workspace, token.token);
      await sleep(Math.max(0, readAgainAt - Date.now()));
      const later = await atOwnOrigin(t, url, token.token);
      t.measure('later_status', typeof later === 'string' ? later : later.status);
      const when = `${TRANSCRIPT_READ_AGAIN_MS / 1000} s later, ${LATER_CALLS} calls placed since`;
      assert(
        typeof later !== 'string' && is2xx(later.status),
        `${url.href} answered ${first.status} right after voice.call.completed, then ${typeof later === 'string' ? `no answer (${later})` : describeResponse(later)} ${when}: a transcript URL handed out stopped working`,
        typeof later === 'string' ? first : later,
      );
      t.detail(`${url.href} answered ${first.status} after voice.call.completed and ${later.status} ${when}`);
    },
    { timeoutMs: 60_000 },
  );

  // A value handed in comes back: the length the call was reported with, not one the service measured
  // between its own events, and 0 as a length, not as an absent one.
  check('HOOK-COMPLETED-AS-REPORTED', async (t) => {
    const { workspace, token } = await t.workspaceWithToken({ callProgress: 'manual' });
    const hook = await t.hookEndpoint(workspace, ['voice.call.completed']);
    const refused: string[] = [];
    for (const [index, reported] of REPORTED.entries()) {
      // Each call of the same agent to a number of its own: the event carries this call's (round 20
      // carried the number the agent first called).
      const call = await placeCall(t, workspace, token.token, {}, dramaNumber(index));
      await workspace.progressCall(call.callId, { state: 'started' });
      try {
        await workspace.progressCall(call.callId, {
          state: 'completed',
          outcome: reported.outcome,
          durationSeconds: reported.durationSeconds,
        });
      } catch (error) {
        if (!(error instanceof ControlError) || !error.refused || reported.outcome === 'answered') throw error;
        refused.push(`outcome ${reported.outcome} refused ${error.status}`);
        continue;
      }
      const data = dataOf(await completedFor(hook, call.callId));
      t.measure(`carried_for_${reported.durationSeconds}_s`, {
        duration_seconds: data?.['duration_seconds'] ?? null,
        outcome: data?.['outcome'] ?? null,
      });
      assert(
        data?.['duration_seconds'] === reported.durationSeconds,
        `call ${call.callId} was completed with duration_seconds ${reported.durationSeconds}, and voice.call.completed carries ${JSON.stringify(data?.['duration_seconds'])}`,
      );
      assert(
        data?.['outcome'] === reported.outcome,
        `call ${call.callId} was completed with outcome ${reported.outcome}, and voice.call.completed carries ${JSON.stringify(data?.['outcome'])}`,
      );
      assert(
        data?.['to'] === call.to,
        `call ${call.callId} was placed to ${call.to}, and voice.call.completed carries to ${JSON.stringify(data?.['to'])}`,
      );
    }
    t.measure('refused', refused);
    t.detail(
      `${REPORTED.length} calls completed with ${REPORTED.map((r) => `${r.durationSeconds} s ${r.outcome}`).join(', ')}: each event carries its own${refused.length > 0 ? ` (${refused.join('; ')})` : ''}`,
    );
  });

  check('HOOK-PROGRESS-ONE-CALL', async (t) => {
    // A time scale too: it scales retries and the auto-disable only, never a manual call's progress.
    const { max_time_scale: maxScale } = await t.capabilities();
    const { workspace, token } = await t.workspaceWithToken({
      callProgress: 'manual',
      timeScale: Math.min(MANUAL_TIME_SCALE, maxScale),
    });
    const hook = await t.hookEndpoint(workspace, ['*']);
    const [moved, waiting] = [await placeCall(t, workspace, token.token), await placeCall(t, workspace, token.token)];
    const queued = await settle(
      hook.inbox,
      (ds) => [moved, waiting].every((call) => ds.some(ofCall(call.callId, 'voice.call.queued'))),
      CALL_EVENTS_TIMEOUT_MS,
      'voice.call.queued of both calls',
    );
    assert(
      !queued.timedOut,
      `voice.call.queued did not arrive for both calls within ${CALL_EVENTS_TIMEOUT_MS} ms; arrived: ${typeCounts(queued.deliveries)}`,
    );
    const done = await completeByHand(workspace, hook, moved.callId);
    assert(
      !done.timedOut,
      `the call moved to completed emitted no voice.call.completed within ${CALL_EVENTS_TIMEOUT_MS} ms`,
    );
    await sleep(QUIET_GRACE_MS);
    const ofWaiting = () => hook.inbox.deliveries.filter((d) => callIdOf(d) === waiting.callId);
    const early = ofWaiting().filter((d) => typeOf(d) !== 'voice.call.queued');
    assert(
      early.length === 0,
      `moving call ${moved.callId} also moved call ${waiting.callId}, which nobody moved: it emitted ${typeCounts(early)}`,
    );
    // The waiting call is still queued: it can fail ("did not connect") now, on its own.
    await workspace.progressCall(waiting.callId, { state: 'failed' });
    const failed = await settle(
      hook.inbox,
      (ds) => ds.some(ofCall(waiting.callId, 'voice.call.failed')),
      CALL_EVENTS_TIMEOUT_MS,
      `voice.call.failed of ${waiting.callId}`,
    );
    assert(
      !failed.timedOut,
      `the waiting call moved to failed emitted no voice.call.failed within ${CALL_EVENTS_TIMEOUT_MS} ms; arrived for it: ${typeCounts(ofWaiting())}`,
    );
    await sleep(QUIET_GRACE_MS);
    const ofMoved = hook.inbox.deliveries.filter((d) => callIdOf(d) === moved.callId);
    assert(
      !ofMoved.some((d) => typeOf(d) === 'voice.call.failed'),
      `failing call ${waiting.callId} also emitted voice.call.failed for ${moved.callId}`,
    );
    t.detail(`of two queued calls, the one moved completed alone; the other stayed queued until it was failed, alone`);
  });

  // "Call ended cleanly" happens once, and a call starts once: a receiver keyed on the event id
  // would act on a second start or end under a new id as on a new call's.
  check('HOOK-CALL-STATES-ONCE', async (t) => {
    const { workspace, token } = await t.workspaceWithToken({ callProgress: 'manual' });
    const hook = await t.hookEndpoint(workspace, ['*']);
    const call = await placeCall(t, workspace, token.token);
    // A second call ends as failed, then is moved on: a failed call reached its end too.
    const lost = await placeCall(t, workspace, token.token);
    const moves: string[] = [];
    const moveAgain = async (callId: string, move: CallProgress) => {
      const which = callId === call.callId ? '' : 'failed call to ';
      try {
        await workspace.progressCall(callId, move);
        moves.push(`${which}${move.state}: accepted`);
      } catch (error) {
        if (!(error instanceof ControlError) || !error.refused) throw error;
        moves.push(`${which}${move.state}: refused ${error.status}`);
      }
    };
    await workspace.progressCall(call.callId, { state: 'started' });
    await moveAgain(call.callId, { state: 'started' });
    const done = await completeByHand(workspace, hook, call.callId, { started: true });
    if (done.timedOut)
      t.skip(
        `the completed call emitted no voice.call.completed within ${CALL_EVENTS_TIMEOUT_MS} ms (see HOOK-PROGRESS-ONE-CALL): no end to repeat`,
      );
    await moveAgain(call.callId, { state: 'completed', outcome: 'answered', durationSeconds: 42 });
    await moveAgain(call.callId, { state: 'failed' });
    await workspace.progressCall(lost.callId, { state: 'failed' });
    const failed = await settle(
      hook.inbox,
      (ds) => ds.some(ofCall(lost.callId, 'voice.call.failed')),
      CALL_EVENTS_TIMEOUT_MS,
      `voice.call.failed of ${lost.callId}`,
    );
    if (failed.timedOut)
      t.skip(
        `the failed call emitted no voice.call.failed within ${CALL_EVENTS_TIMEOUT_MS} ms (see HOOK-LIFECYCLE-FAILED): no end to repeat`,
      );
    await moveAgain(lost.callId, { state: 'started' });
    await moveAgain(lost.callId, { state: 'completed', outcome: 'answered', durationSeconds: 42 });
    t.measure('repeated_moves', moves);
    await sleep(QUIET_GRACE_MS);
    const ofCallTypes = (callId: string, types: readonly string[]) =>
      hook.inbox.deliveries.filter((d) => callIdOf(d) === callId && types.includes(typeOf(d) ?? ''));
    const starts = ofCallTypes(call.callId, ['voice.call.started']);
    const ends = ofCallTypes(call.callId, ['voice.call.completed', 'voice.call.failed']);
    const lostAfterwards = ofCallTypes(lost.callId, ['voice.call.started', 'voice.call.completed']);
    const idsOf = (ds: readonly CapturedDelivery[]) => new Set(ds.map((d) => idOf(d)));
    const [startIds, endIds] = [idsOf(starts), idsOf(ends)];
    t.measure('event_ids', { started: startIds.size, ended: endIds.size, failed_then: lostAfterwards.length });
    const ownMoves = moves.filter((move) => !move.startsWith('failed call'));
    assert(
      startIds.size === 1,
      `call ${call.callId} was moved to started twice (${ownMoves[0]}): it emitted ${typeCounts(starts)} under ${startIds.size} event ids, so it started ${startIds.size} times`,
    );
    assert(
      endIds.size === 1,
      `call ${call.callId} completed, then was moved again (${ownMoves.slice(1).join(', ')}): it emitted ${typeCounts(ends)} under ${endIds.size} event ids, so it ended ${endIds.size} times`,
    );
    assert(
      lostAfterwards.length === 0,
      `call ${lost.callId} failed, then was moved again (${moves.filter((move) => move.startsWith('failed call')).join(', ')}): it emitted ${typeCounts(lostAfterwards)} after its voice.call.failed`,
    );
    t.detail(
      `calls moved into states they had reached or passed (${moves.join(', ')}) emitted each of their events once`,
    );
  });

  check('HOOK-LIFECYCLE-FAILED', async (t) => {
    const { workspace, token } = await t.workspaceWithToken({ callProgress: 'manual' });
    const hook = await t.hookEndpoint(workspace, ['*']);
    const call = await placeCall(t, workspace, token.token);
    // "Did not connect": the call fails from queued, never having started.
    await workspace.progressCall(call.callId, { state: 'failed' });
    const failed = ofCall(call.callId, 'voice.call.failed');
    const completed = ofCall(call.callId, 'voice.call.completed');
    const first = await settle(
      hook.inbox,
      (ds) => ds.some(failed) || ds.some(completed),
      CALL_EVENTS_TIMEOUT_MS,
      `voice.call.failed of ${call.callId}`,
    );
    const mine = () => hook.inbox.deliveries.filter((d) => callIdOf(d) === call.callId);
    assert(
      !first.deliveries.some(completed),
      `a call moved from queued to failed emitted voice.call.completed; arrived: ${typeCounts(mine())}`,
    );
    assert(
      !first.timedOut,
      `no voice.call.failed for ${call.callId} within ${CALL_EVENTS_TIMEOUT_MS} ms after it was moved to failed; arrived: ${typeCounts(mine())}`,
    );
    // Nothing marks "no more events": a short, bounded grace for a late completed.
    const late = await settle(
      hook.inbox,
      (ds) => ds.some(completed),
      QUIET_GRACE_MS,
      `a late voice.call.completed of ${call.callId}`,
    );
    assert(
      late.timedOut,
      `voice.call.completed arrived for ${call.callId} after its voice.call.failed; arrived: ${typeCounts(mine())}`,
    );
    t.detail(
      `voice.call.failed arrived, no voice.call.completed within ${QUIET_GRACE_MS} ms after it; for the call: ${typeCounts(mine())}`,
    );
  });

  check('HOOK-SUBSCRIPTION-FILTER', async (t) => {
    const chosen = ['voice.call.completed', 'mailer.reply.received'];
    const { workspace, token } = await t.workspaceWithToken({ callProgress: 'auto' });
    const filtered = await t.hookEndpoint(workspace, chosen, nextEndpointName(`${t.spec.id}-filtered`));
    // A companion subscribed to every type caused here shows when all of it has been dispatched.
    const causedTypes = [
      'mailer.email.sent',
      'mailer.campaign.completed',
      'workspace.plan.upgraded',
      'mailer.reply.received',
      ...LIFECYCLE,
    ];
    const everything = await t.hookEndpoint(workspace, causedTypes, nextEndpointName(`${t.spec.id}-all`));
    const fired: string[] = [];
    for (const type of [
      'mailer.email.sent',
      'mailer.campaign.completed',
      'workspace.plan.upgraded',
      'mailer.reply.received',
    ] as const) {
      fired.push(await workspace.fireEvent(type, firedData(type)));
    }
    const call = await placeCall(t, workspace, token.token);
    const caused = (ds: readonly CapturedDelivery[]) =>
      fired.every((id) => ds.some((d) => idOf(d) === id)) &&
      ds.some(ofCall(call.callId, 'voice.call.queued')) &&
      ds.some(ofCall(call.callId, 'voice.call.completed'));
    const all = await settle(
      everything.inbox,
      caused,
      CALL_EVENTS_TIMEOUT_MS,
      'every caused event at the companion endpoint',
    );
    const missing = causedTypes.filter((type) => !all.deliveries.some((d) => typeOf(d) === type));
    assert(
      !all.timedOut,
      `an endpoint subscribed by name to every type caused here received no ${missing.join(', ') || 'event of some of them'} within ${CALL_EVENTS_TIMEOUT_MS} ms (arrived: ${typeCounts(all.deliveries)}): an endpoint receives each type it subscribed to`,
    );
    const wanted = (ds: readonly CapturedDelivery[]) => chosen.every((type) => ds.some((d) => typeOf(d) === type));
    const got = await settle(filtered.inbox, wanted, DELIVERY_TIMEOUT_MS, chosen.join(' and '));
    await sleep(QUIET_GRACE_MS);
    const received = filtered.inbox.deliveries;
    const unexpected = received.filter((d) => !chosen.includes(typeOf(d) ?? ''));
    t.measure(
      'received',
      received.map((d) => typeOf(d)),
    );
    assert(
      unexpected.length === 0,
      `an endpoint subscribed to ${chosen.join(', ')} also received ${typeCounts(unexpected)}`,
    );
    assert(!got.timedOut, `an endpoint subscribed to ${chosen.join(', ')} received only ${typeCounts(received)}`);
    t.detail(
      `subscribed to ${chosen.join(', ')}; received ${typeCounts(received)}; the * companion got ${typeCounts(everything.inbox.deliveries)}`,
    );
  });

  check(
    'HOOK-SUBSCRIPTION-WILDCARD',
    async (t) => {
      const tour = await eventTour(t, ['*']);
      const seen = new Set(tour.deliveries.map(({ delivery }) => typeOf(delivery)));
      const absent = ALL_EVENT_TYPES.filter((type) => !seen.has(type));
      t.measure(
        'types_seen',
        ALL_EVENT_TYPES.filter((type) => seen.has(type)),
      );
      assert(
        absent.length === 0,
        `an endpoint subscribed to * received no ${absent.join(', ')} (all eight were caused; waited ${CALL_EVENTS_TIMEOUT_MS} ms)`,
      );
      t.detail('an endpoint on * received all eight event types');
    },
    { timeoutMs: 40_000 },
  );

  check('HOOK-FIRED-DATA', async (t) => {
    const workspace = await t.workspace();
    // Two events with every kind of value, and two alike fired with empty data: each firing is an event.
    const firings: Array<{ type: string; data: Record<string, unknown> }> = [
      { type: 'mailer.reply.received', data: firedData('mailer.reply.received') },
      { type: 'workspace.plan.upgraded', data: firedData('workspace.plan.upgraded') },
      { type: 'mailer.email.sent', data: {} },
      { type: 'mailer.email.sent', data: {} },
      // A second of its type with other data: each event carries its own, not its type's first.
      { type: 'mailer.reply.received', data: { sentiment: 'positive', body: 'second reply, its own data' } },
    ];
    const hook = await t.hookEndpoint(
      workspace,
      firings.map(({ type }) => type),
    );
    const fired: Array<{ type: string; data: Record<string, unknown>; id: string }> = [];
    for (const { type, data } of firings) fired.push({ type, data, id: await workspace.fireEvent(type, data) });
    // Fired with no data member at all: refused, or delivered with a data object (the envelope's data is an object).
    const bare = 'mailer.email.sent';
    let bareId: string | undefined;
    try {
      bareId = await workspace.fireEventWithoutData(bare);
      fired.push({ type: bare, data: {}, id: bareId });
      t.measure('fired_without_data', 'accepted');
    } catch (error) {
      if (!(error instanceof ControlError) || !error.refused) throw error;
      t.measure('fired_without_data', `refused ${error.status}`);
    }
    const distinct = new Set(fired.map(({ id }) => id));
    assert(
      distinct.size === fired.length,
      `${fired.length} events fired (two of them mailer.email.sent with the same empty data) were answered with ${distinct.size} distinct event ids: ${fired.map(({ id }) => id).join(', ')}`,
    );
    const got = await settle(
      hook.inbox,
      (ds) => fired.every(({ id }) => ds.some((d) => idOf(d) === id)),
      DELIVERY_TIMEOUT_MS,
      'the fired events',
    );
    assert(
      !got.timedOut,
      `the fired events did not arrive within ${DELIVERY_TIMEOUT_MS} ms; arrived: ${typeCounts(got.deliveries)}`,
    );
    const added: string[] = [];
    for (const { type, data, id } of fired) {
      const delivered = dataOf(got.deliveries.find((d) => idOf(d) === id)!);
      assert(
        delivered !== undefined,
        `${type} ${id} fired with ${id === bareId ? 'no data member' : `data ${JSON.stringify(data).slice(0, 300)}`} was delivered without a data object: the envelope's data is an object`,
      );
      const changed = Object.keys(data).filter((key) => !isDeepStrictEqual(delivered[key], data[key]));
      assert(
        changed.length === 0,
        `${type} ${id} fired with data ${JSON.stringify(data).slice(0, 300)} was delivered with ${changed.map((key) => `${key}: ${JSON.stringify(delivered[key])?.slice(0, 120) ?? 'absent'}`).join('; ')}`,
      );
      added.push(...Object.keys(delivered).filter((key) => !(key in data)));
    }
    t.measure('keys_added', added);
    t.detail(
      `${fired.length} fired events delivered with their data as given${added.length > 0 ? `, and the service added ${added.join(', ')}` : ''}`,
    );
  });

  check('HOOK-ONE-DELIVERY-PER-EVENT', async (t) => {
    const workspace = await t.workspace();
    const type = 'mailer.email.sent';
    const subscriptions = [
      ['*', type],
      [type, type],
    ];
    const hooks = [];
    const refused: string[] = [];
    for (const events of subscriptions) {
      try {
        hooks.push({ events, hook: await t.hookEndpoint(workspace, events) });
      } catch (error) {
        if (!(error instanceof ControlError) || !error.refused) throw error;
        refused.push(`[${events.join(', ')}] refused ${error.status}`);
      }
    }
    t.measure('refused_subscriptions', refused);
    if (hooks.length === 0) t.skip(`both subscriptions were refused: ${refused.join('; ')}`);
    const ids = [await workspace.fireEvent(type, firedData(type)), await workspace.fireEvent(type, firedData(type))];
    for (const { events, hook } of hooks) {
      const got = await settle(
        hook.inbox,
        (ds) => ids.every((id) => ds.some((d) => idOf(d) === id)),
        DELIVERY_TIMEOUT_MS,
        `${ids.join(' and ')} at the endpoint on ${events.join(', ')}`,
      );
      assert(
        !got.timedOut,
        `an endpoint subscribed to ${events.join(', ')} did not receive both fired ${type} events within ${DELIVERY_TIMEOUT_MS} ms`,
      );
    }
    await sleep(QUIET_GRACE_MS);
    const counts = hooks.map(({ events, hook }) => ({
      events,
      perEvent: ids.map((id) => hook.inbox.deliveries.filter((d) => idOf(d) === id).length),
    }));
    t.measure(
      'deliveries_per_event',
      counts.map(({ events, perEvent }) => `[${events.join(', ')}]: ${perEvent.join(', ')}`),
    );
    const repeated = counts.filter(({ perEvent }) => perEvent.some((n) => n > 1));
    assert(
      repeated.length === 0,
      `acknowledged events were delivered again: ${repeated.map(({ events, perEvent }) => `the endpoint on [${events.join(', ')}] got them ${perEvent.join(' and ')} times`).join('; ')}`,
    );
    t.detail(
      `two ${type} events, each delivered once to ${counts.map(({ events }) => `[${events.join(', ')}]`).join(' and ')}${refused.length > 0 ? `; ${refused.join('; ')}` : ''}`,
    );
  });

  check('HOOK-CONTENT-TYPE', async (t) => {
    const deliveries = await twoFiredDeliveries(t);
    const contentTypes = deliveries.map((d) => d.headers['content-type']);
    t.measure('content_types', contentTypes);
    const wrong = contentTypes.filter(
      (value) => !/^application\/([\w.-]+\+)?json$/.test((value ?? '').split(';')[0]?.trim().toLowerCase() ?? ''),
    );
    assert(
      wrong.length === 0,
      `deliveries sent with Content-Type ${wrong.map((v) => (v === undefined ? '(none)' : JSON.stringify(v))).join(', ')}; expected application/json`,
    );
    t.detail(`Content-Type ${contentTypes[0]}`);
  });

  check('HOOK-DELIVERY-POST', async (t) => {
    const deliveries = await twoFiredDeliveries(t);
    const methods = deliveries.map((d) => d.method);
    t.measure('methods', methods);
    const wrong = methods.filter((method) => method !== 'POST');
    assert(wrong.length === 0, `deliveries sent with ${wrong.join(', ')}; the receiver contract says POST`);
    t.detail(`${methods.length} deliveries, all POST`);
  });
});

/** Moves a queued (or `started`) call by hand to started, then completed, and awaits its voice.call.completed. */
async function completeByHand(
  workspace: TestWorkspace,
  hook: HookedEndpoint,
  callId: string,
  options: { started?: boolean } = {},
) {
  if (!options.started) await workspace.progressCall(callId, { state: 'started' });
  await workspace.progressCall(callId, { state: 'completed', outcome: 'answered', durationSeconds: 42 });
  return settle(
    hook.inbox,
    (ds) => ds.some(ofCall(callId, 'voice.call.completed')),
    CALL_EVENTS_TIMEOUT_MS,
    `voice.call.completed of ${callId}`,
  );
}

/** Two fired events (mailer.email.sent, workspace.plan.upgraded) delivered to a fresh endpoint. */
/**
 * Two fired events' deliveries, a retry among them where the target's time scale makes one quick:
 * a header or method is judged on every attempt, not the first alone.
 */
async function twoFiredDeliveries(t: CheckContext): Promise<readonly CapturedDelivery[]> {
  const { max_time_scale: max } = await t.capabilities();
  const scale = Math.min(QUICK_RETRY_SCALE, max);
  const retryMs = scaled(SPEC_RETRY_DELAYS_MS[0]!, scale);
  const withRetry = retryMs <= QUICK_RETRY_MS;
  const workspace = await t.workspace(withRetry ? { timeScale: scale } : {});
  const types = ['mailer.email.sent', 'workspace.plan.upgraded'] as const;
  const hook = await t.hookEndpoint(workspace, types);
  if (withRetry) hook.inbox.failFirst(1, { status: 503 });
  const ids: string[] = [];
  for (const type of types) ids.push(await workspace.fireEvent(type, firedData(type)));
  const acknowledged = (id: string) => (d: CapturedDelivery) =>
    idOf(d) === id && d.answeredStatus !== null && is2xx(d.answeredStatus);
  const { deliveries, timedOut } = await settle(
    hook.inbox,
    (ds) => ids.every((id) => ds.some(acknowledged(id))),
    DELIVERY_TIMEOUT_MS + (withRetry ? retryMs : 0),
    withRetry ? 'two fired events, one after a retry' : 'two fired events',
  );
  assert(
    !timedOut,
    `the fired events were not all acknowledged within ${DELIVERY_TIMEOUT_MS} ms${withRetry ? ` (the first delivery answered 503, its retry due ${retryMs} ms later)` : ''}; arrived: ${typeCounts(deliveries)}`,
  );
  return deliveries;
}
