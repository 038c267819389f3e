import { newHexId, newId } from './ids.js';

// The reference's two personalities. `reference` (the default) is the behaviour the
// harness was built against; `alternate` makes the other reasonable choice at each point
// the spec leaves open, so the harness can prove it accepts both (README: "Personalities").

export type PersonalityName = 'reference' | 'alternate';

export const PERSONALITY_NAMES: readonly PersonalityName[] = ['reference', 'alternate'];

export interface Personality {
  name: PersonalityName;
  /** POST /v1/voice/calls: a body that parses as JSON is read whatever its Content-Type. */
  lenientContentType: boolean;
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
}

export const REFERENCE_PERSONALITY: Personality = {
  name: 'reference',
  lenientContentType: false,
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
};

export const ALTERNATE_PERSONALITY: Personality = {
  name: 'alternate',
  lenientContentType: true,
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
};

export function personalityNamed(name: PersonalityName | undefined): Personality {
  return name === 'alternate' ? ALTERNATE_PERSONALITY : REFERENCE_PERSONALITY;
}

/** Reads a personality name from a setting ('' or undefined: the default); throws on anything else. */
export function parsePersonality(raw: string | undefined, settingName = 'REFERENCE_PERSONALITY'): PersonalityName | undefined {
  if (raw === undefined || raw === '') return undefined;
  if ((PERSONALITY_NAMES as readonly string[]).includes(raw)) return raw as PersonalityName;
  throw new Error(`${settingName} must be ${PERSONALITY_NAMES.join(' or ')}, got "${raw}"`);
}
