/**
 * The remote-write encoder against known answers from Prometheus' own protobuf types and
 * snappy decoder (fixtures/vectors/prometheus-remote-write.json, made by make-vectors/), and
 * the client against a local HTTP server: the protocol's headers, retries, refusals and its
 * time-out. test/load/prometheus.test.ts sends the same bytes to a real Prometheus.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreError } from '../../../src/errors.js';
import {
  encodeWriteRequest,
  remoteWrite,
  snappyBlock,
  varint,
  type TimeSeries,
} from '../../../src/load/store/remote-write.js';

interface Vectors {
  write_requests: Array<{
    name: string;
    series: Array<{ labels: [string, string][]; samples: [number, number][] }>;
    expected_hex: string;
  }>;
  snappy: Array<{ name: string; input_hex: string; expected_hex: string }>;
}

const vectors = JSON.parse(
  readFileSync(new URL('../../../fixtures/vectors/prometheus-remote-write.json', import.meta.url), 'utf8'),
) as Vectors;
const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

describe('remote-write encoding', () => {
  it.each(vectors.write_requests.map((v) => [v.name, v] as const))('%s: the WriteRequest of prompb', (_, vector) => {
    const series: TimeSeries[] = vector.series.map((s) => ({
      labels: Object.fromEntries(s.labels),
      samples: s.samples.map(([value, timestampMs]) => ({ value, timestampMs })),
    }));
    expect(hex(encodeWriteRequest(series))).toBe(vector.expected_hex);
  });

  it.each(vectors.snappy.map((v) => [v.name, v] as const))(
    '%s: a snappy block that decodes to its input',
    (_, vector) => {
      expect(hex(snappyBlock(Buffer.from(vector.input_hex, 'hex')))).toBe(vector.expected_hex);
    },
  );

  it('cuts a block into literals of at most 64 KiB, each with a two-byte length', () => {
    const data = new Uint8Array(0x10000 + 3).fill(7);
    const block = snappyBlock(data);
    // varint(65539) = 83 80 04; then 65536 bytes (tag f4, length − 1 = ffff), then 3 (tag 08).
    expect(hex(block.subarray(0, 6))).toBe('838004f4ffff');
    expect(block[6 + 0x10000]).toBe(0x08);
    expect(block.length).toBe(3 + 3 + 0x10000 + 1 + 3);
  });

  it('writes varints of timestamps past 2^32 and refuses what is not a whole number', () => {
    expect(hex(varint(0))).toBe('00');
    expect(hex(varint(300))).toBe('ac02');
    expect(hex(varint(2 ** 53 - 1))).toBe('ffffffffffffff0f');
    expect(() => varint(-1)).toThrow(RangeError);
    expect(() => varint(1.5)).toThrow(RangeError);
  });
});

describe('remote-write client', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
    server = undefined;
  });

  async function store(handler: (req: IncomingMessage, body: Buffer, res: ServerResponse) => void): Promise<string> {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => handler(req, Buffer.concat(chunks), res));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/api/v1/write`;
  }

  const SERIES: TimeSeries[] = [
    { labels: { __name__: 'svc_load_passed', run_id: 'r1' }, samples: [{ value: 1, timestampMs: 1_795_726_948_752 }] },
  ];

  it('posts the snappy WriteRequest with the headers of the protocol', async () => {
    const seen: Array<{ headers: IncomingMessage['headers']; body: Buffer }> = [];
    const url = await store((req, body, res) => {
      seen.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
    await remoteWrite({ url, headers: { Authorization: 'Bearer t0k3n-for-the-store' } }, SERIES);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers).toMatchObject({
      'content-type': 'application/x-protobuf',
      'content-encoding': 'snappy',
      'x-prometheus-remote-write-version': '0.1.0',
      authorization: 'Bearer t0k3n-for-the-store',
    });
    expect(hex(seen[0]!.body)).toBe(hex(snappyBlock(encodeWriteRequest(SERIES))));
  });

  it('tries again after a 503 and a 429, and is done at the first 2xx', async () => {
    const statuses = [503, 429, 204];
    let calls = 0;
    const url = await store((_req, _body, res) => res.writeHead(statuses[calls++]!).end());
    await remoteWrite({ url }, SERIES, { backoffMs: 1 });
    expect(calls).toBe(3);
  });

  it('gives up on a 400 at once, saying what the store answered', async () => {
    let calls = 0;
    const url = await store((_req, _body, res) => {
      calls++;
      res.writeHead(400).end('out of order sample\n');
    });
    const write = remoteWrite({ url }, SERIES, { backoffMs: 1 });
    await expect(write).rejects.toThrow(StoreError);
    await expect(remoteWrite({ url }, SERIES, { backoffMs: 1 })).rejects.toThrow(/answered 400: out of order sample$/);
    expect(calls).toBe(2);
  });

  it('gives up after its attempts when the store never answers in time', async () => {
    let calls = 0;
    const url = await store(() => {
      calls++;
    });
    const started = Date.now();
    await expect(remoteWrite({ url }, SERIES, { timeoutMs: 200, attempts: 2, backoffMs: 1 })).rejects.toThrow(
      /no answer within 200 ms/,
    );
    expect(calls).toBe(2);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('reports a store that refuses connections', async () => {
    const url = await store((_req, _body, res) => res.writeHead(204).end());
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
    await expect(remoteWrite({ url }, SERIES, { attempts: 1 })).rejects.toThrow(/fetch failed \(connect ECONNREFUSED/);
  });
});
