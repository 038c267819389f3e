import type { IncomingHttpHeaders } from 'node:http';
import {
  checkTimestamp,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  verifySignature,
  type SignatureVerdict,
  type SigningKey,
  type TimestampVerdict,
} from '../signing/index.js';
import { validateEnvelope, type EnvelopeVerdict } from './envelope.js';
import type { DeliveryVerdicts } from './types.js';
import { isObject } from '../json/shape.js';

/**
 * The verdicts of one delivery. `json` is the tree of the first pass: the receiver keeps its
 * deliveries as bytes (delivery-log.ts), so the tree lives only as long as the delivery is
 * being answered or read, and a load run's tally reads it without parsing the body again.
 * `envelope` is validated on first read (schema validation was the largest cost of a
 * delivery beyond what a minimal verifier does, and a load run never reads it).
 */
class Verdicts implements DeliveryVerdicts {
  eventId?: string;
  eventType?: string;
  duplicate = false;
  readonly #json: { value: unknown } | undefined;
  #envelope: EnvelopeVerdict | undefined;

  constructor(
    readonly signature: SignatureVerdict | 'no-secret',
    readonly timestamp: TimestampVerdict,
    parsed: { value: unknown } | { notJson: string },
  ) {
    if ('notJson' in parsed) this.#envelope = { valid: false, errors: [`body is not JSON: ${parsed.notJson}`] };
    else this.#json = parsed;
  }

  /** The parsed body, or undefined when it is not JSON. For inspection only; never used to verify. */
  get json(): unknown {
    return this.#json?.value;
  }

  /** The body against fixtures/schemas/envelope.schema.json, validated on first read. */
  get envelope(): EnvelopeVerdict {
    this.#envelope ??= validateEnvelope(this.json);
    return this.#envelope;
  }

  /** Plain-object view for JSON.stringify and reports, json included. */
  toJSON(): DeliveryVerdicts {
    return {
      signature: this.signature,
      timestamp: this.timestamp,
      envelope: this.envelope,
      eventId: this.eventId,
      eventType: this.eventType,
      duplicate: this.duplicate,
      json: this.json,
    };
  }
}

/**
 * Everything the receiver can say about a delivery on its own, from the raw bytes as
 * received (the signature is never checked over a re-serialised body). `duplicate` needs
 * the endpoint's seen event ids, so the caller fills it in.
 */
export function judgeDelivery(
  rawBody: Buffer,
  headers: IncomingHttpHeaders,
  secret: string | SigningKey | undefined,
  receivedAtMs: number,
  toleranceSeconds: number,
): DeliveryVerdicts {
  const signature =
    secret === undefined ? 'no-secret' : verifySignature(secret, rawBody, single(headers[SIGNATURE_HEADER]));
  const timestamp = checkTimestamp(single(headers[TIMESTAMP_HEADER]), receivedAtMs / 1000, toleranceSeconds);
  return verdictsOf(rawBody, signature, timestamp);
}

/**
 * The verdicts of a delivery kept as bytes (delivery-log.ts), from its body and the
 * verdicts judgeDelivery reached on arrival: the event id and type are read again from
 * the same bytes, so they are what they were.
 */
export function rebuildVerdicts(
  rawBody: Buffer,
  signature: SignatureVerdict | 'no-secret',
  timestamp: TimestampVerdict,
  duplicate: boolean,
): DeliveryVerdicts {
  const verdicts = verdictsOf(rawBody, signature, timestamp);
  verdicts.duplicate = duplicate;
  return verdicts;
}

function verdictsOf(rawBody: Buffer, signature: SignatureVerdict | 'no-secret', timestamp: TimestampVerdict): Verdicts {
  const parsed = parseJson(rawBody);
  if (parsed.error !== undefined) return new Verdicts(signature, timestamp, { notJson: parsed.error });
  const json = parsed.value;
  const verdicts = new Verdicts(signature, timestamp, parsed);
  if (isObject(json)) {
    if (typeof json['id'] === 'string') verdicts.eventId = json['id'];
    if (typeof json['type'] === 'string') verdicts.eventType = json['type'];
  }
  return verdicts;
}

/** Node joins repeated custom headers with ", "; a string[] only arises for set-cookie. */
function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

function parseJson(rawBody: Buffer): { value: unknown; error?: undefined } | { value: undefined; error: string } {
  try {
    return { value: JSON.parse(rawBody.toString('utf8')) as unknown };
  } catch (error) {
    return { value: undefined, error: (error as Error).message };
  }
}
