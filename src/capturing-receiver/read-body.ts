import type { IncomingMessage } from 'node:http';

export type BodyResult = { ok: true; body: Buffer } | { ok: false; reason: 'too-large' | 'aborted' };

const EMPTY = Buffer.alloc(0);

/**
 * Reads a request body of at most `maxBytes`. Past the cap it reports `too-large` at once
 * and keeps the stream flowing while dropping the bytes, so the connection stays usable
 * (Node's own requestTimeout still bounds a sender that never stops) and nothing more is
 * held in memory. A declared Content-Length over the cap is refused before any byte is read.
 * A single-chunk body is returned as that chunk, without a copy (see `keepable`).
 */
export function readBody(req: IncomingMessage, maxBytes: number, done: (result: BodyResult) => void): void {
  const read = new BodyRead(maxBytes, done);
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > maxBytes) {
    req.resume();
    read.finish({ ok: false, reason: 'too-large' });
    return;
  }
  // Unnamed arrows into one object's methods: no closure state per request beyond `read`.
  req.on('data', (chunk: Buffer) => read.data(chunk));
  req.on('end', () => read.end());
  // 'close' without 'end': the sender went away mid-body.
  req.on('close', () => read.finish(ABORTED));
  req.on('error', () => read.finish(ABORTED));
}

const ABORTED: BodyResult = Object.freeze({ ok: false, reason: 'aborted' });

/** One body being read: its chunks, their length, and whether `done` was called. */
class BodyRead {
  #finished = false;
  #chunks: Buffer[] = [];
  #length = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly done: (result: BodyResult) => void,
  ) {}

  data(chunk: Buffer): void {
    if (this.#finished) return;
    this.#length += chunk.length;
    if (this.#length > this.maxBytes) {
      this.#chunks = [];
      this.finish({ ok: false, reason: 'too-large' });
      return;
    }
    this.#chunks.push(chunk);
  }

  end(): void {
    const chunks = this.#chunks;
    const body =
      chunks.length === 0 ? EMPTY : chunks.length === 1 ? keepable(chunks[0]!) : Buffer.concat(chunks, this.#length);
    this.finish({ ok: true, body });
  }

  finish(result: BodyResult): void {
    if (this.#finished) return;
    this.#finished = true;
    this.done(result);
  }
}

/**
 * A chunk is kept as it is unless it is a small view of a much larger allocation (a pooled
 * read buffer): keeping that view would keep the whole allocation alive with the delivery.
 * Over TLS, Node hands out exact-size chunks, so this copies nothing in practice.
 */
function keepable(chunk: Buffer): Buffer {
  return chunk.buffer.byteLength > 2 * chunk.byteLength + 1_024 ? Buffer.from(chunk) : chunk;
}
