/**
 * The harness's HTTP client for the service's public API and control interface.
 *
 * Every request is bounded: a whole-request time-out, a cap on the response body,
 * and no redirects followed. Requests go over a kept-alive pool by default; `fresh`
 * opens a new connection for one request, so that checks can reach backends a kept-alive
 * connection would never see (token caches per node, for example).
 */
import { Agent, Client, type Dispatcher } from 'undici';
import { HttpError } from '../errors.js';

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  /** Body as text (UTF-8), cut at the client's body cap. */
  text: string;
  /** Parsed body when it is valid JSON, else undefined. */
  json: unknown;
  durationMs: number;
}

export interface HttpRequest {
  method?: string;
  /** Path relative to the client's base URL, starting with `/`. */
  path: string;
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
  /** Serialised as the body with `Content-Type: application/json`. */
  json?: unknown;
  timeoutMs?: number;
  /** Use a new connection for this request only. */
  fresh?: boolean;
}

export interface HttpClientOptions {
  timeoutMs?: number;
  maxBodyBytes?: number;
  /** Accept self-signed certificates (loopback targets only). */
  insecureTls?: boolean;
}


const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BODY_BYTES = 1_048_576;

export class HttpClient {
  readonly baseUrl: string;
  private readonly origin: string;
  private readonly basePath: string;
  private readonly pool: Agent;
  private readonly timeoutMs: number;
  private readonly maxBodyBytes: number;
  private readonly connectOptions: { rejectUnauthorized: boolean };

  constructor(baseUrl: string, options: HttpClientOptions = {}) {
    const url = new URL(baseUrl);
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.connectOptions = { rejectUnauthorized: !options.insecureTls };
    // HTTP/1.1 only, as with undici 7: undici 8 speaks HTTP/2 wherever TLS offers it (ALPN),
    // and the checks are written against HTTP/1.1 (`fresh` means a new connection, and the
    // pool's 64 connections would become one multiplexed one).
    this.pool = new Agent({ connections: 64, keepAliveTimeout: 10_000, connect: this.connectOptions, allowH2: false });
  }

  async request(req: HttpRequest): Promise<HttpResponse> {
    const headers: Record<string, string | string[]> = { ...req.headers };
    let body = req.body;
    if (req.json !== undefined) {
      body = JSON.stringify(req.json);
      if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    }
    const timeoutMs = req.timeoutMs ?? this.timeoutMs;
    const dispatcher: Dispatcher = req.fresh ? new Client(this.origin, { connect: this.connectOptions, pipelining: 0, allowH2: false }) : this.pool;
    const started = performance.now();
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const res = await dispatcher.request({
        origin: this.origin,
        path: this.basePath + req.path,
        method: (req.method ?? 'GET') as Dispatcher.HttpMethod,
        headers,
        body,
        signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const text = await readCapped(res.body, this.maxBodyBytes, `${req.method ?? 'GET'} ${req.path}`);
      return {
        status: res.statusCode,
        headers: flattenHeaders(res.headers),
        text,
        json: parseJson(text),
        durationMs: performance.now() - started,
      };
    } catch (error) {
      if (error instanceof HttpError) throw error;
      const name = (error as Error).name;
      if (signal.aborted || name === 'HeadersTimeoutError' || name === 'BodyTimeoutError') {
        throw new HttpError(`${req.method ?? 'GET'} ${req.path}: no complete answer within ${timeoutMs} ms`, 'timeout');
      }
      throw new HttpError(`${req.method ?? 'GET'} ${req.path}: ${(error as Error).message}`, 'network');
    } finally {
      if (req.fresh) await (dispatcher as Client).destroy().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    await this.pool.destroy().catch(() => undefined);
  }
}

async function readCapped(body: Dispatcher.ResponseData['body'], maxBytes: number, what: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      body.destroy();
      throw new HttpError(`${what}: response body larger than ${maxBytes} bytes`, 'too-large');
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
