import type { FaultSet } from '../faults.js';
import type { EventType } from './event-types.js';

// The event envelope: {id, type, created_at, workspace_id, api_version, data},
// serialised once per event so that every delivery sends the same bytes.

export const API_VERSION = '2026-11-01';

export interface StoredEvent {
  id: string;
  type: EventType;
  createdAt: number;
  workspaceId: string;
  data: Record<string, unknown>;
  /** The body bytes sent and the bytes signed (equal unless a fault makes them differ); built on first delivery. */
  bodies: { sent: string; signed: string } | null;
  /** Timestamp header of the event's first attempt (fault timestamp-reused replays it). */
  firstTimestamp: string | null;
  /** Faults of the workspace when the event happened. */
  faults: FaultSet;
  /** Fault replay-signed-with-first-delivery: the signature each endpoint's first attempt carried, in order. */
  sentSignatures?: Map<string, string>;
  /** Fault signature-cached-per-event: the signature of the event's first attempt, cached with its body. */
  cachedSignature?: string;
  /** Fault replay-acknowledged-skipped: the endpoints that acknowledged the event. */
  acknowledgedBy?: Set<string>;
  /** Fault replay-once-per-endpoint: the endpoints a replay of the event was queued for. */
  replayedTo?: Set<string>;
  /** Fault replay-workspace-id-missing: the envelope of a replay, rebuilt without the workspace. */
  rebuiltForReplay?: boolean;
  /** Fault replay-stamp-cached-per-endpoint: the timestamp and signature of the first replay to each endpoint. */
  replayStamps?: Map<string, { timestamp: string; signature: string }>;
}

function createdAtText(createdAt: number, faults: FaultSet): string {
  // Fault created-at-no-zone: a timestamp-without-time-zone column, read back as text.
  if (faults.has('created-at-no-zone')) return new Date(createdAt).toISOString().slice(0, 19);
  if (!faults.has('created-at-offset')) return new Date(createdAt).toISOString();
  // The same instant written in +01:00 local time instead of UTC.
  return new Date(createdAt + 3_600_000).toISOString().replace('Z', '+01:00');
}

/** Fault mailer-envelope-workspace-id-cached: the workspace id of the first mailer event, process-wide. */
let firstMailerWorkspaceId: string | undefined;

export function buildEnvelope(event: StoredEvent): Record<string, unknown> {
  const { faults } = event;
  const envelope: Record<string, unknown> = {
    id: event.id,
    type: event.type,
    // Fault created-at-epoch-seconds: the timestamp column is serialised as epoch seconds.
    created_at: faults.has('created-at-epoch-seconds')
      ? Math.floor(event.createdAt / 1000)
      : createdAtText(event.createdAt, faults),
  };
  // Fault replay-workspace-id-missing: the replay's envelope is rebuilt from a row without the workspace.
  // Stryker disable next-line LogicalOperator: equivalent: rebuiltForReplay is set only under replay-workspace-id-missing
  if (!faults.has('envelope-missing-workspace') && !event.rebuiltForReplay)
    // Fault envelope-workspace-id-unprefixed: the database key, not the public ws_ id.
    envelope.workspace_id = faults.has('envelope-workspace-id-unprefixed')
      ? event.workspaceId.replace(/^ws_/, '')
      : // Fault mailer-envelope-workspace-id-cached: mailer envelopes read the workspace from a process-wide memo.
        faults.has('mailer-envelope-workspace-id-cached') && event.type.startsWith('mailer.')
        ? (firstMailerWorkspaceId ??= event.workspaceId)
        : event.workspaceId;
  envelope.api_version = faults.has('api-version-not-date')
    ? 'v1'
    : // Fault api-version-datetime: the version is a date column serialised as a full timestamp.
      faults.has('api-version-datetime')
      ? new Date(API_VERSION).toISOString()
      : API_VERSION;
  envelope.data = event.data;
  // Fault envelope-data-id-hoisted: a flattening step meant for the call id lifts a string id member of the data over the envelope's id.
  if (faults.has('envelope-data-id-hoisted') && typeof event.data?.['id'] === 'string') envelope.id = event.data['id'];
  return envelope;
}

export function eventBodies(event: StoredEvent): { sent: string; signed: string } {
  if (event.bodies) return event.bodies;
  const envelope = buildEnvelope(event);
  const compact = JSON.stringify(envelope);
  // Fault sign-reserialized: pretty-printed on the wire, signed in compact form.
  const sent = event.faults.has('sign-reserialized')
    ? JSON.stringify(envelope, null, 2)
    : // Fault body-ascii-escaped-signed-utf8: the wire encoder escapes non-ASCII; the signer was given the UTF-8 text.
      event.faults.has('body-ascii-escaped-signed-utf8')
      ? compact.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
      : compact;
  event.bodies = { sent, signed: compact };
  return event.bodies;
}
