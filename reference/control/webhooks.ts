import { createHmac } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { STORE_ROUND_TRIP_MS } from '../auth/tokens.js';
import { unionFaults, type FaultSet } from '../faults.js';
import type { Endpoint } from '../webhooks/endpoints.js';
import { EVENT_TYPES } from '../webhooks/event-types.js';
import { racySequenceId } from '../racy-sequence.js';
import { NO_WORKSPACE, invalid, refuse, workspaceOf, type ControlHandler, type ControlRequest } from './reply.js';

// The dashboard's webhook page: endpoints, fired events, replays.

const endpointSchema = z.object({
  url: z.string().min(1),
  events: z.array(z.string()).default(['*']),
});

export const createEndpoint: ControlHandler = async (request) => {
  const workspace = workspaceOf(request);
  if (!workspace) return NO_WORKSPACE;
  const parsed = endpointSchema.safeParse(request.body);
  if (!parsed.success) return invalid(parsed.error.issues);
  const faults = unionFaults(request.faults, workspace.faults);
  const registry = request.app.endpoints;
  const checkThenInsert = faults.has('endpoint-limit-check-then-insert');
  if (checkThenInsert) {
    const refusal = registry.limitRefusal(workspace, faults);
    if (refusal) return refuse(refusal.status, refusal.code, refusal.message);
    await sleep(STORE_ROUND_TRIP_MS);
  }
  // Fault endpoint-secret-from-count: the secret derived from the workspace and its endpoint
  // count, read before a store round trip; endpoints created at once read the same count.
  const derivedSecret = faults.has('endpoint-secret-from-count')
    ? await secretFromCount(workspace.id, registry.createdCount(workspace.id))
    : undefined;
  // Fault empty-events-all: an empty list taken for "no filter".
  const events = parsed.data.events.length === 0 && faults.has('empty-events-all') ? ['*'] : parsed.data.events;
  const created = registry.create(workspace, parsed.data.url, events, faults, {
    limitChecked: checkThenInsert,
    emptyEventsAccepted: request.app.personality.emptyEventsAccepted,
    ...(derivedSecret ? { secret: derivedSecret } : {}),
  });
  if (!created.ok) return refuse(created.status, created.code, created.message);
  const { endpoint } = created;
  // Fault endpoint-create-lifts-suspension: the webhook page saves the workspace row with its new endpoint, suspended taken from the form's default.
  if (faults.has('endpoint-create-lifts-suspension')) workspace.suspended = false;
  // Fault endpoint-create-state-missing: the creation answer is built without the state.
  if (faults.has('endpoint-create-state-missing'))
    return { status: 201, body: { endpoint_id: endpoint.id, secret: endpoint.secret } };
  return { status: 201, body: { endpoint_id: endpoint.id, secret: endpoint.secret, state: endpoint.health.state } };
};

async function secretFromCount(workspaceId: string, count: number): Promise<string> {
  await sleep(STORE_ROUND_TRIP_MS);
  return (
    'whsec_' +
    createHmac('sha256', 'reference-fault-seed').update(`${workspaceId}:${count}`).digest('base64').slice(0, 32)
  );
}

function endpointOf(request: ControlRequest) {
  return request.app.endpoints.get(request.params.ws ?? '', request.params.endpoint ?? '');
}

const NO_ENDPOINT = refuse(404, 'endpoint_not_found', 'no such webhook endpoint');

/** Fault endpoint-deleted-reads-disabled: the rows a deletion only marked, by workspace and endpoint id. */
const softDeleted = new Map<string, Endpoint>();

export const getEndpoint: ControlHandler = (request) => {
  const workspace = workspaceOf(request);
  if (!workspace) return NO_WORKSPACE;
  const endpoint = endpointOf(request);
  const marked = softDeleted.get(`${workspace.id}/${request.params.endpoint ?? ''}`);
  // Fault endpoint-deleted-reads-disabled: the page reads the marked row, shown as disabled.
  if (!endpoint && marked && unionFaults(request.faults, workspace.faults).has('endpoint-deleted-reads-disabled'))
    return {
      status: 200,
      body: { endpoint_id: marked.id, url: marked.urlText, events: marked.events, state: 'disabled', flagged: false },
    };
  const faults = unionFaults(request.faults, workspace.faults);
  // Fault endpoint-read-any-workspace: the page's query finds the endpoint by its id alone.
  const shown =
    endpoint ??
    (faults.has('endpoint-read-any-workspace')
      ? request.app.endpoints.getAnywhere(request.params.endpoint ?? '', 'endpoint-read-any-workspace')
      : undefined);
  if (!shown) return NO_ENDPOINT;
  return { status: 200, body: endpointPage(shown, faults) };
};

