import type { IncomingMessage } from 'node:http';

// Reading a JSON request body: content type checked first, size capped while
// streaming (never buffered past the cap), parse errors turned into 4xx outcomes.

export const MAX_BODY_BYTES = 64 * 1024;

export type BodyOutcome =
  | { ok: true; value: unknown }
  | {
      ok: false;
      status: 400 | 413 | 415;
      code: 'malformed_json' | 'payload_too_large' | 'unsupported_media_type';
      message: string;
    };

export function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  const semicolon = header.indexOf(';');
  const mediaType = (semicolon === -1 ? header : header.slice(0, semicolon)).trim().toLowerCase();
  return mediaType === 'application/json';
}

/**
 * @param maxBytes the cap (413 beyond it)
 * @param anyContentType read the body as JSON whatever its Content-Type (the alternate personality)
 */
export function readJsonBody(
  req: IncomingMessage,
  maxBytes = MAX_BODY_BYTES,
  anyContentType = false,
): Promise<BodyOutcome> {
  if (!anyContentType && !isJsonContentType(req.headers['content-type'])) {
    return Promise.resolve({
      ok: false,
      status: 415,
      code: 'unsupported_media_type',
      message: 'Content-Type must be application/json',
    });
  }
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > maxBytes) {
    return Promise.resolve({
      ok: false,
      status: 413,
      code: 'payload_too_large',
      message: `body exceeds ${maxBytes} bytes`,
    });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (outcome: BodyOutcome): void => {
      if (done) return;
      done = true;
      resolve(outcome);
    };
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > maxBytes) {
        finish({ ok: false, status: 413, code: 'payload_too_large', message: `body exceeds ${maxBytes} bytes` });
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      const text = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
      try {
        finish({ ok: true, value: JSON.parse(text) as unknown });
      } catch {
        finish({ ok: false, status: 400, code: 'malformed_json', message: 'the body is not valid JSON' });
      }
    });
    req.on('error', () =>
      finish({ ok: false, status: 400, code: 'malformed_json', message: 'the body could not be read' }),
    );
  });
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
