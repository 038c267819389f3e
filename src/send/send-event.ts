/**
 * `svc-harness send`: one signed, well-formed event to a receiver under development, as the
 * service would deliver it (the envelope of fixtures/receiver-cert/event-types.json, signed by
 * src/signing/ through the receiver certification's sender), or a replay of an event id with
 * a fresh signature and timestamp; the timestamp may be moved by hand to try the 300 s window.
 * What the receiver answers is data: its status, and a bounded, printable excerpt of its body.
 */
import type { ReceiverCertSettings } from '../config/receiver-settings.js';
import { UsageError } from '../errors.js';
import { EVENT_TYPES, envelopeBody } from '../receiver-cert/fixtures.js';
import { DeliverySender, describeAnswer, unixSeconds, type Exchange } from '../receiver-cert/sender.js';
import { mask } from '../secrets/mask.js';
import { printable } from '../text/printable.js';

/** Most characters of the receiver's body shown: enough for an error message, never a flood. */
export const SHOWN_BODY_CHARS = 500;
/** A timestamp moved by more than a day tries nothing the window does not refuse already. */
const MAX_OFFSET_SECONDS = 86_400;

export interface SendRequest {
  eventType: string;
  /** An event id to deliver again; default a fresh one. */
  replayId?: string | undefined;
  /** Seconds added to the timestamp header (negative: in the past). */
  timestampOffsetSeconds: number;
}

export interface SendOutcome {
  eventId: string;
  timestamp: string;
  exchange: Exchange;
}

export function parseEventType(given: string): string {
  if (EVENT_TYPES.includes(given)) return given;
  throw new UsageError(`unknown event type ${JSON.stringify(printable(given, 80))}; one of: ${EVENT_TYPES.join(', ')}`);
}

export function parseReplayId(given: string): string {
  if (/^evt_[A-Za-z0-9_]{1,120}$/.test(given)) return given;
  throw new UsageError(
    `--replay takes an event id such as evt_rcv0a1b2c (evt_ and letters, digits or _), got ${JSON.stringify(printable(given, 80))}`,
  );
}

export function parseTimestampOffset(given: string): number {
  if (!/^[+-]?\d+$/.test(given) || Math.abs(Number(given)) > MAX_OFFSET_SECONDS) {
    throw new UsageError(
      `--timestamp-offset takes whole seconds from -${MAX_OFFSET_SECONDS} to ${MAX_OFFSET_SECONDS} (a negative one as --timestamp-offset=-301), got ${JSON.stringify(printable(given, 80))}`,
    );
  }
  return Number(given);
}

/** Sends the one delivery; the request's time-out and TLS options are the receiver certification's settings. */
export async function sendEvent(settings: ReceiverCertSettings, request: SendRequest): Promise<SendOutcome> {
  const sender = new DeliverySender({
    ...settings,
    countUrl: undefined,
    rate: 1,
    maxRequests: 1,
    deadlineMs: Infinity,
  });
  const { id, body } = envelopeBody(request.eventType, request.replayId);
  let timestamp = '';
  try {
    const exchange = await sender.deliver({
      purpose: 'valid',
      label: request.replayId ? 'replay' : 'event',
      body,
      timestamp: (nowMs) => (timestamp = unixSeconds(nowMs + request.timestampOffsetSeconds * 1000)),
    });
    return { eventId: id, timestamp, exchange };
  } finally {
    await sender.close();
  }
}

/** The lines a person reads: what was sent, and what came back. Masked: a receiver may echo the secret. */
export function describeOutcome(
  settings: Pick<ReceiverCertSettings, 'url'>,
  request: SendRequest,
  outcome: SendOutcome,
): string[] {
  const offset = request.timestampOffsetSeconds;
  const lines = [
    `sent ${request.replayId ? 'a replay of ' : ''}${request.eventType} ${outcome.eventId} to ${settings.url}, timestamp ${outcome.timestamp}${offset === 0 ? '' : ` (${offset > 0 ? '+' : ''}${offset} s from now)`}`,
  ];
  const { exchange } = outcome;
  lines.push(
    `answer: ${describeAnswer(exchange)}${exchange.status === null ? '' : ` in ${Math.round(exchange.durationMs)} ms`}`,
  );
  const contentType = exchange.headers['content-type'];
  if (exchange.text !== '')
    lines.push(
      `body${contentType ? ` (${printable(contentType, 100)})` : ''}: ${printable(exchange.text, SHOWN_BODY_CHARS)}`,
    );
  return lines.map(mask);
}
