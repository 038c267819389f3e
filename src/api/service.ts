/**
 * The service's public API as the spec shows it: four operations, each answering the
 * raw response, because a conformance check needs to see the status and body exactly.
 */
import type { HttpClient, HttpResponse } from '../http/client.js';

export interface CallRequest {
  agent_id: string;
  to: string;
  metadata?: Record<string, unknown>;
}

/** A number in a reserved fictional range (555-0100 to 555-0199): never a real line. */
export const RESERVED_TEST_NUMBER = '+15555550123';

export interface CallOptions {
  fresh?: boolean;
  timeoutMs?: number;
}

export class ServiceApi {
  constructor(private readonly http: HttpClient) {}

  whoami(credential: string | undefined, options: CallOptions = {}): Promise<HttpResponse> {
    return this.http.request({ path: '/v1/whoami', headers: bearer(credential), ...options });
  }

  listAgents(credential: string | undefined, options: CallOptions = {}): Promise<HttpResponse> {
    return this.http.request({ path: '/v1/voice/agents', headers: bearer(credential), ...options });
  }

  placeCall(credential: string | undefined, call: CallRequest, options: CallOptions = {}): Promise<HttpResponse> {
    return this.http.request({ method: 'POST', path: '/v1/voice/calls', headers: bearer(credential), json: call, ...options });
  }

  /** The retrieval method is not shown in the spec; GET is the only reading that fits a read scope. */
  transcript(credential: string | undefined, callId: string, options: CallOptions = {}): Promise<HttpResponse> {
    return this.http.request({ path: `/v1/voice/calls/${encodeURIComponent(callId)}/transcript`, headers: bearer(credential), ...options });
  }

  /** Any request with headers of the caller's choosing, for malformed-input checks. */
  raw(request: Parameters<HttpClient['request']>[0]): Promise<HttpResponse> {
    return this.http.request(request);
  }
}

function bearer(credential: string | undefined): Record<string, string> {
  return credential === undefined ? {} : { authorization: `Bearer ${credential}` };
}
