import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeHead, encodeParsedHead } from '../../src/capturing-receiver/head.js';

/** As the delivery log keeps it: written as UTF-8, read back. */
const throughBytes = (text: string): string => Buffer.from(text, 'utf8').toString('utf8');

const headersOf = (entries: [string, string | string[]][]): IncomingHttpHeaders => {
  const headers: IncomingHttpHeaders = {};
  for (const [name, value] of entries)
    Object.defineProperty(headers, name, { value, enumerable: true, writable: true, configurable: true });
  return headers;
};

/** What Node's parser hands a handler for each of `raw` requests (strict, or lenient with `insecureHTTPParser`), or its error code. */
async function parsed(raw: string, insecureHTTPParser: boolean): Promise<IncomingMessage | string> {
  let seen: IncomingMessage | string = 'nothing';
  const server = createServer({ insecureHTTPParser }, (req, res) => {
    seen = req;
    res.end();
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    seen = error.code ?? error.message;
    socket.destroy();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const socket = connect((server.address() as { port: number }).port, '127.0.0.1');
    socket.setTimeout(2_000, () => socket.destroy());
    socket.on('error', () => undefined).resume();
    socket.end(Buffer.from(raw, 'utf8'));
    await once(socket, 'close');
  } finally {
    server.close();
  }
  return seen;
}

describe("a delivery's head, written down and read back", () => {
  it("is the same head for any pieces Node's parser can give (latin1, no line feed)", () => {
    const unit = fc
      .integer({ min: 0, max: 0xff })
      .filter((code) => code !== 0x0a)
      .map((code) => String.fromCharCode(code));
    const text = fc.string({ unit, maxLength: 16 });
    const headers = fc
      .array(
        fc.tuple(
          text,
          fc.oneof({ arbitrary: text, weight: 8 }, { arbitrary: fc.array(text, { maxLength: 3 }), weight: 1 }),
        ),
        { maxLength: 8 },
      )
      .map(headersOf);
    fc.assert(
      fc.property(text, text, text, headers, (method, path, query, given) => {
        const read = decodeHead(throughBytes(encodeParsedHead(method, path, query, given)));
        expect(read).toEqual({ method, path, query, headers: given });
        expect(Object.getOwnPropertyNames(read.headers)).toEqual(Object.getOwnPropertyNames(given));
      }),
      { numRuns: 500 },
    );
  });

  it('is written as lines for a request that came over the wire, and read back as Node gave it', async () => {
    const raw =
      'POST /hooks/a?x=1 HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nWebhook-Id: msg_FAKE1\r\nWebhook-Signature: v1,RkFLRQ== v1a,RkFLRTI=\r\nX-Not-Ascii: caf\u00e9 \u{1F600}\r\nContent-Length: 0\r\n\r\n';
    const req = await parsed(raw, false);
    if (typeof req === 'string') throw new Error(`Node refused the request: ${req}`);
    const text = encodeParsedHead(req.method!, '/hooks/a', 'x=1', req.headers);
    expect(text.startsWith('\nPOST\n/hooks/a\nx=1\nhost\na\n')).toBe(true);
    const read = decodeHead(throughBytes(text));
    expect(read.headers).toEqual(req.headers);
    expect(Object.keys(read.headers)).toEqual(Object.keys(req.headers));
  });

  // The lines' premise, held to every Node this runs on: a line feed or a lone surrogate in a
  // piece would be misread. Each way to slip one in is refused, or given without it.
  it.each([
    ['an obs-folded value', 'POST /p HTTP/1.1\r\nHost: a\r\nX-A: one\r\n two\r\nContent-Length: 0\r\n\r\n'],
    ['bare line feeds', 'POST /p HTTP/1.1\nHost: a\nX-A: one\nContent-Length: 0\n\n'],
    ['a bare line feed inside a value', 'POST /p HTTP/1.1\r\nHost: a\r\nX-A: one\ntwo\r\nContent-Length: 0\r\n\r\n'],
    ['a carriage return inside a value', 'POST /p HTTP/1.1\r\nHost: a\r\nX-A: one\rtwo\r\nContent-Length: 0\r\n\r\n'],
    ['a line feed in the target', 'POST /p\nq HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n'],
    [
      'UTF-8 of an astral character in a value',
      'POST /p HTTP/1.1\r\nHost: a\r\nX-A: \u{1F600}\r\nContent-Length: 0\r\n\r\n',
    ],
  ])("Node's parser gives no piece a line feed or a lone surrogate: %s", async (_, raw) => {
    for (const lenient of [false, true]) {
      const req = await parsed(raw, lenient);
      if (typeof req === 'string') {
        expect(req).toMatch(/^HPE_/);
        continue;
      }
      const pieces = [
        req.method!,
        req.url!,
        ...Object.entries(req.headers).flatMap(([name, value]) => [name, ...[value ?? ''].flat()]),
      ];
      for (const piece of pieces)
        expect([piece, piece.includes('\n'), piece.isWellFormed()]).toEqual([piece, false, true]);
    }
  });

  it.each([
    [
      'an array value (set-cookie)',
      headersOf([
        ['set-cookie', ['a=1', 'b=2']],
        ['x', 'y'],
      ]),
    ],
    [
      'the name __proto__',
      headersOf([
        ['__proto__', 'v'],
        ['x', 'w'],
      ]),
    ],
    ['no headers', headersOf([])],
  ])('is exact with %s', (_, headers) => {
    const read = decodeHead(throughBytes(encodeParsedHead('POST', '/p', '', headers)));
    expect(read.headers).toEqual(headers);
    expect(Object.getOwnPropertyNames(read.headers)).toEqual(Object.getOwnPropertyNames(headers));
  });

  it('refuses to read back a head a line feed got into, rather than misread it', () => {
    expect(() => decodeHead(encodeParsedHead('POST', '/p', '', { 'x-a': 'one\ntwo' }))).toThrow(
      /a piece held a line feed/,
    );
  });
});
