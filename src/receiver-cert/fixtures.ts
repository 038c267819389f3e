/** Delivery bodies the receiver certification sends, from fixtures/receiver-cert/ (data, not code). */
import { CatalogError } from '../errors.js';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Reserializer } from './reserialize.js';

const FIXTURES = new URL('../../fixtures/receiver-cert/', import.meta.url);

interface EventTypesFile {
  workspace_id: string;
  api_version: string;
  events: Array<{ type: string; data: Record<string, unknown> }>;
}

export interface RawBodyFixture {
  name: string;
  why: string;
  /** UTF-8 text with `placeholder` where the event id goes. */
  body: string;
  /** Round trips that change these bytes. */
  breaks: Reserializer[];
}

interface RawBodiesFile {
  placeholder: string;
  bodies: RawBodyFixture[];
}

function readJson<T>(name: string): T {
  return JSON.parse(readFileSync(fileURLToPath(new URL(name, FIXTURES)), 'utf8')) as T;
}

const eventTypes = readJson<EventTypesFile>('event-types.json');
const rawBodies = readJson<RawBodiesFile>('raw-bodies.json');

/** The eight event types of Events > Event types, in the fixture's order. */
export const EVENT_TYPES: readonly string[] = eventTypes.events.map((event) => event.type);

export const RAW_BODY_FIXTURES: readonly RawBodyFixture[] = rawBodies.bodies;

/** A fresh event id: every delivery of the run is a new event unless it is a replay on purpose. */
export function freshEventId(): string {
  return `evt_rcv${randomBytes(9).toString('hex')}`;
}

/** A compact envelope of `type` (default voice.call.completed) with a fresh or given id. */
export function envelopeBody(
  type = 'voice.call.completed',
  id = freshEventId(),
): { id: string; body: string; envelope: Record<string, unknown> } {
  const event = eventTypes.events.find((candidate) => candidate.type === type);
  if (event === undefined) throw new CatalogError(`no event type ${type} in fixtures/receiver-cert/event-types.json`);
  const envelope = {
    id,
    type,
    created_at: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    workspace_id: eventTypes.workspace_id,
    api_version: eventTypes.api_version,
    data: event.data,
  };
  return { id, body: JSON.stringify(envelope), envelope };
}

/** A raw-body fixture with a fresh id in place of the placeholder, bytes otherwise untouched. */
export function rawBody(fixture: RawBodyFixture, id = freshEventId()): { id: string; body: string } {
  return { id, body: fixture.body.split(rawBodies.placeholder).join(id) };
}
