import { newHexId, newId } from './ids.js';

// The reference's personalities. `reference` (the default) is the behaviour the harness
// was built against; `alternate` makes the other reasonable choice at each point the spec
// leaves open, so the harness can prove it accepts both; `jsonwebtoken` is `reference`
// with session tokens verified as most Node services do it (jsonwebtoken + jwks-rsa), so
// the harness can prove it certifies the most used libraries (README: "Personalities").

export type PersonalityName = 'reference' | 'alternate' | 'jsonwebtoken';

export const PERSONALITY_NAMES: readonly PersonalityName[] = ['reference', 'alternate', 'jsonwebtoken'];

export interface Personality {
  name: PersonalityName;
  /** POST /v1/voice/calls: a body that parses as JSON is read whatever its Content-Type. */
  lenientContentType: boolean;
  /** What verifies session JWTs: jose (auth/session.ts) or jsonwebtoken + jwks-rsa (auth/session-jsonwebtoken.ts). */
  sessionVerifier: 'jose' | 'jsonwebtoken';
  /** Clock skew tolerated on a session JWT's exp and nbf. */
  sessionClockToleranceSeconds: number;
  /** `metadata` values must all be strings (else 422). */
  metadataStringValuesOnly: boolean;
  /** Largest request body of POST /v1/voice/calls (else 413). */
  maxBodyBytes: number;
  /** A started call may move to failed (else only a queued one may). */
  failedFromStarted: boolean;
  /** The one method that serves the transcript. */
  transcriptMethod: 'GET' | 'POST';
  missingScopeStatus: number;
  workspaceDisabledStatus: number;
  /** Non-authentication errors as RFC 9457 problem details (application/problem+json). */
  problemDetails: boolean;
  /** Each retry delay moved by this fraction, at the edges of a random jitter (the spec states none). */
  retryJitter: number;
  /** Mints the identifiers of the public surface (ws_, agt_, call_, evt_, req_). */
  newId(prefix: string): string;
  /** A token or member created with `scopes: []` is refused (422); else it holds no scope. */
  emptyScopesRefused: boolean;
  /** An endpoint created with `events: []` is accepted and sent nothing; else refused (422). */
  emptyEventsAccepted: boolean;
  /** A replay to a disabled endpoint is accepted (202) and dropped; else refused (409). */
  replayToDisabledAccepted: boolean;
}

export const REFERENCE_PERSONALITY: Personality = {
  name: 'reference',
  lenientContentType: false,
  sessionVerifier: 'jose',
  sessionClockToleranceSeconds: 0,
  metadataStringValuesOnly: false,
  maxBodyBytes: 64 * 1024,
  failedFromStarted: true,
  transcriptMethod: 'GET',
  missingScopeStatus: 403,
  workspaceDisabledStatus: 403,
  problemDetails: false,
  retryJitter: 0,
  newId: (prefix) => newId(prefix),
  emptyScopesRefused: false,
  emptyEventsAccepted: false,
  replayToDisabledAccepted: false,
};

export const ALTERNATE_PERSONALITY: Personality = {
  name: 'alternate',
  lenientContentType: true,
  sessionVerifier: 'jose',
  sessionClockToleranceSeconds: 5,
  metadataStringValuesOnly: true,
  maxBodyBytes: 8 * 1024 * 1024,
  failedFromStarted: false,
  transcriptMethod: 'POST',
  missingScopeStatus: 401,
  workspaceDisabledStatus: 402,
  problemDetails: true,
  retryJitter: 0.04,
  newId: (prefix) => newHexId(prefix),
  emptyScopesRefused: true,
  emptyEventsAccepted: true,
  replayToDisabledAccepted: true,
};

/** `reference` but for session tokens: jsonwebtoken + jwks-rsa, with the 5 s leeway most deployments set. */
export const JSONWEBTOKEN_PERSONALITY: Personality = {
  ...REFERENCE_PERSONALITY,
  name: 'jsonwebtoken',
  sessionVerifier: 'jsonwebtoken',
  sessionClockToleranceSeconds: 5,
};

export function personalityNamed(name: PersonalityName | undefined): Personality {
  if (name === 'alternate') return ALTERNATE_PERSONALITY;
  return name === 'jsonwebtoken' ? JSONWEBTOKEN_PERSONALITY : REFERENCE_PERSONALITY;
}
