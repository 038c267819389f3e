import { InternalError } from '../errors.js';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP, type Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DEFAULT_TIMESTAMP_TOLERANCE_SECONDS } from '../signing/index.js';
import { createSelfSignedCertificate } from '../tls/self-signed.js';
import { NO_CONTENT_ANSWER, type ResolvedAnswer } from './answers.js';
import { ReceiverEndpoint } from './endpoint.js';
import { pushBounded } from './seen-events.js';
import { readBody } from './read-body.js';
import { refusingUrl } from './refused.js';
import type { AnswerState, CapturedDelivery, ReceiverStats, StrayRequest } from './types.js';

export interface ReceiverOptions {
  /** Interface to listen on. */
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /**
   * Listen with SO_REUSEPORT (Linux): several receiver processes on one port, the kernel
   * spreading connections over them (src/load/fanout/receiver-pool.ts).
   */
  reusePort?: boolean;
  /** PEM cert and key; without them a self-signed pair is made for the run. */
  tls?: { cert: string; key: string };
  /** The receiver's URL as the service must call it (a tunnel); default https://<host>:<port>. */
  publicUrl?: string;
  /** Larger bodies are answered 413 without being buffered. */
  maxBodyBytes?: number;
  /** Bounds every request's whole life: receiving it, and any programmed delay or hang. */
  requestTimeoutMs?: number;
  /** Time allowed for the request head to arrive. */
  headersTimeoutMs?: number;
  /** Deliveries kept per endpoint; the oldest are dropped past it (and counted). */
  maxDeliveriesPerEndpoint?: number;
  /**
   * Body bytes kept per endpoint; the oldest deliveries are dropped past it. Their heads
   * (method, path, headers) are kept besides, bounded by the count and Node's header size limit.
   */
  maxStoredBytesPerEndpoint?: number;
  /** Event ids remembered per endpoint for duplicate detection. */
  maxTrackedEventIds?: number;
  /** Requests to unknown paths kept for inspection. */
  maxStrays?: number;
  timestampToleranceSeconds?: number;
}

export interface CreateEndpointOptions {
  /** Unique name for reports and stats; default the path. */
  name?: string;
  /** Default a fresh `/hooks/<random>`. `'*'`: every path no other endpoint owns. */
  path?: string;
  /** Also answer 401 when the timestamp is outside the tolerance (default: signature only). */
  rejectStaleTimestamp?: boolean;
}

/** Deliveries an endpoint keeps unless told otherwise (maxDeliveriesPerEndpoint). */
export const DEFAULT_KEPT_DELIVERIES = 10_000;

const DEFAULTS = {
  host: '127.0.0.1',
  port: 0,
  maxBodyBytes: 1_048_576,
  requestTimeoutMs: 60_000,
  headersTimeoutMs: 10_000,
  maxDeliveriesPerEndpoint: DEFAULT_KEPT_DELIVERIES,
  maxStoredBytesPerEndpoint: 64 * 1_048_576,
  maxTrackedEventIds: 100_000,
  maxStrays: 1_000,
};

const STATS_PATH = '/_stats';
const CATCH_ALL = '*';

/** A delayed or hanging answer still in progress; close() must be able to end it. */
interface PendingAnswer {
  timers: NodeJS.Timeout[];
  socket: Socket;
}

type Settings = typeof DEFAULTS & { timestampToleranceSeconds: number };

/**
 * An HTTPS server on one port that serves any number of webhook endpoints, records each
 * delivery with its raw bytes, arrival times and verdicts, and answers as programmed.
 * Its own limits (body cap, time-outs, bounded stores) keep a misbehaving service from
 * exhausting it; no request, however malformed, can crash it.
 */
export class CapturingReceiver {
  readonly port: number;
  readonly publicUrl: string;
  /** The certificate the service must trust (or not verify, on loopback). */
  readonly certificatePem: string;
  /** Where the self-signed certificate was written, when the receiver made one (removed on close). */
  readonly certificatePath: string | undefined;

  readonly #server: Server;
  readonly #settings: Settings;
  readonly #byPath = new Map<string, ReceiverEndpoint>();
  readonly #byName = new Map<string, ReceiverEndpoint>();
  #catchAll: ReceiverEndpoint | undefined;
  readonly #sockets = new Set<Socket>();
  readonly #pending = new Set<PendingAnswer>();
  readonly #strays: StrayRequest[] = [];
  #seq = 0;
  #closed = false;
  readonly #counters = { strays: 0, oversized: 0, resets: 0, timedOut: 0, clientClosed: 0, clientErrors: 0 };

  private constructor(
    server: Server,
    settings: Settings,
    port: number,
    publicUrl: string,
    cert: string,
    certPath: string | undefined,
  ) {
    this.#server = server;
    this.#settings = settings;
    this.port = port;
    this.publicUrl = publicUrl;
    this.certificatePem = cert;
    this.certificatePath = certPath;
  }

