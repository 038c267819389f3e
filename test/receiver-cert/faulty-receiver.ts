/**
 * A small webhook receiver for proving the receiver checks: correct by default (the
 * spec's rules, answering like the reference receiver: 204 / 401), with one fault per
 * path. `https://127.0.0.1:<port>/hooks/<fault>` serves that fault; `/hooks/none` is the
 * correct receiver. It implements the count convention (X-Receiver-Processed-Count), so
 * replays can be counted. node:https with a self-signed certificate made for the run.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { createSelfSignedCertificate } from '../../src/tls/self-signed.js';

export const RECEIVER_FAULTS = {
  none: 'the correct receiver',
  'accept-all': 'acknowledges every delivery, checks nothing',
  'early-exit-compare':
    'compares hex strings character by character and stops at the first difference (about 50 µs per matching character)',
  'reserialized-json': 'verifies the HMAC of JSON.stringify(JSON.parse(body)) instead of the raw body',
  'no-timestamp-window': 'never checks the timestamp',
  'window-ms': 'tolerance written in milliseconds (300000) but compared with seconds: a window of about 3.5 days',
  'window-60s': 'a 60 s tolerance instead of 300 s',
  'past-only-window': 'rejects old timestamps only; any future timestamp passes',
  'nan-timestamp': 'Math.abs(now - Number(header)) > 300: a missing or non-numeric timestamp is NaN and passes',
  'parse-int-timestamp': 'parseInt(header): digits followed by text pass',
  'accepts-uppercase': 'lower-cases the signature header before comparing',
  'accepts-base64': 'accepts the HMAC in base64 as well as hex',
  'prefix-compare': 'compares only as many characters as both signatures have (a missing header counts as empty)',
  'signature-optional': 'checks the signature only when the header is there',
  'ok-on-bad-signature': 'answers 200 (and drops the delivery) on a bad signature',
  'reject-400': 'conformant variant: answers 400 instead of 401 to bad deliveries',
  'success-200': 'conformant variant: answers 200 instead of 204 to good deliveries',
  slow: 'answers good deliveries after `slowMs` (past the time-out)',
  'rejects-replay': 'answers 409 to an id it has processed before',
  'counts-replays': 'processes every acknowledged delivery, replays included',
} as const;

export type ReceiverFault = keyof typeof RECEIVER_FAULTS;

export interface FaultyReceiverOptions {
  secret: string;
  /** Delay of the `slow` fault. */
  slowMs?: number;
  /** Busy-wait per matching character of the `early-exit-compare` fault. */
  perCharDelayUs?: number;
}

const TOLERANCE_S = 300;
const HEX64 = /^[0-9a-f]{64}$/;

export class FaultyReceiver {
  readonly #server: Server;
  readonly #options: Required<FaultyReceiverOptions>;
  readonly #certPath: string;
  readonly #sockets = new Set<Socket>();
  /** Processed count per fault path and event id. */
  readonly #processed = new Map<string, number>();
  readonly baseUrl: string;

  private constructor(server: Server, options: Required<FaultyReceiverOptions>, certPath: string, port: number) {
    this.#server = server;
    this.#options = options;
    this.#certPath = certPath;
    this.baseUrl = `https://127.0.0.1:${port}`;
  }

