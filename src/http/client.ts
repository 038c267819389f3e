/**
 * The harness's HTTP client for the service's public API and control interface.
 *
 * Every request is bounded: a time-out per attempt, a cap on the response body, no redirects
 * followed, and a bounded budget of resends. The network is not the target's answer: a 429 is
 * waited out and sent again (src/http/retry-policy.ts), a request without an answer is sent
 * again where that is safe, and the client paces itself under the limits it meets
 * (src/http/pacing.ts). What that cost is counted for the check that sent it (./tally.ts).
 * Requests go over a kept-alive pool by default; `fresh` opens a new connection for one
 * request, so that checks can reach backends a kept-alive connection would never see
 * (token caches per node, for example).
 */
import type { Dispatcher } from 'undici';
import { HttpError } from '../errors.js';
import { sleep } from '../clock/wait.js';
import { createDispatcher, tlsOptions, type NetworkOptions, type TlsOptions } from './dispatcher.js';
import { laneOf } from './lanes.js';
import { Pacer } from './pacing.js';
import { curlCommand } from './reproduce.js';
import { failedOnStaleConnection } from './reuse.js';
import {
  MAX_RETRY_AFTER_MS,
  RATE_LIMIT_RETRIES,
  RATE_LIMIT_WAIT_BUDGET_MS,
  mayHaveReachedTarget,
  networkBackoffMs,
  rateLimitWaitMs,
  resendsFor,
  safeToResend,
  type Unanswered,
} from './retry-policy.js';
import { currentTraffic, keepExchange, type Exchange, type NetworkTally } from './tally.js';

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  /** Body as text (UTF-8), cut at the client's body cap. */
  text: string;
  /** Parsed body when it is valid JSON, else undefined. */
  json: unknown;
  /** The round trip of the attempt that was answered (waits before it not included). */
  durationMs: number;
  /** When that attempt was sent (performance.now()): later than the call when it waited. */
  sentAtMs: number;
  /**
   * Earlier attempts of this request that got no answer and may have reached the target (a reset
   * or a time-out, not a connection never made or one the other side had closed); absent when none.
   */
  unconfirmedAttempts?: number;
  /**
   * This exchange as evidence (request, answer, the telling headers, the start of the body, a
   * reproduce line), for an assertion to hand over with its failure: `t.fail(reason, res)`.
   */
  exchange?: Exchange;
}

export interface HttpRequest {
  method?: string;
  /** Path relative to the client's base URL, starting with `/`. */
  path: string;
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
  /** Serialised as the body with `Content-Type: application/json`. */
  json?: unknown;
  /** Time-out of each attempt. */
  timeoutMs?: number;
  /** Use a new connection for this request only. */
  fresh?: boolean;
  /** Go over this connection of the caller's own (see HttpClient.ownConnection), not the shared pool. */
  connection?: OwnConnection;
  /**
   * Whether sending the request twice is harmless, when it got no answer; default: by its
   * method (GET, PUT, DELETE… yes; POST no). A POST a check repeats harmlessly may say so.
   */
  idempotent?: boolean;
  /** A check judges this request's timing (a revocation poll, traffic around a rotation): paced ahead of bulk requests. */
  timed?: boolean;
}

