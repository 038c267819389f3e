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
  let finished = false;
  const finish = (result: BodyResult): void => {
    if (finished) return;
    finished = true;
    done(result);
  };

  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > maxBytes) {
    req.resume();
    finish({ ok: false, reason: 'too-large' });
    return;
  }

  const chunks: Buffer[] = [];
  let length = 0;
  req.on('data', (chunk: Buffer) => {
    if (finished) return;
    length += chunk.length;
    if (length > maxBytes) {
      chunks.length = 0;
      finish({ ok: false, reason: 'too-large' });
      return;
    }
    chunks.push(chunk);
  });
  req.on('end', () => {
    const body = chunks.length === 0 ? EMPTY : chunks.length === 1 ? keepable(chunks[0]!) : Buffer.concat(chunks, length);
    finish({ ok: true, body });
  });
  // 'close' without 'end': the sender went away mid-body.
  req.on('close', () => finish({ ok: false, reason: 'aborted' }));
  req.on('error', () => finish({ ok: false, reason: 'aborted' }));
}

/**
 * A chunk is kept as it is unless it is a small view of a much larger allocation (a pooled
 * read buffer): keeping that view would keep the whole allocation alive with the delivery.
 * Over TLS, Node hands out exact-size chunks, so this copies nothing in practice.
 */
function keepable(chunk: Buffer): Buffer {
  return chunk.buffer.byteLength > 2 * chunk.byteLength + 1_024 ? Buffer.from(chunk) : chunk;
}
