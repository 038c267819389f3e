import { Agent, request } from 'undici';
import { signBody } from '../../src/signing/index.js';
import type { ReceiverEndpoint } from '../../src/capturing-receiver/index.js';

/** The receiver's certificate is self-signed for the run; the tests only need the bytes through. */
export function insecureAgent(): Agent {
  return new Agent({ connect: { rejectUnauthorized: false } });
}

export const SECRET = 'whsec_test_receiver';

export function envelope(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'evt_1a2b3c',
    type: 'voice.call.queued',
    created_at: '2026-11-22T15:00:00Z',
    workspace_id: 'ws_9z8y',
    api_version: '2026-01-15',
    data: {},
    ...overrides,
  };
}

export function callCompletedData(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    call_id: 'call_77',
    agent_id: 'agt_5',
    to: '+442079460958',
    duration_seconds: 42,
    outcome: 'answered',
    transcript_url: 'https://api.example.test/v1/voice/calls/call_77/transcript',
    metadata: { lead_id: 'lead_3' },
    ...overrides,
  };
}

export interface PostResult {
  status?: number;
  /** undici's error code when no HTTP answer came (e.g. ECONNRESET, UND_ERR_SOCKET). */
  error?: string;
  body?: string;
  headers?: Record<string, string | string[] | undefined>;
  elapsedMs: number;
}

export interface PostOptions {
  /** Signs with this secret unless `signature` is given. */
  secret?: string;
  signature?: string;
  timestamp?: string;
  headers?: Record<string, string>;
}

/** Posts a delivery as the service would: raw body, signature and timestamp headers. */
export async function deliver(
  dispatcher: Agent,
  target: ReceiverEndpoint | string,
  body: string | Buffer,
  options: PostOptions = {},
): Promise<PostResult> {
  const url = typeof target === 'string' ? target : target.url;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-service-timestamp': options.timestamp ?? String(Math.floor(Date.now() / 1000)),
    ...options.headers,
  };
  const signature = options.signature ?? signBody(options.secret ?? SECRET, body);
  if (signature !== '') headers['x-service-signature'] = signature;
  const started = performance.now();
  try {
    const res = await request(url, { method: 'POST', body, headers, dispatcher });
    const text = await res.body.text();
    return { status: res.statusCode, body: text, headers: res.headers, elapsedMs: performance.now() - started };
  } catch (error) {
    return { error: (error as { code?: string }).code ?? String(error), elapsedMs: performance.now() - started };
  }
}