export interface HttpClientOptions extends NetworkOptions {
  timeoutMs?: number;
  maxBodyBytes?: number;
  /**
   * Most requests a second this client sends (CERTIFY_RATE_LIMIT); a 429 slows it further.
   * Without it, the client still slows down where 429s say so.
   */
  rateLimit?: number;
  /** Whether to pace at all: the public API yes, the control interface (never rate-limited by contract) no. */
  paced?: boolean;
  /**
   * Whether to wait out 429s and resend what got no answer (default yes). The harness playing
   * the service (src/receiver-cert) judges each answer of a receiver as it comes: no.
   */
  resend?: boolean;
  /** What stands for a secret in a reproduce line: the shell variable a reader sets (default "$SVC_TOKEN"). */
  secretPlaceholder?: string;
  /**
   * Whether a 429 without Retry-After, still answered once the waits are spent, is returned as the
   * answer (default no: it is an unanswered request, no verdict). The control contract sets no rate
   * limit and takes any 4xx as a refusal, so its client asks for that 429 itself: a limit refused
   * with 429 is judged like any refusal. A 429 with Retry-After says when to come back: a rate
   * limit, unanswered either way.
   */
  lastRateLimitIsAnswer?: boolean;
  /** How long 429s are waited out in all for one request (default RATE_LIMIT_WAIT_BUDGET_MS). */
  rateLimitWaitBudgetMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
/**
 * The kept-alive pool. An idle connection is given up after undici's default of 4 s unless the
 * other side's `Keep-Alive: timeout=` says otherwise, and then 2 s before that: shorter than the
 * idle time-outs servers and proxies commonly keep (5 s and up), so the harness rarely writes onto
 * a connection they are closing. Those it still meets are caught by ./reuse.ts.
 */
const POOL = { connections: 64, keepAliveTimeout: 4_000, keepAliveTimeoutThreshold: 2_000 };

/**
 * One kept-alive connection held by one caller: the requests given it go over the same
 * connection while the other side keeps it open (the shared pool hands a request whichever
 * connection is free, often one another check just used).
 */
export interface OwnConnection {
  readonly dispatcher: Dispatcher;
  close(): Promise<void>;
}

const DEFAULT_MAX_BODY_BYTES = 1_048_576;

export class HttpClient {
  readonly baseUrl: string;
  private readonly origin: string;
  private readonly basePath: string;
  private readonly pool: Dispatcher;
  private readonly timeoutMs: number;
  private readonly maxBodyBytes: number;
  private readonly tls: TlsOptions;
  private readonly env: NodeJS.ProcessEnv | undefined;
  private readonly pacer: Pacer | undefined;
  private readonly resend: boolean;
  /** Per lane, the last of the untimed requests waiting for a slot: each waits for the one before. */
  private readonly lines = new Map<string, Promise<void>>();
  private readonly secretPlaceholder: string;
  private readonly lastRateLimitIsAnswer: boolean;
  private readonly rateLimitWaitBudgetMs: number;

  constructor(baseUrl: string, options: HttpClientOptions = {}) {
    const url = new URL(baseUrl);
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.tls = tlsOptions(options);
    this.env = options.env;
    this.pool = createDispatcher(this.tls, this.env, POOL);
    this.pacer = options.paced === false || options.resend === false ? undefined : new Pacer(options.rateLimit);
    this.resend = options.resend !== false;
    this.secretPlaceholder = options.secretPlaceholder ?? '$SVC_TOKEN';
    this.lastRateLimitIsAnswer = options.lastRateLimitIsAnswer === true;
    this.rateLimitWaitBudgetMs = options.rateLimitWaitBudgetMs ?? RATE_LIMIT_WAIT_BUDGET_MS;
  }

