/**
 * Sends deliveries to the receiver under certification, as the service would: POST with
 * the raw body, `X-Service-Signature` and `X-Service-Timestamp`. Bounded on every side:
 * a time-out on each request, a cap on the rate and on the request count, a deadline for
 * the whole run; only the receiver URL (and the count URL, when given) is contacted.
 * Every exchange is logged for the status and latency checks, and every Date header
 * feeds the clock-offset estimate.
 */
import { BudgetExhausted, HttpError, type HttpFailureKind } from '../errors.js';
import type { Exchange as Evidence } from '../exchange.js';
import { HttpClient } from '../http/client.js';
import { signBody } from '../signing/index.js';
import { ClockOffset } from '../clock/date-offset.js';
import { sleep } from '../clock/wait.js';

/** What the delivery was meant to be, so the status checks know what its answer means. */
export type Purpose = 'valid' | 'invalid' | 'count';

export interface Exchange {
  check: string;
  purpose: Purpose;
  /** What was sent wrong (or 'valid'), for details. */
  label: string;
  /** HTTP status, or null when no answer came (time-out, connection error). */
  status: number | null;
  error?: HttpFailureKind;
  errorMessage?: string;
  headers: Record<string, string>;
  /** Harness wall clock (ms) just before sending and on receipt of the answer. */
  sentAtMs: number;
  receivedAtMs: number;
  durationMs: number;
  text: string;
  /**
   * The request and answer as a report shows them, with a reproduce line (src/exchange.ts), so
   * that a failing check hands over the one it judged: `t.fail(reason, exchange)`.
   */
  exchange?: Evidence;
}

export interface DeliveryRequest {
  purpose: 'valid' | 'invalid';
  label: string;
  body: string;
  /** The signature header: default the right signature; null leaves the header out; a function computes it at send time from the timestamp sent. */
  signature?: string | null | ((timestamp: string | null) => string | null);
  /** The timestamp header, computed at send time from the harness clock (ms): default now in Unix seconds; null leaves it out. */
  timestamp?: ((nowMs: number) => string) | string | null;
}

export interface SenderOptions {
  url: string;
  secret: string;
  countUrl?: string;
  timeoutMs: number;
  rate: number;
  maxRequests: number;
  /** Wall-clock ms after which no request starts. */
  deadlineMs: number;
  insecureTls: boolean;
}

const MAX_ANSWER_BYTES = 65_536;

export class DeliverySender {
  readonly log: Exchange[] = [];
  readonly clock = new ClockOffset();
  readonly timeoutMs: number;
  /** The check the next exchanges belong to (set by the runner). */
  currentCheck = '';
  /** Per-check deadline (wall ms), set by the runner; no request starts after it. */
  checkDeadlineMs = Infinity;
  #requests = 0;
  #nextSlotMs = 0;
  readonly #secret: string;
  readonly #client: HttpClient;
  readonly #path: string;
  readonly #countClient: HttpClient | undefined;
  readonly #countPath: string;
  readonly #options: SenderOptions;

  constructor(options: SenderOptions) {
    this.#options = options;
    this.#secret = options.secret;
    this.timeoutMs = options.timeoutMs;
    const url = new URL(options.url);
    const clientOptions = {
      timeoutMs: options.timeoutMs,
      maxBodyBytes: MAX_ANSWER_BYTES,
      insecureTls: options.insecureTls,
      resend: false,
    };
    this.#client = new HttpClient(url.origin, clientOptions);
    this.#path = `${url.pathname}${url.search}`;
    if (options.countUrl !== undefined) {
      const count = new URL(options.countUrl);
      this.#countClient = new HttpClient(count.origin, clientOptions);
      this.#countPath = `${count.pathname}${count.search}`;
    } else {
      this.#countPath = '';
    }
  }

  get requestCount(): number {
    return this.#requests;
  }

  get hasCountUrl(): boolean {
    return this.#countClient !== undefined;
  }