function endpointPage(endpoint: Endpoint, faults: FaultSet): Record<string, unknown> {
  const page: Record<string, unknown> = {
    endpoint_id: endpoint.id,
    // Fault endpoint-url-read-normalised: the page shows the URL as the URL parser writes it back (new URL(url).href), a default :443 dropped.
    url: faults.has('endpoint-url-read-normalised')
      ? new URL(endpoint.urlText).href
      : // Fault endpoint-url-read-port-dropped: the URL rebuilt from protocol, hostname and path.
        faults.has('endpoint-url-read-port-dropped')
        ? portDropped(endpoint.urlText)
        : endpoint.urlText,
    // Fault endpoint-wildcard-read-expanded: the page shows the subscription resolved to the types it matches.
    // Fault endpoint-events-read-first-only: the page reads a legacy single-type column.
    events:
      endpoint.events.includes('*') && faults.has('endpoint-wildcard-read-expanded')
        ? [...EVENT_TYPES]
        : faults.has('endpoint-events-read-first-only')
          ? endpoint.events.slice(0, 1)
          : endpoint.events,
    // Fault endpoint-state-read-uppercase: the page shows the state as the database enum's label.
    state: faults.has('endpoint-state-read-uppercase') ? endpoint.health.state.toUpperCase() : endpoint.health.state,
    flagged: endpoint.health.flagged,
  };
  // Fault endpoint-flagged-omitted-when-false: the serialiser skips false booleans.
  if (faults.has('endpoint-flagged-omitted-when-false') && page.flagged === false) delete page.flagged;
  return page;
}

export const enableEndpoint: ControlHandler = (request) => {
  const workspace = workspaceOf(request);
  if (!workspace) return NO_WORKSPACE;
  const faults = unionFaults(request.faults, workspace.faults);
  // Fault enable-revives-deleted: the re-enable's update also finds a deleted endpoint's row.
  const endpoint =
    endpointOf(request) ??
    (faults.has('enable-revives-deleted')
      ? request.app.endpoints.revive(workspace.id, request.params.endpoint ?? '')
      : undefined);
  if (!endpoint) return NO_ENDPOINT;
  request.app.endpoints.enable(endpoint, faults);
  // Fault enable-enables-all: the re-enable is applied to the workspace's endpoints, not to the one named.
  if (faults.has('enable-enables-all'))
    for (const other of request.app.endpoints.allOf(workspace.id)) request.app.endpoints.enable(other, faults);
  return { status: 204 };
};

export const deleteEndpoint: ControlHandler = (request) => {
  const workspace = workspaceOf(request);
  if (!workspace) return NO_WORKSPACE;
  const faults = unionFaults(request.faults, workspace.faults);
  const endpointId = request.params.endpoint ?? '';
  // Fault control-ids-any-workspace: the endpoint found by its id alone, in whichever workspace holds it.
  const elsewhere =
    faults.has('control-ids-any-workspace') && !request.app.endpoints.get(workspace.id, endpointId)
      ? request.app.endpoints.ownerOf(endpointId, 'control-ids-any-workspace')
      : undefined;
  const deleting = request.app.endpoints.get(workspace.id, endpointId);
  if (!request.app.endpoints.delete(elsewhere ?? workspace.id, endpointId, faults)) return NO_ENDPOINT;
  if (deleting && faults.has('endpoint-deleted-reads-disabled'))
    softDeleted.set(`${workspace.id}/${endpointId}`, deleting);
  // Fault endpoint-delete-answered-200: the deletion answers 200 with a body.
  if (faults.has('endpoint-delete-answered-200')) return { status: 200, body: { deleted: true } };
  return { status: 204 };
};

const eventSchema = z.object({
  type: z.enum(EVENT_TYPES),
  data: z.record(z.string(), z.unknown()).default({}),
});
/** Fault fire-unknown-type-delivered: the type checked by its shape, a dotted name, not against the list. */
const looseEventSchema = z.object({
  type: z.string().regex(/^[a-z]+(\.[a-z_]+)+$/),
  data: z.record(z.string(), z.unknown()).default({}),
});
/** Fault fired-data-dates-revived: a date-time string, as a JSON reviver recognises one. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Fault fire-dedupe-by-payload: the events fired lately, by workspace, type and data. */
const firedPayloads = new Map<string, { id: string; at: number }>();
const PAYLOAD_DEDUPE_MS = 60_000;
/** Fault fired-data-first-of-type: the first data fired, by workspace and type. */
const firstDataOfType = new Map<string, Record<string, unknown>>();