  /** The request's answer, after waiting out 429s and resending what got no answer where safe. */
  async request(req: HttpRequest): Promise<HttpResponse> {
    const method = req.method ?? 'GET';
    const what = `${method} ${req.path}`;
    const lane = laneOf(req.headers);
    const traffic = currentTraffic();
    const tally = traffic?.tally;
    // Serialised once for every attempt, and described once for the evidence.
    const sending = outgoing(req);
    const described = {
      request: describeRequest(method, req.path, sending),
      reproduce: () => curlCommand({ method, url: this.baseUrl + req.path, ...sending }, this.secretPlaceholder),
    };
    let rateLimited = 0;
    let waitedForLimitsMs = 0;
    let resends = 0;
    let unconfirmedAttempts = 0;
    // After a kept-alive connection turned out closed, the resend takes a new one.
    let fresh = req.fresh === true;
    while (true) {
      await this.pace(lane, req.timed === true, tally);
      count(tally, this.pacer ? 'requests' : 'control_requests', 1);
      let outcome:
        | HttpResponse
        | {
            unanswered: Unanswered;
            message: string;
            exchange: Exchange;
            errorCode?: string;
            staleConnection?: boolean;
          };
      try {
        const answered = await this.attempt({ ...req, fresh }, sending, method, what);
        outcome = { ...answered, exchange: exchangeOf(described, answered) };
        if (traffic) keepExchange(traffic, outcome.exchange!);
      } catch (error) {
        const failed = exchangeOf(described, (error as Error).message);
        if (traffic) keepExchange(traffic, failed);
        if (!(error instanceof Unanswerable)) throw error;
        if (!this.resend) throw unanswered(tally, new HttpError(error.message, error.kind, error.errorCode, failed));
        outcome = {
          unanswered: error.kind,
          message: error.message,
          exchange: failed,
          ...(error.errorCode ? { errorCode: error.errorCode } : {}),
          ...(error.staleConnection ? { staleConnection: true } : {}),
        };
      }
      if ('status' in outcome && (outcome.status !== 429 || !this.resend)) {
        this.pacer?.answered(lane);
        return unconfirmedAttempts > 0 ? { ...outcome, unconfirmedAttempts } : outcome;
      }
      if ('status' in outcome) {
        rateLimited += 1;
        count(tally, 'rate_limited', 1);
        const { waitMs } = rateLimitWaitMs(outcome.headers['retry-after'], Date.now(), rateLimited);
        const givingUp =
          rateLimited > RATE_LIMIT_RETRIES ||
          waitMs > MAX_RETRY_AFTER_MS ||
          waitedForLimitsMs + waitMs > this.rateLimitWaitBudgetMs;
        // A wait the run will not honour ends this request; it must not stall every other one as long.
        if (!givingUp) this.pacer?.limited(lane, waitMs);
        if (givingUp && this.lastRateLimitIsAnswer && outcome.headers['retry-after'] === undefined) {
          this.pacer?.answered(lane);
          return outcome;
        }
        if (givingUp) {
          throw unanswered(
            tally,
            new HttpError(
              `${what}: still 429 after ${rateLimited} answers and ${Math.round(waitedForLimitsMs / 1000)} s of waiting (Retry-After ${outcome.headers['retry-after'] ?? 'absent'})`,
              'rate-limited',
            ),
          );
        }
        waitedForLimitsMs += waitMs;
        await wait(waitMs, tally);
      } else {
        resends += 1;
        const failure = {
          kind: outcome.unanswered,
          ...(outcome.errorCode ? { errorCode: outcome.errorCode } : {}),
          ...(outcome.staleConnection ? { staleConnection: true } : {}),
        };
        if (resends > resendsFor(outcome.unanswered) || !safeToResend(method, failure, req.idempotent)) {
          const tried = resends > 1 ? ` (sent ${resends} times)` : '';
          throw unanswered(
            tally,
            new HttpError(`${outcome.message}${tried}`, outcome.unanswered, outcome.errorCode, outcome.exchange),
          );
        }
        if (mayHaveReachedTarget(failure)) unconfirmedAttempts += 1;
        // A connection the other side had closed says nothing of the network: no back-off.
        if (outcome.staleConnection) fresh = true;
        else await wait(networkBackoffMs(resends), tally);
      }
      count(tally, 'resent', 1);
    }
  }

  async close(): Promise<void> {
    await this.pool.destroy().catch(() => undefined);
  }

  /** A kept-alive connection of the caller's own, kept as the pool keeps its own; the caller closes it. */
  ownConnection(): OwnConnection {
    const dispatcher = createDispatcher(this.tls, this.env, { ...POOL, connections: 1 });
    return { dispatcher, close: () => dispatcher.destroy().catch(() => undefined) };
  }

