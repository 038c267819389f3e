/**
 * A delivery's head (method, path, query, headers) as the text a delivery log writes down,
 * and back. Lines: a line feed, the method, the path, the query, then each header's name and
 * value, one a line; a head with an array value (set-cookie's) is written as JSON instead,
 * which never starts with a line feed.
 *
 * Lines need no test of each piece because the pieces are Node's: its HTTP parser, strict or
 * lenient, lets no line feed into a method, URL, header name or value, and decodes heads as
 * latin1, so no lone surrogate either (test/capturing-receiver/head.test.ts sends it the ways there are
 * to try). A test of each piece cost what the lines saved over JSON.stringify of the head
 * (the receiver bench compares them).
 */
import { InternalError } from '../errors.js';
import type { IncomingHttpHeaders } from 'node:http';

export interface Head {
  method: string;
  path: string;
  query: string;
  headers: IncomingHttpHeaders;
}

const LINE_FEED = '\n';

/** The head of a request as Node's HTTP parser gave it (see above), as text. */
export function encodeParsedHead(method: string, path: string, query: string, headers: IncomingHttpHeaders): string {
  let text = LINE_FEED + method + LINE_FEED + path + LINE_FEED + query;
  for (const name in headers) {
    const value = headers[name];
    if (typeof value !== 'string') return JSON.stringify([method, path, query, headers]);
    text += LINE_FEED + name + LINE_FEED + value;
  }
  return text;
}

export function decodeHead(text: string): Head {
  if (!text.startsWith(LINE_FEED)) {
    const [method, path, query, headers] = JSON.parse(text) as [string, string, string, IncomingHttpHeaders];
    return { method, path, query, headers };
  }
  const lines = text.split(LINE_FEED);
  // An empty first line, three, then two a header: a line feed inside a piece shows here, if it is one.
  if (lines.length % 2 !== 0)
    throw new InternalError(
      `a written-down head has ${lines.length} lines, not an even number: a piece held a line feed, which Node's parser never gives`,
    );
  const headers: IncomingHttpHeaders = {};
  for (let i = 4; i < lines.length; i += 2) {
    // As JSON.parse makes it: an own value, even for the name __proto__.
    Object.defineProperty(headers, lines[i]!, {
      value: lines[i + 1]!,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return { method: lines[1]!, path: lines[2]!, query: lines[3]!, headers };
}
