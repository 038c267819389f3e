/**
 * The envelope rules (Events > Envelope) as plain checks, each problem one short phrase.
 * They say the same as fixtures/schemas/envelope.schema.json, plus what a schema cannot:
 * the workspace id is this workspace's, the date is a real date, created_at is near now.
 */
import { EVENT_TYPES } from '../../control/types.js';
import { ID_PATTERNS } from '../../ids.js';
import type { CapturedDelivery } from '../../capturing-receiver/types.js';
import { isObject } from '../../json/shape.js';

const ISO_UTC = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]00:00)$/;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
/** created_at further than this from the arrival time is a wrong clock or time zone. */
const CREATED_AT_WINDOW_MS = 10 * 60_000;

export function isRealDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Milliseconds of an ISO 8601 UTC timestamp (Z or +00:00), or undefined when it is not one. */
export function parseIsoUtc(text: unknown): number | undefined {
  if (typeof text !== 'string') return undefined;
  const match = ISO_UTC.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (!isRealDate(year, month, day) || hour > 23 || minute > 59 || second > 60) return undefined;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : undefined;
}

/** Problems of one delivery's envelope; empty when it follows every rule. */
export function envelopeProblems(delivery: CapturedDelivery, workspaceId: string): string[] {
  const json = delivery.verdicts.json;
  if (!isObject(json)) return [json === undefined ? 'body is not JSON' : 'body is not a JSON object'];
  const problems: string[] = [];
  const { id, type, created_at: createdAt, workspace_id: ws, api_version: apiVersion, data } = json;
  if (typeof id !== 'string' || !ID_PATTERNS.event.test(id)) problems.push(`id ${JSON.stringify(id)} is not evt_<id>`);
  if (typeof type !== 'string' || !(EVENT_TYPES as readonly string[]).includes(type))
    problems.push(`type ${JSON.stringify(type)} is not one of the eight event types`);
  const createdMs = parseIsoUtc(createdAt);
  if (createdMs === undefined)
    problems.push(`created_at ${JSON.stringify(createdAt)} is not an ISO 8601 UTC timestamp`);
  else if (Math.abs(createdMs - delivery.receivedAtMs) > CREATED_AT_WINDOW_MS) {
    problems.push(
      `created_at ${String(createdAt)} is ${Math.round((createdMs - delivery.receivedAtMs) / 60_000)} min from the arrival time`,
    );
  }
  if (ws === undefined) problems.push('workspace_id is missing');
  else if (typeof ws !== 'string' || !ID_PATTERNS.workspace.test(ws))
    problems.push(`workspace_id ${JSON.stringify(ws)} is not ws_<id>`);
  else if (ws !== workspaceId) problems.push(`workspace_id ${ws} is not the workspace's ${workspaceId}`);
  const date = typeof apiVersion === 'string' ? DATE_ONLY.exec(apiVersion) : null;
  if (!date) problems.push(`api_version ${JSON.stringify(apiVersion)} is not YYYY-MM-DD`);
  else if (!isRealDate(Number(date[1]), Number(date[2]), Number(date[3])))
    problems.push(`api_version ${String(apiVersion)} is not a real date`);
  if (!isObject(data))
    problems.push(`data is ${data === null ? 'null' : Array.isArray(data) ? 'an array' : typeof data}, not an object`);
  // The schema says the same about the fields (test/capturing-receiver/envelope.test.ts holds the two
  // to one verdict) and also checks voice.call.completed's data, which these rules leave to it.
  if (!delivery.verdicts.envelope.valid && problems.length === 0)
    problems.push(...delivery.verdicts.envelope.errors.map((error) => `schema: ${error}`));
  return problems;
}