  /**
   * Waits for the request's slot: a timed request for the one it reserved, another until one is
   * free (src/http/pacing.ts). Those others wait in line per lane, and only the first of a line
   * asks the pacer again: a crowd of waiters all waking for each free slot would cost the CPU the
   * checks' own timing needs.
   */
  private async pace(lane: string | undefined, timed: boolean, tally: NetworkTally | undefined): Promise<void> {
    const pacer = this.pacer;
    if (!pacer) return;
    if (timed) {
      const waitMs = pacer.admit(lane, true);
      if (waitMs > 0) await wait(waitMs, tally);
      return;
    }
    const key = lane ?? '';
    const ahead = this.lines.get(key) ?? Promise.resolve();
    let leave!: () => void;
    const line = ahead.then(() => new Promise<void>((resolve) => (leave = resolve)));
    this.lines.set(key, line);
    await ahead;
    try {
      for (let waitMs = pacer.admit(lane, false); waitMs > 0; waitMs = pacer.admit(lane, false))
        await wait(waitMs, tally);
    } finally {
      leave();
      if (this.lines.get(key) === line) this.lines.delete(key);
    }
  }

  /** One attempt: its answer, or an Unanswerable saying why there was none. */
  private async attempt(
    req: HttpRequest,
    { headers, body }: Outgoing,
    method: string,
    what: string,
  ): Promise<HttpResponse> {
    const timeoutMs = req.timeoutMs ?? this.timeoutMs;
    const dispatcher = req.fresh
      ? createDispatcher(this.tls, this.env, { connections: 1, keepAliveTimeout: 1 })
      : (req.connection?.dispatcher ?? this.pool);
    const sentAtMs = performance.now();
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const res = await dispatcher.request({
        origin: this.origin,
        path: this.basePath + req.path,
        method: method as Dispatcher.HttpMethod,
        headers,
        body,
        signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const text = await readCapped(res.body, this.maxBodyBytes, what);
      return {
        status: res.statusCode,
        headers: flattenHeaders(res.headers),
        text,
        json: parseJson(text),
        durationMs: performance.now() - sentAtMs,
        sentAtMs,
      };
    } catch (error) {
      if (error instanceof HttpError) throw error;
      const name = (error as Error).name;
      if (signal.aborted || name === 'HeadersTimeoutError' || name === 'BodyTimeoutError') {
        throw new Unanswerable(`${what}: no complete answer within ${timeoutMs} ms`, 'timeout');
      }
      const errorCode = errorCodeOf(error);
      if (isNotHttp(error as Error, errorCode))
        throw new HttpError(
          `${what}: the answer is not HTTP/1.1 (${oneLine((error as Error).message)})`,
          'malformed',
          errorCode,
        );
      const stale = failedOnStaleConnection(error);
      throw new Unanswerable(
        `${what}: ${oneLine((error as Error).message)}${stale ? ' (a kept-alive connection the other side had closed)' : ''}`,
        'network',
        errorCode,
        stale,
      );
    } finally {
      if (req.fresh) await dispatcher.destroy().catch(() => undefined);
    }
  }
}

/** Answer headers that decide verdicts, kept with an exchange. */
const TELLING_HEADERS = ['content-type', 'retry-after', 'location', 'www-authenticate', 'allow'];
/** How much of a body an exchange keeps: enough to see the error code and shape. */
const EVIDENCE_BODY_CHARS = 1_000;
/** How much of a header (or a reason there was no answer) an exchange keeps. */
const HEADER_CHARS = 300;

/** What a request sends, as every attempt of it sends it. */
interface Outgoing {
  headers: Record<string, string | string[]>;
  body: string | Buffer | undefined;
}

function outgoing(req: HttpRequest): Outgoing {
  const headers: Record<string, string | string[]> = { ...req.headers };
  if (req.json === undefined) return { headers, body: req.body };
  if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type'))
    headers['content-type'] = 'application/json';
  return { headers, body: JSON.stringify(req.json) };
}

/** The request half of an exchange, bounded: its line, headers and the start of its body. */
function describeRequest(method: string, path: string, { headers, body }: Outgoing): string {
  const sentHeaders = Object.entries(headers).map(([name, value]) =>
    `${name}: ${Array.isArray(value) ? value.join(', ') : value}`.slice(0, HEADER_CHARS),
  );
  const sentBody = typeof body === 'string' ? body : body ? `<${body.length} bytes>` : '';
  return [`${method} ${path}`, ...sentHeaders, ...(sentBody ? ['', sentBody.slice(0, EVIDENCE_BODY_CHARS)] : [])].join(
    '\n',
  );
}

/**
 * One exchange as evidence, bounded. Masking and the printable boundary come where every
 * report field passes (the check's record, then src/report/write.ts), not on each request.
 */
function exchangeOf(
  { request, reproduce }: { request: string; reproduce: () => string },
  outcome: HttpResponse | string,
): Exchange {
  if (typeof outcome === 'string') return withReproduce({ request, answer: outcome.slice(0, HEADER_CHARS) }, reproduce);
  const headers = Object.fromEntries(
    TELLING_HEADERS.filter((name) => outcome.headers[name] !== undefined).map((name) => [
      name,
      outcome.headers[name]!.slice(0, HEADER_CHARS),
    ]),
  );
  return withReproduce(
    {
      request,
      answer: outcome.status,
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      ...(outcome.text ? { body: outcome.text.slice(0, EVIDENCE_BODY_CHARS) } : {}),
    },
    reproduce,
  );
}

/**
 * `exchange` with its reproduce line, written on first read: a run keeps many exchanges and
 * reports few, and the line (every argument searched for every secret the run learnt) costs
 * the CPU that the checks' timing and the webhook receivers need. Enumerable, so a copy, JSON
 * or a structured clone carries the line.
 */
function withReproduce(exchange: Exchange, reproduce: () => string): Exchange {
  let line: string | undefined;
  return Object.defineProperty(exchange, 'reproduce', {
    enumerable: true,
    configurable: true,
    get: () => (line ??= reproduce()),
  });
}

/** Why one attempt got no answer (internal: the request may still be sent again). */
class Unanswerable extends Error {
  constructor(
    message: string,
    readonly kind: Unanswered,
    readonly errorCode?: string,
    /** Sent on a reused connection the other side had closed, before any byte of an answer. */
    readonly staleConnection = false,
  ) {
    super(message);
  }
}

/** An answer undici could not parse as HTTP (its parser's HPE_ codes, headers over its limit): the target's answer, not the network's. */
function isNotHttp(error: Error, errorCode: string | undefined): boolean {
  return (
    error.name === 'HTTPParserError' ||
    errorCode?.startsWith('HPE_') === true ||
    errorCode === 'UND_ERR_HEADERS_OVERFLOW'
  );
}

/** A system message on one line (OpenSSL's span several): every report shows a reason as one line. */
function oneLine(message: string): string {
  return message.replace(/\s*\n\s*/g, ' ').trim();
}

/** The system or undici error code of a failed attempt, from the error or its cause. */
function errorCodeOf(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException)?.code ?? (error as { cause?: NodeJS.ErrnoException })?.cause?.code;
  return typeof code === 'string' ? code : undefined;
}

function count(
  tally: NetworkTally | undefined,
  field: 'requests' | 'control_requests' | 'rate_limited' | 'resent',
  by: number,
): void {
  if (tally) tally[field] += by;
}

async function wait(ms: number, tally: NetworkTally | undefined): Promise<void> {
  if (tally) tally.waited_ms += Math.round(ms);
  await sleep(ms);
}

function unanswered(tally: NetworkTally | undefined, error: HttpError): HttpError {
  if (tally) {
    tally.unanswered += 1;
    tally.first_unanswered ??= error.message;
  }
  return error;
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
