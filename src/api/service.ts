/**
 * The service's public API as the spec shows it: four operations, each answering the
 * raw response, because a conformance check needs to see the status and body exactly.
 */
import type { HttpClient, HttpResponse, OwnConnection } from '../http/client.js';

export interface CallRequest {
  agent_id: string;
  to: string;
  metadata?: Record<string, unknown>;
}

/** The spec's prefix of staging tokens (production: `svc_live_`). */
const STAGING_TOKEN_PREFIX = 'svc_test_';
/** A compact JWS: the harness mints session tokens only from its own test identity provider. */
const SESSION_TOKEN_SHAPE = /^eyJ[\w-]*\.[\w-]*\.[\w-]*$/;

/**
 * A credential of a staging workspace: a staging token, or a session token, which only the
 * harness's test identity provider mints, for the workspaces it made through the control
 * interface (staging only).
 */
export function isStagingCredential(credential: string): boolean {
  return credential.startsWith(STAGING_TOKEN_PREFIX) || SESSION_TOKEN_SHAPE.test(credential);
}

/** A number in a reserved fictional range (555-0100 to 555-0199): never a real line. */
export const RESERVED_TEST_NUMBER = '+15555550123';
/**
 * A number in the UK's range reserved for drama (07700 900000 to 900999): never a real line, and
 * a digit longer than RESERVED_TEST_NUMBER, so a destination cut short shows.
 */
export const DRAMA_TEST_NUMBER = '+447700900123';

export interface CallOptions {
  fresh?: boolean;
  /** Over this connection of the check's own (ServiceApi.ownConnection), not the shared pool. */
  connection?: OwnConnection;
  timeoutMs?: number;
  /**
   * Placing the call twice changes nothing the check judges (it reads the status alone, and
   * a call it should not be able to place is refused anyway): a lost connection may resend it.
   */
  idempotent?: boolean;
  /** The check judges this request's timing: paced ahead of set-up requests (src/http/pacing.ts). */
  timed?: boolean;
}

/** For a call whose answer the check judges by its status alone: see CallOptions.idempotent. */
export const STATUS_ONLY: CallOptions = { idempotent: true };

export class ServiceApi {
  /** Per credential, placements that may have placed a call the harness never got an answer for. */
  private readonly unconfirmed = new Map<string, number>();

  constructor(private readonly http: HttpClient) {}

  /** A kept-alive connection for a check's own requests (kept-alive rules); the check closes it. */
  ownConnection(): OwnConnection {
    return this.http.ownConnection();
  }

  whoami(credential: string | undefined, options: CallOptions = {}): Promise<HttpResponse> {
    return this.http.request({ path: '/v1/whoami', headers: bearer(credential), ...options });
  }

  listAgents(credential: string | undefined, options: CallOptions = {}): Promise<HttpResponse> {
    return this.http.request({ path: '/v1/voice/agents', headers: bearer(credential), ...options });
  }

  /**
   * Places a call. With a staging token (`svc_test_`), whose calls have no real-world side
   * effects, a placement that got no answer is placed again: the target may then hold a call
   * whose id the harness never got, and `unconfirmedPlacements` counts it for the credential.
   */
  async placeCall(credential: string | undefined, call: CallRequest, options: CallOptions = {}): Promise<HttpResponse> {
    const staging = credential !== undefined && isStagingCredential(credential);
    const res = await this.http.request({
      method: 'POST',
      path: '/v1/voice/calls',
      headers: bearer(credential),
      json: call,
      ...(staging ? { idempotent: true } : {}),
      ...options,
    });
    if (res.unconfirmedAttempts && credential !== undefined)
      this.unconfirmed.set(credential, (this.unconfirmed.get(credential) ?? 0) + res.unconfirmedAttempts);
    return res;
  }

  /** Placements with `credential` that got no answer and were placed again: calls the target may hold, of ids never seen. */
  unconfirmedPlacements(credential: string): number {
    return this.unconfirmed.get(credential) ?? 0;
  }

  /**
   * The transcript's retrieval method is not shown in the spec. GET is tried first; a 405
   * whose Allow header offers POST switches this client (and so the run) to POST, and
   * `transcriptMethod` says which was used, for the checks' details.
   */
  transcript(credential: string | undefined, callId: string, options: CallOptions = {}): Promise<HttpResponse> {
    return this.transcriptAt(credential, `/v1/voice/calls/${encodeURIComponent(callId)}/transcript`, options);
  }

  /** A transcript at a path (and query) the service handed out, e.g. in transcript_url. */
  async transcriptAt(credential: string | undefined, path: string, options: CallOptions = {}): Promise<HttpResponse> {
    // A read, whichever method serves it: sent again like any read when it got no answer.
    const read = { idempotent: true, ...options };
    const res = await this.http.request({ method: this.transcriptMethod, path, headers: bearer(credential), ...read });
    if (res.status !== 405 || this.transcriptMethod !== 'GET' || !allows(res, 'POST')) return res;
    this.transcriptMethod = 'POST';
    return this.http.request({ method: 'POST', path, headers: bearer(credential), ...read });
  }

  /** How transcripts are read: GET until the target answers 405 with `Allow: POST`. */
  transcriptMethod: 'GET' | 'POST' = 'GET';

  /** Any request with headers of the caller's choosing, for malformed-input checks. */
  raw(request: Parameters<HttpClient['request']>[0]): Promise<HttpResponse> {
    return this.http.request(request);
  }
}

function allows(res: HttpResponse, method: string): boolean {
  return (res.headers['allow'] ?? '').split(',').some((allowed) => allowed.trim().toUpperCase() === method);
}

function bearer(credential: string | undefined): Record<string, string> {
  return credential === undefined ? {} : { authorization: `Bearer ${credential}` };
}