  static async start(options: FaultyReceiverOptions): Promise<FaultyReceiver> {
    const tls = await createSelfSignedCertificate({ hosts: ['127.0.0.1'] });
    const server = createServer({ cert: tls.cert, key: tls.key, keepAliveTimeout: 10_000 });
    const port = await new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
    });
    const receiver = new FaultyReceiver(server, { slowMs: 3_000, perCharDelayUs: 50, ...options }, tls.certPath, port);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => receiver.#handle(req, res));
    server.on('connection', (socket: Socket) => {
      receiver.#sockets.add(socket);
      socket.on('error', () => undefined);
      socket.once('close', () => receiver.#sockets.delete(socket));
    });
    return receiver;
  }

  url(fault: ReceiverFault): string {
    return `${this.baseUrl}/hooks/${fault}`;
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    for (const socket of this.#sockets) socket.destroy();
    await closed;
    await rm(dirname(this.#certPath), { recursive: true, force: true });
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    res.on('error', () => undefined);
    const fault = /^\/hooks\/([a-z0-9-]+)$/.exec(req.url ?? '')?.[1] as ReceiverFault | undefined;
    if (fault === undefined || !(fault in RECEIVER_FAULTS) || req.method !== 'POST') {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => this.#answer(fault, Buffer.concat(chunks), req, res));
  }

  #answer(fault: ReceiverFault, raw: Buffer, req: IncomingMessage, res: ServerResponse): void {
    const header = (name: string): string | undefined => {
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    };
    const badStatus = fault === 'reject-400' ? 400 : 401;
    if (fault !== 'accept-all' && !this.#signatureOk(fault, raw, header('x-service-signature'))) {
      if (fault === 'ok-on-bad-signature') res.writeHead(200, { 'content-type': 'text/plain' }).end('ignored\n');
      else res.writeHead(badStatus).end();
      return;
    }
    if (fault !== 'accept-all' && !timestampOk(fault, header('x-service-timestamp'))) {
      res.writeHead(badStatus).end();
      return;
    }
    let id: string;
    try {
      id = String((JSON.parse(raw.toString('utf8')) as { id?: unknown }).id ?? '');
    } catch {
      res.writeHead(400).end();
      return;
    }
    const key = `${fault}:${id}`;
    const seen = this.#processed.get(key) ?? 0;
    if (fault === 'rejects-replay' && seen > 0) {
      res.writeHead(409).end();
      return;
    }
    const count = seen === 0 || fault === 'counts-replays' ? seen + 1 : seen;
    this.#processed.set(key, count);
    const send = () =>
      res.writeHead(fault === 'success-200' ? 200 : 204, { 'x-receiver-processed-count': String(count) }).end();
    if (fault === 'slow') setTimeout(send, this.#options.slowMs).unref();
    else send();
  }

  #signatureOk(fault: ReceiverFault, raw: Buffer, given: string | undefined): boolean {
    const secret = this.#options.secret;
    if (fault === 'signature-optional' && given === undefined) return true;
    let signed: Buffer | string = raw;
    if (fault === 'reserialized-json') {
      try {
        signed = JSON.stringify(JSON.parse(raw.toString('utf8')));
      } catch {
        return false;
      }
    }
    const expected = createHmac('sha256', secret).update(signed).digest('hex');
    const value = fault === 'accepts-uppercase' ? given?.toLowerCase() : given;
    if (fault === 'prefix-compare') {
      const text = value ?? '';
      const n = Math.min(text.length, expected.length);
      return text.slice(0, n) === expected.slice(0, n);
    }
    if (fault === 'accepts-base64' && value !== undefined && !HEX64.test(value)) {
      const decoded = Buffer.from(value, 'base64');
      return decoded.length === 32 && timingSafeEqual(decoded, Buffer.from(expected, 'hex'));
    }
    if (value === undefined || value.length !== expected.length || !HEX64.test(value)) return false;
    if (fault === 'early-exit-compare') return earlyExitEquals(value, expected, this.#options.perCharDelayUs);
    return timingSafeEqual(Buffer.from(value, 'hex'), Buffer.from(expected, 'hex'));
  }
}

function timestampOk(fault: ReceiverFault, header: string | undefined): boolean {
  const now = Date.now() / 1000;
  switch (fault) {
    case 'no-timestamp-window':
      return true;
    case 'nan-timestamp':
      return !(Math.abs(now - Number(header)) > TOLERANCE_S);
    case 'parse-int-timestamp': {
      const ts = Number.parseInt(header ?? '', 10);
      return !Number.isNaN(ts) && Math.abs(now - ts) <= TOLERANCE_S;
    }
    default: {
      if (header === undefined || !/^-?\d+$/.test(header)) return false;
      const skew = Number(header) - now;
      if (fault === 'window-ms') return Math.abs(skew) <= 300_000;
      if (fault === 'window-60s') return Math.abs(skew) <= 60;
      if (fault === 'past-only-window') return skew >= -TOLERANCE_S;
      return Math.abs(skew) <= TOLERANCE_S;
    }
  }
}

/** The classic mistake: stop at the first difference. The busy-wait makes each matching character cost a visible time. */
function earlyExitEquals(a: string, b: string, perCharUs: number): boolean {
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return false;
    const until = performance.now() + perCharUs / 1000;
    while (performance.now() < until) {
      // busy-wait
    }
  }
  return true;
}
