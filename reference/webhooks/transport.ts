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
  private readonly verified = new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 60_000, allowH2: false });
  private readonly loopback = new Agent({
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 60_000,
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
    keepBody = false,
  ): Promise<SendOutcome> {
    const refusal = this.outbound.refusal(url);
    if (refusal) return { kind: 'error', reason: refusal };
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
      if (!keepBody) await response.body.dump({ limit: 64 * 1024, signal });
      const location = response.headers.location;
      const retryAfter = response.headers['retry-after'];
      return {
        kind: 'response',
        status: response.statusCode,
        elapsedMs: performance.now() - started,
        ...(typeof location === 'string' ? { location } : {}),
        // Read for fault retry-after-header-obeyed only; the schedule ignores it.
        ...(typeof retryAfter === 'string' ? { retryAfter } : {}),
        ...(text !== undefined ? { body: text } : {}),
      };
    } catch (error) {
      if (signal.aborted || isTimeoutError(error)) return { kind: 'timeout' };
      return { kind: 'error', reason: (error as Error).message ?? String(error) };
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.verified.destroy(), this.loopback.destroy()]);
  }
}

function isTimeoutError(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT';
}