export const fireEvent: ControlHandler = async (request) => {
  const workspace = workspaceOf(request);
  if (!workspace) return NO_WORKSPACE;
  const faults = unionFaults(request.faults, workspace.faults);
  const parsed = (faults.has('fire-unknown-type-delivered') ? looseEventSchema : eventSchema).safeParse(
    request.body,
  ) as ReturnType<typeof eventSchema.safeParse>;
  if (!parsed.success) return invalid(parsed.error.issues);
  const id = faults.has('event-id-sequence-race') ? await racySequenceId(workspace, 'evt_') : undefined;
  // Fault fired-data-compacted: the data goes through a "clean payload" step that drops nulls and empty objects.
  let data = faults.has('fired-data-compacted') ? compacted(parsed.data.data) : parsed.data.data;
  // Fault fired-data-empty-string-null: the data's top-level empty strings stored as NULL.
  if (faults.has('fired-data-empty-string-null'))
    data = Object.fromEntries(Object.entries(data).map(([key, value]) => [key, value === '' ? null : value]));
  // Fault fired-data-depth-capped: the data is serialised as util.inspect would, two levels deep.
  if (faults.has('fired-data-depth-capped')) data = depthCapped(data, 0) as Record<string, unknown>;
  // Fault fired-data-strings-trimmed: the payload goes through the form clean-up that trims every string.
  if (faults.has('fired-data-strings-trimmed')) data = stringsTrimmed(data) as Record<string, unknown>;
  // Fault fired-data-single-item-arrays-unwrapped: the payload goes through an XML-style mapper that collapses one-item lists.
  if (faults.has('fired-data-single-item-arrays-unwrapped')) data = arraysUnwrapped(data) as Record<string, unknown>;
  // Fault fired-data-nfc-normalised: the payload's strings are normalised (NFC) on their way into the store.
  if (faults.has('fired-data-nfc-normalised')) data = nfcNormalised(data) as Record<string, unknown>;
  // Fault fired-data-floats-2dp: the data's numbers stored in a NUMERIC(12,2) column.
  if (faults.has('fired-data-floats-2dp')) data = twoDecimals(data) as Record<string, unknown>;
  // Fault fired-data-dates-revived: the data is parsed with a date reviver and written back with toISOString.
  if (faults.has('fired-data-dates-revived')) data = datesRevived(data) as Record<string, unknown>;
  // Fault fired-data-integers-int32: the data's top-level integers go through an int32 column (x | 0).
  if (faults.has('fired-data-integers-int32'))
    data = Object.fromEntries(
      Object.entries(data).map(([key, value]) => [key, Number.isInteger(value) ? (value as number) | 0 : value]),
    );
  // Fault fired-data-false-dropped: a truthiness filter meant for nulls drops the false members too.
  if (faults.has('fired-data-false-dropped'))
    data = Object.fromEntries(Object.entries(data).filter(([, value]) => value !== false));
  // Fault reply-body-html-escaped: a reply's payload goes through the dashboard's HTML sanitiser.
  if (faults.has('reply-body-html-escaped') && parsed.data.type === 'mailer.reply.received')
    data = htmlEscapedStrings(data) as Record<string, unknown>;
  // Fault fired-data-omitted-null: a data member left out is read as null, not defaulted to {}.
  const omitted = (request.body as { data?: unknown } | null)?.data === undefined;
  if (omitted && faults.has('fired-data-omitted-null')) data = null as unknown as Record<string, unknown>;
  // Fault fire-dedupe-by-payload: an idempotency key hashed from the type and data, kept 60 s.
  // Fault fired-data-first-of-type: the payload template cached per workspace and type outlives its first use.
  if (faults.has('fired-data-first-of-type')) {
    const typeKey = `${workspace.id} ${parsed.data.type}`;
    const cached = firstDataOfType.get(typeKey);
    if (cached) data = cached;
    else firstDataOfType.set(typeKey, data);
  }
  const payloadKey = `${workspace.id} ${parsed.data.type} ${JSON.stringify(data)}`;
  const now = request.app.config.clock.now();
  const recent = faults.has('fire-dedupe-by-payload') ? firedPayloads.get(payloadKey) : undefined;
  if (recent && now - recent.at < PAYLOAD_DEDUPE_MS) return { status: 201, body: { event_id: recent.id } };
  const event = request.app.dispatcher.publish(workspace, parsed.data.type, data, id);
  if (faults.has('fire-dedupe-by-payload')) firedPayloads.set(payloadKey, { id: event.id, at: now });
  // Fault fire-event-id-mismatch: the answer's id is minted apart from the event's.
  if (faults.has('fire-event-id-mismatch'))
    return { status: 201, body: { event_id: request.app.personality.newId('evt_') } };
  // Fault fire-answered-200: the fire answers 200, not 201.
  return { status: faults.has('fire-answered-200') ? 200 : 201, body: { event_id: event.id } };
};