  static async start(options: ReceiverOptions = {}): Promise<CapturingReceiver> {
    const settings: Settings = {
      host: options.host ?? DEFAULTS.host,
      port: options.port ?? DEFAULTS.port,
      maxBodyBytes: options.maxBodyBytes ?? DEFAULTS.maxBodyBytes,
      requestTimeoutMs: options.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs,
      headersTimeoutMs: Math.min(
        options.headersTimeoutMs ?? DEFAULTS.headersTimeoutMs,
        options.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs,
      ),
      maxDeliveriesPerEndpoint: options.maxDeliveriesPerEndpoint ?? DEFAULTS.maxDeliveriesPerEndpoint,
      maxStoredBytesPerEndpoint: options.maxStoredBytesPerEndpoint ?? DEFAULTS.maxStoredBytesPerEndpoint,
      maxTrackedEventIds: options.maxTrackedEventIds ?? DEFAULTS.maxTrackedEventIds,
      maxStrays: options.maxStrays ?? DEFAULTS.maxStrays,
      timestampToleranceSeconds: options.timestampToleranceSeconds ?? DEFAULT_TIMESTAMP_TOLERANCE_SECONDS,
    };
    let tls = options.tls;
    let certPath: string | undefined;
    if (tls === undefined) {
      const made = await createSelfSignedCertificate({ hosts: certificateHosts(settings.host, options.publicUrl) });
      tls = made;
      certPath = made.certPath;
    }
    const server = createServer({
      cert: tls.cert,
      key: tls.key,
      requestTimeout: settings.requestTimeoutMs,
      headersTimeout: settings.headersTimeoutMs,
      keepAliveTimeout: 5_000,
      // Node checks header/request time-outs on this interval; the default 30 s is too coarse.
      connectionsCheckingInterval: Math.min(1_000, settings.headersTimeoutMs),
    });
    let receiver: CapturingReceiver | undefined;
    server.on('request', (req: IncomingMessage, res: ServerResponse) => receiver?.handle(req, res));
    server.on('connection', (socket: Socket) => receiver?.track(socket));
    server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => receiver?.onClientError(error, socket));
    server.on('tlsClientError', () => receiver?.countClientError());
    const port = await listen(server, settings.host, settings.port, options.reusePort ?? false);
    // After listening, a server error (e.g. EMFILE while accepting) must not crash the run;
    // the connection it concerned is lost, which the service sees as a failed delivery.
    server.on('error', () => receiver?.countClientError());
    const publicUrl = (options.publicUrl ?? `https://${urlHost(settings.host)}:${port}`).replace(/\/+$/, '');
    receiver = new CapturingReceiver(server, settings, port, publicUrl, tls.cert, certPath);
    return receiver;
  }

  createEndpoint(options: CreateEndpointOptions = {}): ReceiverEndpoint {
    if (this.#closed) throw new InternalError('the receiver is closed');
    // Upper and lower case in every path: a target that changes a URL's case delivers elsewhere.
    const path = options.path ?? `/Hooks/${randomBytes(12).toString('base64url')}`;
    if (path !== CATCH_ALL && (!path.startsWith('/') || path.includes('?') || path.includes('#'))) {
      throw new TypeError(`endpoint path must start with / and have no query or fragment: ${path}`);
    }
    if (path === STATS_PATH) throw new TypeError(`${STATS_PATH} is the receiver's own stats path`);
    const name = options.name ?? path;
    if (this.#byName.has(name)) throw new InternalError(`an endpoint named "${name}" exists already`);
    if (path === CATCH_ALL ? this.#catchAll !== undefined : this.#byPath.has(path))
      throw new InternalError(`an endpoint at ${path} exists already`);
    const endpoint = new ReceiverEndpoint({
      name,
      path,
      url: path === CATCH_ALL ? `${this.publicUrl}/` : `${this.publicUrl}${path}`,
      maxDeliveries: this.#settings.maxDeliveriesPerEndpoint,
      maxStoredBytes: this.#settings.maxStoredBytesPerEndpoint,
      maxTrackedEventIds: this.#settings.maxTrackedEventIds,
      toleranceSeconds: this.#settings.timestampToleranceSeconds,
      rejectStaleTimestamp: options.rejectStaleTimestamp ?? false,
    });
    if (path === CATCH_ALL) this.#catchAll = endpoint;
    else this.#byPath.set(path, endpoint);
    this.#byName.set(name, endpoint);
    return endpoint;
  }

  /**
   * A URL on this receiver's host where nothing listens: attempts to it are refused at
   * connect, the answer no endpoint can give (src/capturing-receiver/refused.ts).
   */
  refusingUrl(): Promise<string> {
    return refusingUrl(this.publicUrl, this.#settings.host);
  }

  /** Requests to paths no endpoint owns (answered 404), newest last, bounded. */
  get strays(): readonly StrayRequest[] {
    return this.#strays;
  }

  stats(): ReceiverStats {
    const stats: ReceiverStats = {
      total: 0,
      bytes: 0,
      badSignatures: 0,
      duplicates: 0,
      dropped: 0,
      ...this.#counters,
      endpoints: {},
    };
    for (const [name, endpoint] of this.#byName) {
      const e = endpoint.stats();
      stats.endpoints[name] = e;
      stats.total += e.total;
      stats.bytes += e.bytes;
      stats.badSignatures += e.badSignatures;
      stats.duplicates += e.duplicates;
      stats.dropped += e.dropped;
    }
    return stats;
  }

  /** Stops listening, ends every connection and pending answer, rejects pending waitFor calls. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const pending of this.#pending) pending.timers.forEach(clearTimeout);
    this.#pending.clear();
    const serverClosed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    const socketsClosed = [...this.#sockets].map((socket) => {
      const closed = new Promise<void>((resolve) =>
        socket.destroyed && socket.closed ? resolve() : socket.once('close', () => resolve()),
      );
      socket.destroy();
      return closed;
    });
    for (const endpoint of this.#byName.values()) endpoint.abandonWaiters('the receiver closed');
    await Promise.all([serverClosed, ...socketsClosed]);
    // The key of a certificate made for this run is not left behind in the temp dir.
    if (this.certificatePath !== undefined) await rm(dirname(this.certificatePath), { recursive: true, force: true });
    // libuv finishes closing the listening handle in the close phase after this turn;
    // wait for it so that, once close() resolves, no handle of the receiver is left.
    await new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));
  }

  private track(socket: Socket): void {
    this.#sockets.add(socket);
    socket.once('close', () => this.#sockets.delete(socket));
    // A socket error (reset by the peer, mid-handshake garbage) must never become uncaught.
    socket.on('error', ignore);
  }

  private countClientError(): void {
    this.#counters.clientErrors++;
  }

  /** Malformed HTTP, oversized head, or Node's own header/request time-out. */
  private onClientError(error: NodeJS.ErrnoException, socket: Socket): void {
    this.#counters.clientErrors++;
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? '431 Request Header Fields Too Large'
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? '408 Request Timeout'
          : '400 Bad Request';
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const receivedAtMs = Date.now();
    const receivedAtMono = performance.now();
    const target = req.url ?? '/';
    const q = target.indexOf('?');
    const path = q === -1 ? target : target.slice(0, q);
    const query = q === -1 ? '' : target.slice(q + 1);
    // An error on the answer (peer gone mid-write) must never become uncaught; errors on
    // the request are handled by readBody, or are moot once the body is not read.
    res.on('error', ignore);

    if (path === STATS_PATH && req.method === 'GET') {
      const body = JSON.stringify(this.stats());
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(body);
      return;
    }
    const endpoint = this.#byPath.get(path) ?? this.#catchAll;
    if (endpoint === undefined) {
      this.#counters.strays++;
      pushBounded(
        this.#strays,
        { method: req.method ?? '', path, headers: req.headers, receivedAtMs },
        this.#settings.maxStrays,
      );
      // Node discards the unread body itself; nothing of it is kept.
      res.writeHead(404, { 'content-type': 'text/plain' }).end('no endpoint at this path\n');
      return;
    }
    readBody(req, this.#settings.maxBodyBytes, (result) => {
      if (!result.ok) {
        if (result.reason === 'too-large') {
          this.#counters.oversized++;
          endpoint.countOversized();
          if (!res.headersSent) res.writeHead(413, { 'content-type': 'text/plain' }).end('body too large\n');
        }
        return;
      }
      const { delivery, answer } = endpoint.capture({
        seq: ++this.#seq,
        method: req.method ?? '',
        path,
        query,
        headers: req.headers,
        rawBody: result.body,
        receivedAtMs,
        receivedAtMono,
      });
      this.carryOut(res, endpoint, delivery, answer);
    });
  }

  private carryOut(
    res: ServerResponse,
    endpoint: ReceiverEndpoint,
    delivery: CapturedDelivery,
    answer: ResolvedAnswer,
  ): void {
    // The hot path: an immediate status, no timers, no extra listeners.
    if (answer.kind === 'status' && answer.delayMs === 0 && answer.bodyDelayMs === 0) {
      this.sendStatus(res, endpoint, delivery, answer);
      return;
    }
    const socket = res.socket;
    if (socket === null) {
      // The service already hung up; there is nothing left to delay, reset or hang.
      this.markEnded(endpoint, delivery, 'client-closed');
      return;
    }
    const pending: PendingAnswer = { timers: [], socket };
    this.#pending.add(pending);
    const finish = (): void => {
      pending.timers.forEach(clearTimeout);
      this.#pending.delete(pending);
    };
    res.once('close', () => {
      finish();
      if (delivery.answer === 'pending') this.markEnded(endpoint, delivery, 'client-closed');
    });
    if (answer.kind === 'reset' && answer.delayMs === 0) {
      this.resetConnection(socket, endpoint, delivery);
      return;
    }
    if (answer.kind !== 'hang') {
      pending.timers.push(
        setTimeout(() => {
          if (answer.kind === 'reset') this.resetConnection(socket, endpoint, delivery);
          else if (answer.bodyDelayMs === 0) this.sendStatus(res, endpoint, delivery, answer);
          else {
            // The answer counts as sent once whole: until then a hang-up is the service's.
            if (res.destroyed || res.headersSent) return;
            res.writeHead(answer.status, answer.headers).flushHeaders();
            pending.timers.push(setTimeout(() => this.endBody(res, endpoint, delivery, answer), answer.bodyDelayMs));
          }
        }, answer.delayMs),
      );
    }
    // The receiver's own bound on a hang or an over-long delay.
    const remainingMs = Math.max(0, this.#settings.requestTimeoutMs - (performance.now() - delivery.receivedAtMono));
    pending.timers.push(
      setTimeout(() => {
        if (delivery.answer !== 'pending') return;
        this.markEnded(endpoint, delivery, 'timed-out');
        socket.destroy();
      }, remainingMs),
    );
  }

  private sendStatus(
    res: ServerResponse,
    endpoint: ReceiverEndpoint,
    delivery: CapturedDelivery,
    answer: Extract<ResolvedAnswer, { kind: 'status' }>,
  ): void {
    if (res.destroyed || res.headersSent) return;
    if (answer === NO_CONTENT_ANSWER) res.writeHead(204).end();
    else res.writeHead(answer.status, answer.headers).end(answer.body);
    this.markSent(endpoint, delivery, answer.status);
  }

  /** The body of an answer whose head went out `bodyDelayMs` before. */
  private endBody(
    res: ServerResponse,
    endpoint: ReceiverEndpoint,
    delivery: CapturedDelivery,
    answer: Extract<ResolvedAnswer, { kind: 'status' }>,
  ): void {
    if (res.destroyed || delivery.answer !== 'pending') return;
    res.end(answer.body);
    this.markSent(endpoint, delivery, answer.status);
  }

  private markSent(endpoint: ReceiverEndpoint, delivery: CapturedDelivery, status: number): void {
    delivery.answer = 'sent';
    delivery.answeredStatus = status;
    delivery.answeredAfterMs = performance.now() - delivery.receivedAtMono;
    endpoint.settled(delivery);
  }

  private resetConnection(socket: Socket, endpoint: ReceiverEndpoint, delivery: CapturedDelivery): void {
    this.markEnded(endpoint, delivery, 'reset');
    resetSocket(socket);
  }

  private markEnded(
    endpoint: ReceiverEndpoint,
    delivery: CapturedDelivery,
    state: Exclude<AnswerState, 'pending' | 'sent'>,
  ): void {
    delivery.answer = state;
    delivery.answeredAfterMs = performance.now() - delivery.receivedAtMono;
    if (state === 'reset') this.#counters.resets++;
    else if (state === 'timed-out') this.#counters.timedOut++;
    else this.#counters.clientClosed++;
    endpoint.settled(delivery);
  }
}

/**
 * Sends a TCP RST where Node allows it (the raw socket under TLS), so the service sees
 * "connection reset" rather than a clean close; otherwise destroys the socket.
 */
function resetSocket(socket: Socket): void {
  const raw = (socket as Socket & { _parent?: Socket | null })._parent ?? socket;
  try {
    raw.resetAndDestroy();
  } catch {
    // Not a TCP handle (e.g. already detached): a plain destroy still ends the connection.
  }
  socket.destroy();
}

function ignore(): void {}

function listen(server: Server, host: string, port: number, reusePort: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, ...(reusePort ? { reusePort } : {}) }, () => {
      server.off('error', reject);
      const address = server.address();
      if (address === null || typeof address === 'string') return reject(new Error('receiver has no TCP address'));
      resolve(address.port);
    });
  });
}

/** The host part of a URL: a wildcard address means "call me on loopback"; IPv6 in brackets. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return isIP(host) === 6 ? `[${host}]` : host;
}

/** Every name the service might use to call the receiver, for the self-signed certificate. */
function certificateHosts(host: string, publicUrl: string | undefined): string[] {
  const hosts = new Set(['127.0.0.1', '::1', 'localhost']);
  if (host !== '0.0.0.0' && host !== '::' && host !== '') hosts.add(host);
  if (publicUrl !== undefined) hosts.add(new URL(publicUrl).hostname.replace(/^\[|\]$/g, ''));
  return [...hosts];
}
