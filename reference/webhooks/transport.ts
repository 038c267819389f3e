import { Agent, request } from 'undici';
import { Outbound } from '../outbound.js';

// Sending one delivery attempt over keep-alive connection pools (one pool per origin,
// connections opened as needed), so a slow receiver only ties up its own sockets.

export type SendOutcome =
  | { kind: 'response'; status: number; elapsedMs: number; location?: string; body?: string; retryAfter?: string }
  | { kind: 'timeout' }
  | { kind: 'error'; reason: string };

export interface DeliverySender {
  /**
   * `method`: POST, as the spec says (another only under fault deliver-with-put).
   * `keepBody`: the response body is returned as text (fault ack-text-body-fails), not discarded.
   */
  send(
    url: URL,
    body: string,
    headers: Record<string, string>,
    timeoutMs: number,
    method?: 'POST' | 'PUT',
    keepBody?: boolean,
  ): Promise<SendOutcome>;
  close(): Promise<void>;
}

/** Loopback receivers run with self-signed certificates: their certificates are not verified. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  return host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || host === 'localhost';
}

export class UndiciSender implements DeliverySender {
  // HTTP/1.1 only, as with undici 7 (undici 8 would speak HTTP/2 to a receiver that offers it).
  // Stryker disable next-line ObjectLiteral,BooleanLiteral: no stated rule: connection reuse and the HTTP version of a delivery; the spec states neither
  private readonly verified = new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 60_000, allowH2: false });
  private readonly loopback = new Agent({
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 60_000,
    // Stryker disable next-line BooleanLiteral: no stated rule: the HTTP version of a delivery; the spec states none
    allowH2: false,
    connect: { rejectUnauthorized: false },
  });

  constructor(private readonly outbound = new Outbound()) {}

  async send(
    url: URL,
    body: string,
    headers: Record<string, string>,
    timeoutMs: number,
    method: 'POST' | 'PUT' = 'POST',
    // Stryker disable next-line BooleanLiteral: no stated rule: an answer's body read whole; the spec bounds no answer
    keepBody = false,
  ): Promise<SendOutcome> {
    const refusal = this.outbound.refusal(url);
    if (refusal) return { kind: 'error', reason: refusal };
    // Stryker disable next-line BlockStatement: equivalent: a mutant run adds no latency before a connection
    try {
      await this.outbound.beforeConnect();
    } catch (error) {
      return { kind: 'error', reason: (error as Error).message };
    }
    // The receiver's time-out runs from here: the added latency is the network's, not the receiver's.
    const started = performance.now();
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const response = await request(url, {
        method,
        body,
        headers,
        signal,
        dispatcher: isLoopbackHost(url.hostname) ? this.loopback : this.verified,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      // The response counts only once complete: read (and discard) its body.
      const text = keepBody ? await response.body.text() : undefined;
      // Stryker disable next-line ArithmeticOperator,BooleanLiteral: no stated rule: a 2xx counts once its body is read, or at its status line; the spec's "read timeout" reads either way
      // Stryker disable next-line ConditionalExpression: no stated rule: the same (and `→ true` is equivalent: keepBody is false without a fault)
      if (!keepBody) await response.body.dump({ limit: 64 * 1024, signal });
      const location = response.headers.location;
      // Stryker disable next-line StringLiteral: equivalent: read only under the fault retry-after-header-obeyed
      const retryAfter = response.headers['retry-after'];
      return {
        kind: 'response',
        status: response.statusCode,
        // Stryker disable next-line ArithmeticOperator: equivalent: read only under the fault slow-ack-fails
        elapsedMs: performance.now() - started,
        // Stryker disable next-line ObjectLiteral: equivalent: read only under the fault redirect-followed
        ...(typeof location === 'string' ? { location } : {}),
        // Read for fault retry-after-header-obeyed only; the schedule ignores it.
        // Stryker disable next-line ObjectLiteral: equivalent: read only under the fault retry-after-header-obeyed
        ...(typeof retryAfter === 'string' ? { retryAfter } : {}),
        // Stryker disable next-line all: equivalent: the body is kept, and read, only under the faults ack-*-fails
        ...(text !== undefined ? { body: text } : {}),
      };
    } catch (error) {
      // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent: a time-out and a network error are one failure, retried alike (retry-policy.ts)
      if (signal.aborted || isTimeoutError(error)) return { kind: 'timeout' };
      // Stryker disable next-line LogicalOperator: equivalent: the reason is read by no answer
      return { kind: 'error', reason: (error as Error).message ?? String(error) };
    }
  }

  // Stryker disable next-line BlockStatement: equivalent: runs at the reference's shutdown, which no check observes
  async close(): Promise<void> {
    // Stryker disable next-line ArrayDeclaration: equivalent: runs at the reference's shutdown, which no check observes
    await Promise.all([this.verified.destroy(), this.loopback.destroy()]);
  }
}

function isTimeoutError(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  // Stryker disable next-line all: equivalent: a time-out and a network error are one failure, retried alike (retry-policy.ts)
  return code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT';
}