const replaySchema = z.object({ event_id: z.string().min(1), endpoint_id: z.string().min(1) });

export const replayDelivery: ControlHandler = (request) => {
  const workspace = workspaceOf(request);
  if (!workspace) return NO_WORKSPACE;
  const parsed = replaySchema.safeParse(request.body);
  if (!parsed.success) return invalid(parsed.error.issues);
  switch (request.app.dispatcher.replay(workspace, parsed.data.event_id, parsed.data.endpoint_id)) {
    case 'accepted':
      // Fault replay-answered-200: the replay is sent inline by the handler and answered 200, not 202.
      return { status: unionFaults(request.faults, workspace.faults).has('replay-answered-200') ? 200 : 202 };
    case 'unknown_event':
      return refuse(404, 'event_not_found', 'no such event in this workspace');
    case 'unknown_endpoint':
      return NO_ENDPOINT;
    case 'endpoint_disabled':
      // Either answer keeps "no further deliveries to it": the alternate takes the replay and drops it.
      if (request.app.personality.replayToDisabledAccepted) return { status: 202 };
      return refuse(409, 'endpoint_disabled', 'the endpoint is disabled; enable it first');
  }
};

/** `value` with its date-time strings re-serialised through Date (fault fired-data-dates-revived). */
function datesRevived(value: unknown): unknown {
  if (typeof value === 'string' && DATE_TIME.test(value)) {
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? value : date.toISOString();
  }
  if (Array.isArray(value)) return value.map(datesRevived);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, datesRevived(inner)]));
  return value;
}

/** `value` without nulls and empty objects, at every depth (fault fired-data-compacted). */
function compacted<T>(value: T): T {
  if (Array.isArray(value)) return value.filter((item) => item !== null).map(compacted) as T;
  if (value === null || typeof value !== 'object') return value;
  const kept = Object.entries(value)
    .filter(([, item]) => item !== null)
    .map(([key, item]) => [key, compacted(item)] as const)
    .filter(
      ([, item]) =>
        !(typeof item === 'object' && item !== null && !Array.isArray(item) && Object.keys(item).length === 0),
    );
  return Object.fromEntries(kept) as T;
}

/** Fault fired-data-strings-trimmed: every string at every depth without its leading and trailing white space. */
function stringsTrimmed(value: unknown): unknown {
  if (typeof value === 'string') return value.trim();
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(stringsTrimmed);
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, stringsTrimmed(item)]));
}

/** Fault fired-data-nfc-normalised: every string at every depth, keys too, in Unicode normal form C. */
function nfcNormalised(value: unknown): unknown {
  if (typeof value === 'string') return value.normalize('NFC');
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(nfcNormalised);
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key.normalize('NFC'), nfcNormalised(item)]));
}

/** Fault fired-data-single-item-arrays-unwrapped: every one-item array at every depth replaced by its item. */
function arraysUnwrapped(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.length === 1 ? arraysUnwrapped(value[0]) : value.map(arraysUnwrapped);
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, arraysUnwrapped(item)]));
}

/** Fault fired-data-floats-2dp: every number at every depth rounded to two decimals. */
function twoDecimals(value: unknown): unknown {
  if (typeof value === 'number') return Math.round(value * 100) / 100;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(twoDecimals);
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, twoDecimals(item)]));
}

/** Fault fired-data-depth-capped: objects nested past depth 2 replaced by "[Object]" (util.inspect's default). */
function depthCapped(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth > 2) return Array.isArray(value) ? '[Array]' : '[Object]';
  if (Array.isArray(value)) return value.map((item) => depthCapped(item, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, depthCapped(item, depth + 1)]));
}

/** Fault endpoint-url-read-port-dropped: protocol, hostname and path of `url`, without its port or query. */
function portDropped(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.hostname}${parsed.pathname}`;
}

/** Fault reply-body-html-escaped: every string at every depth with &, <, >, " and ' as HTML entities. */
function htmlEscapedStrings(value: unknown): unknown {
  if (typeof value === 'string')
    return value
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&#39;');
  if (Array.isArray(value)) return value.map(htmlEscapedStrings);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, htmlEscapedStrings(v)]));
  return value;
}
