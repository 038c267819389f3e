/**
 * The fan-out's arrivals as a file, for runs whose runners are elsewhere (a k6-operator
 * TestRun): `svc-harness load fanout-host` records every arrival at its receivers while the
 * runners run, and `svc-harness load merge fanout` replays them into a tally beside the
 * runners' samples, which name the calls placed. One JSON object a line: a header naming
 * the endpoints, the arrivals, and a last line with the receivers' counters.
 * What the service sent is untrusted: each text is cut to a bound before it is written, and
 * a reader takes only the fields and types it knows.
 */
import { closeSync, createReadStream, createWriteStream, openSync, readSync, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { SamplesError } from '../../errors.js';
import type { ReceiverStats } from '../../capturing-receiver/index.js';
import type { Arrival } from './tally.js';

export const ARRIVALS_KIND = 'svc-harness/fanout-arrivals';
const VERSION = 1;
/** Event types, call ids and endpoint names longer than this are cut (ours are under 64). */
const MAX_TEXT = 200;
/** Arrivals buffered for a disk that cannot keep up, past which they are counted as dropped. */
const MAX_BUFFERED_BYTES = 32 * 1024 * 1024;

/** The receivers' counters the verdict reads (a recording keeps all of them). */
type ReceiverCounters = Pick<ReceiverStats, 'clientClosed'>;

/** The last line: arrivals the host could not write, and the receivers' counters. */
export interface RecordingEnd {
  dropped: number;
  receiver?: ReceiverCounters;
}

interface Header {
  kind: typeof ARRIVALS_KIND;
  version: number;
  endpoints: string[];
}

/** What a recording holds once read back. */
export interface RecordedArrivals {
  endpoints: string[];
  arrivals: AsyncIterable<Arrival>;
  /** Read once `arrivals` has been iterated to its end. */
  ending(): RecordingEnd;
}

/** A text the service sent, cut to MAX_TEXT; undefined for anything not a string (the writer's and the reader's one bound). */
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value.slice(0, MAX_TEXT) : undefined);

export class ArrivalRecorder {
  readonly #out: WriteStream;
  #dropped = 0;
  #recorded = 0;

  private constructor(out: WriteStream) {
    this.#out = out;
  }

  /** Opens `path` (replacing it) for the arrivals at `endpoints`. */
  static async open(path: string, endpoints: readonly string[]): Promise<ArrivalRecorder> {
    const out = createWriteStream(path, { mode: 0o600 });
    await once(out, 'open');
    const header: Header = { kind: ARRIVALS_KIND, version: VERSION, endpoints: endpoints.map((name) => text(name)!) };
    out.write(JSON.stringify(header) + '\n');
    return new ArrivalRecorder(out);
  }

  get recorded(): number {
    return this.#recorded;
  }

  get dropped(): number {
    return this.#dropped;
  }

  record(arrival: Arrival): void {
    if (this.#out.writableLength > MAX_BUFFERED_BYTES) {
      this.#dropped++;
      return;
    }
    const line: Arrival = { ...arrival, endpoint: text(arrival.endpoint)! };
    if (arrival.eventType !== undefined) line.eventType = text(arrival.eventType);
    if (arrival.callId !== undefined) line.callId = text(arrival.callId);
    this.#out.write(JSON.stringify(line) + '\n');
    this.#recorded++;
  }

  /** Writes the receivers' counters and the dropped count as the last line, and closes the file. */
  async close(receiver: ReceiverCounters | undefined): Promise<void> {
    this.#out.end(JSON.stringify({ kind: 'end', dropped: this.#dropped, ...(receiver ? { receiver } : {}) }) + '\n');
    await once(this.#out, 'close');
  }
}

/** The most of a file read to find its first line: a header names at most 25 endpoints of at most 200 characters. */
const HEADER_READ_BYTES = 64 * 1024;

/** True when `path` starts with an arrivals header (its first 64 KiB read, never more: k6's samples are gzip). */
export function isArrivalsFile(path: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const head = Buffer.alloc(HEADER_READ_BYTES);
    const length = readSync(fd, head, 0, HEADER_READ_BYTES, 0);
    const newline = head.subarray(0, length).indexOf(0x0a);
    return newline !== -1 && parseHeader(head.toString('utf8', 0, newline)) !== undefined;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function parseHeader(line: string): Header | undefined {
  try {
    const value = JSON.parse(line) as Partial<Header>;
    if (value?.kind !== ARRIVALS_KIND || value.version !== VERSION || !Array.isArray(value.endpoints)) return undefined;
    return {
      kind: ARRIVALS_KIND,
      version: VERSION,
      endpoints: value.endpoints.filter((name): name is string => typeof name === 'string'),
    };
  } catch {
    return undefined;
  }
}

const finite = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** An arrival line as the tally takes it, or undefined for a line that is not one. */
function arrivalOf(value: Record<string, unknown>): Arrival | undefined {
  const endpoint = text(value['endpoint']);
  const receivedAtMs = finite(value['receivedAtMs']);
  if (endpoint === undefined || receivedAtMs === undefined) return undefined;
  const arrival: Arrival = {
    endpoint,
    receivedAtMs,
    signatureOk: value['signatureOk'] === true,
    duplicate: value['duplicate'] === true,
  };
  const optional = {
    eventType: text(value['eventType']),
    callId: text(value['callId']),
    createdAtMs: finite(value['createdAtMs']),
    placedAtMs: finite(value['placedAtMs']),
  };
  for (const [key, field] of Object.entries(optional))
    if (field !== undefined) Object.assign(arrival, { [key]: field });
  return arrival;
}

/** Reads a recording; throws SamplesError when `path` does not start with an arrivals header. */
export async function readArrivals(path: string): Promise<RecordedArrivals> {
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  const iterator = lines[Symbol.asyncIterator]();
  const first = await iterator.next();
  const header = first.done ? undefined : parseHeader(first.value);
  if (!header) {
    lines.close();
    throw new SamplesError(`${path} is not a fan-out arrivals file (svc-harness load fanout-host writes one)`);
  }
  let ending: RecordingEnd = { dropped: 0 };
  async function* arrivals(): AsyncGenerator<Arrival> {
    try {
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
        let value: Record<string, unknown>;
        try {
          value = JSON.parse(next.value) as Record<string, unknown>;
        } catch {
          continue; // a line cut short when the host was killed
        }
        if (value?.['kind'] === 'end') {
          const clientClosed = finite((value['receiver'] as Record<string, unknown> | undefined)?.['clientClosed']);
          ending = {
            dropped: finite(value['dropped']) ?? 0,
            ...(clientClosed !== undefined ? { receiver: { clientClosed } } : {}),
          };
          continue;
        }
        const arrival = arrivalOf(value);
        if (arrival) yield arrival;
      }
    } finally {
      lines.close();
    }
  }
  return { endpoints: header.endpoints, arrivals: arrivals(), ending: () => ending };
}
