/**
 * Prometheus remote write (protocol 1.0), written by hand: a WriteRequest in protobuf,
 * compressed in snappy's block format, POSTed with the protocol's headers. It is small
 * enough not to need a protobuf library (the npm packages for it bring protobufjs and its
 * dependencies along, and fetch without a time-out).
 *
 *   message WriteRequest { repeated TimeSeries timeseries = 1; }
 *   message TimeSeries   { repeated Label labels = 1; repeated Sample samples = 2; }
 *   message Label        { string name = 1; string value = 2; }
 *   message Sample       { double value = 1; int64 timestamp = 2; }   // ms since the epoch
 *
 * Encoded as Go's protobuf does (proto3: a zero scalar is left out), so that the bytes equal
 * those of Prometheus' own prompb for the same series (fixtures/vectors/prometheus-remote-write.json).
 * Snappy: the block format's literals only, which every snappy decoder reads; a payload here
 * is one sample per figure of a scenario, too small for compression to be worth its code.
 */
import { StoreError } from '../../errors.js';
import { printable } from '../../text/printable.js';

export interface TimeSeries {
  /** Label name → value, `__name__` among them; sorted by name when encoded, as the protocol requires. */
  labels: Readonly<Record<string, string>>;
  samples: ReadonlyArray<{ value: number; timestampMs: number }>;
}

class Writer {
  private readonly chunks: Uint8Array[] = [];
  private size = 0;

  bytes(bytes: Uint8Array): void {
    this.chunks.push(bytes);
    this.size += bytes.length;
  }

  varint(value: number): void {
    this.bytes(varint(value));
  }

  /** A length-delimited field (wire type 2). */
  field(number: number, payload: Uint8Array): void {
    this.varint((number << 3) | 2);
    this.varint(payload.length);
    this.bytes(payload);
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.size);
    let offset = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, offset);
      offset += chunk.length;
    }
    return out;
  }
}

/** An unsigned varint; `value` a whole number from 0 to 2^53 − 1 (timestamps in ms fit). */
export function varint(value: number): Uint8Array {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new RangeError(`varint: ${value} is not a whole number from 0 to 2^53 - 1`);
  const out: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    out.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  out.push(rest);
  return Uint8Array.from(out);
}

const utf8 = new TextEncoder();

function label(name: string, value: string): Uint8Array {
  const writer = new Writer();
  if (name !== '') writer.field(1, utf8.encode(name));
  if (value !== '') writer.field(2, utf8.encode(value));
  return writer.finish();
}

function sample(value: number, timestampMs: number): Uint8Array {
  const writer = new Writer();
  // proto3 leaves out a double whose bits are all zero (+0), not -0.
  if (!Object.is(value, 0)) {
    const double = new Uint8Array(8);
    new DataView(double.buffer).setFloat64(0, value, true);
    writer.varint((1 << 3) | 1);
    writer.bytes(double);
  }
  if (timestampMs !== 0) {
    writer.varint((2 << 3) | 0);
    writer.varint(timestampMs);
  }
  return writer.finish();
}

/** The WriteRequest of `series` in protobuf. */
export function encodeWriteRequest(series: readonly TimeSeries[]): Uint8Array {
  const request = new Writer();
  for (const one of series) {
    const writer = new Writer();
    for (const name of Object.keys(one.labels).sort()) writer.field(1, label(name, one.labels[name]!));
    for (const s of one.samples) writer.field(2, sample(s.value, s.timestampMs));
    request.field(1, writer.finish());
  }
  return request.finish();
}

/** Bytes per literal: a tag of at most two length bytes. */
const MAX_LITERAL = 0x10000;

/** `data` in snappy's block format: its length as a varint, then literals of at most 64 KiB. */
export function snappyBlock(data: Uint8Array): Uint8Array {
  const writer = new Writer();
  writer.varint(data.length);
  for (let offset = 0; offset < data.length; offset += MAX_LITERAL) {
    const chunk = data.subarray(offset, offset + MAX_LITERAL);
    const n = chunk.length - 1;
    // Tag: (length − 1) << 2 up to 59; else 60 or 61, then length − 1 in 1 or 2 bytes, little-endian.
    if (n < 60) writer.bytes(Uint8Array.of(n << 2));
    else if (n < 0x100) writer.bytes(Uint8Array.of(60 << 2, n));
    else writer.bytes(Uint8Array.of(61 << 2, n & 0xff, n >> 8));
    writer.bytes(chunk);
  }
  return writer.finish();
}

export interface RemoteWriteTarget {
  /** The write endpoint, without credentials (http://host:9090/api/v1/write). */
  url: string;
  /** Authorization and any other header the store wants. */
  headers?: Readonly<Record<string, string>>;
}

export interface WriteOptions {
  /** Per attempt. */
  timeoutMs?: number;
  attempts?: number;
  /** Before the second attempt; doubled for each one after. */
  backoffMs?: number;
}

const DEFAULTS = { timeoutMs: 10_000, attempts: 3, backoffMs: 500 };

/**
 * Sends `series` to the store. A 5xx, a 429 or no answer within the time-out is tried again
 * (the protocol's advice), at most `attempts` times in all; another answer than 2xx is a
 * StoreError naming the status and the start of what the store said.
 */
export async function remoteWrite(
  target: RemoteWriteTarget,
  series: readonly TimeSeries[],
  options: WriteOptions = {},
): Promise<void> {
  const { timeoutMs, attempts, backoffMs } = { ...DEFAULTS, ...options };
  const body = snappyBlock(encodeWriteRequest(series));
  let last = '';
  for (let attempt = 1; attempt <= attempts; attempt++) {
    if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, backoffMs * 2 ** (attempt - 2)));
    let response: Response;
    try {
      response = await fetch(target.url, {
        method: 'POST',
        redirect: 'error',
        signal: AbortSignal.timeout(timeoutMs),
        headers: {
          'Content-Type': 'application/x-protobuf',
          'Content-Encoding': 'snappy',
          'X-Prometheus-Remote-Write-Version': '0.1.0',
          'User-Agent': 'svc-harness',
          ...target.headers,
        },
        body,
      });
    } catch (error) {
      const cause = (error as Error & { cause?: Error }).cause;
      last =
        (error as Error).name === 'TimeoutError'
          ? `no answer within ${timeoutMs} ms`
          : `${(error as Error).message}${cause ? ` (${cause.message})` : ''}`;
      continue;
    }
    const text = await response.text().catch(() => '');
    if (response.ok) return;
    last = `answered ${response.status}${text ? `: ${printable(text.trim(), 300)}` : ''}`;
    if (response.status !== 429 && response.status < 500) break;
  }
  throw new StoreError(`${target.url} ${last}`);
}