  /** The right signature of `body` under the receiver's secret. */
  sign(body: string): string {
    return signBody(this.#secret, body);
  }

  async deliver(req: DeliveryRequest): Promise<Exchange> {
    await this.#slot();
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'svc-conformance-harness/receiver-cert',
    };
    const nowMs = Date.now();
    const timestamp =
      req.timestamp === undefined
        ? unixSeconds(nowMs)
        : typeof req.timestamp === 'function'
          ? req.timestamp(nowMs)
          : req.timestamp;
    if (timestamp !== null) headers['x-service-timestamp'] = timestamp;
    const signature =
      req.signature === undefined
        ? this.sign(req.body)
        : typeof req.signature === 'function'
          ? req.signature(timestamp)
          : req.signature;
    if (signature !== null) headers['x-service-signature'] = signature;
    return this.#exchange(
      this.#client,
      { method: 'POST', path: this.#path, headers, body: req.body },
      req.purpose,
      req.label,
    );
  }

  /**
   * The count convention's URL: GET `<count url>?id=<evt_id>` answering JSON
   * `{"processed_count": n}` (or a bare integer). Undefined when no count URL was given.
   */
  async processedCount(eventId: string): Promise<{ count: number | undefined; exchange: Exchange } | undefined> {
    if (this.#countClient === undefined) return undefined;
    await this.#slot();
    const separator = this.#countPath.includes('?') ? '&' : '?';
    const exchange = await this.#exchange(
      this.#countClient,
      {
        method: 'GET',
        path: `${this.#countPath}${separator}id=${encodeURIComponent(eventId)}`,
        headers: { accept: 'application/json' },
      },
      'count',
      'count',
    );
    return { count: exchange.status === 200 ? parseCount(exchange.text) : undefined, exchange };
  }

  async close(): Promise<void> {
    await Promise.all([this.#client.close(), this.#countClient?.close()]);
  }

  /** Waits for the next rate slot; throws when a cap or a deadline forbids another request. */
  async #slot(): Promise<void> {
    if (this.#requests >= this.#options.maxRequests)
      throw new BudgetExhausted(`request cap of ${this.#options.maxRequests} reached (TARGET_RECEIVER_MAX_REQUESTS)`);
    const now = Date.now();
    const at = Math.max(now, this.#nextSlotMs);
    this.#nextSlotMs = at + 1000 / this.#options.rate;
    if (at >= this.#options.deadlineMs)
      throw new BudgetExhausted('run time cap reached (TARGET_RECEIVER_MAX_RUN_SECONDS)');
    if (at >= this.checkDeadlineMs) throw new BudgetExhausted('the check ran out of time');
    this.#requests++;
    if (at > now) await sleep(at - now);
  }

  async #exchange(
    client: HttpClient,
    request: { method: string; path: string; headers: Record<string, string>; body?: string },
    purpose: Purpose,
    label: string,
  ): Promise<Exchange> {
    const sentAtMs = Date.now();
    const started = performance.now();
    let exchange: Exchange;
    try {
      const res = await client.request(request);
      const receivedAtMs = Date.now();
      exchange = {
        check: this.currentCheck,
        purpose,
        label,
        status: res.status,
        headers: res.headers,
        sentAtMs,
        receivedAtMs,
        durationMs: performance.now() - started,
        text: res.text.slice(0, 500),
        ...(res.exchange ? { exchange: res.exchange } : {}),
      };
      if (client === this.#client) this.clock.add(res.headers['date'], sentAtMs, receivedAtMs);
    } catch (error) {
      const code = error instanceof HttpError ? error.kind : 'network';
      exchange = {
        check: this.currentCheck,
        purpose,
        label,
        status: null,
        error: code,
        errorMessage: (error as Error).message,
        headers: {},
        sentAtMs,
        receivedAtMs: Date.now(),
        durationMs: performance.now() - started,
        text: '',
        ...(error instanceof HttpError && error.exchange ? { exchange: error.exchange } : {}),
      };
    }
    this.log.push(exchange);
    return exchange;
  }
}

export function unixSeconds(ms: number): string {
  return String(Math.floor(ms / 1000));
}

export function acknowledged(exchange: Exchange): boolean {
  return exchange.status !== null && exchange.status >= 200 && exchange.status < 300;
}

/** "204", "401", or "no answer within 10000 ms" / "connection error: …". */
export function describeAnswer(exchange: Exchange): string {
  if (exchange.status !== null) return String(exchange.status);
  if (exchange.error === 'timeout') return `no answer within ${Math.round(exchange.durationMs)} ms`;
  return `no answer (${exchange.errorMessage ?? exchange.error ?? 'error'})`;
}

function parseCount(text: string): number | undefined {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  try {
    const value = (JSON.parse(trimmed) as { processed_count?: unknown }).processed_count;
    return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
  } catch {
    return undefined;
  }
}
