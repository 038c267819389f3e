/**
 * The check catalog: the single source of every check's id, title, spec clause and
 * level. Suites refer to checks by id, reports and docs/traceability.md are generated
 * from here, and the fault registry in test/ names the ids each fault must break.
 *
 * Ids are stable across versions: rename a title freely, never an id.
 */

export type Level = 'must' | 'should' | 'observe';

/** Which suite file (suites/<area>.suite.ts) holds the check. */
export type Area =
  | 'auth-errors'
  | 'scopes'
  | 'tokens'
  | 'revocation'
  | 'workspace'
  | 'isolation'
  | 'input'
  | 'session'
  | 'webhook-registration'
  | 'webhook-envelope'
  | 'webhook-signature'
  | 'webhook-delivery'
  | 'webhook-retry'
  | 'webhook-replay';

export interface CheckSpec {
  id: string;
  title: string;
  /** Where in ../shared/spec/service-interface.md the rule is stated ("Section > Sub, item"). */
  clause: string;
  level: Level;
  area: Area;
  /** `full`: only under CERTIFY_TIER=full (real-time waits); reported `skip` in `fast`. */
  tier?: 'full';
}

const c = (id: string, area: Area, level: Level, title: string, clause: string, extra: Partial<CheckSpec> = {}): CheckSpec =>
  ({ id, area, level, title, clause, ...extra });

export const CHECKS: readonly CheckSpec[] = [
  // --- Authentication errors -------------------------------------------------------
  c('AUTH-WHOAMI-ACCEPTED', 'auth-errors', 'must', 'GET /v1/whoami answers 200 to an accepted bearer token',
    'Endpoints (whoami); Authentication > Rotation without downtime, 2'),
  c('AUTH-MISSING-HEADER', 'auth-errors', 'must', 'A request without Authorization gets 401 invalid_token',
    'Endpoints, all requests carry Authorization; Errors (invalid_token, 401)'),
  c('AUTH-MALFORMED-HEADER', 'auth-errors', 'must', 'A malformed Authorization header gets 401 invalid_token',
    'Errors (invalid_token: credential malformed, 401)'),
  c('AUTH-WRONG-SCHEME', 'auth-errors', 'must', 'A scheme other than Bearer gets 401 invalid_token',
    'Authentication (both schemes use Authorization: Bearer); Errors (invalid_token, 401)'),
  c('AUTH-UNKNOWN-TOKEN', 'auth-errors', 'must', 'A well-formed but unknown svc_test_ token gets 401 invalid_token',
    'Errors (invalid_token, 401)'),
  c('AUTH-LONG-TOKEN', 'auth-errors', 'must', 'Tokens of 2 kB and 10 kB get 401 invalid_token, never a 5xx',
    'Errors (invalid_token: credential malformed, 401)'),
  c('AUTH-ERROR-SHAPE', 'auth-errors', 'must', 'Authentication errors carry error.code, error.message and error.request_id (req_)',
    'Errors (error.code, error.message, error.request_id)'),
  c('AUTH-ERROR-JSON', 'auth-errors', 'should', 'Authentication errors are served as application/json',
    'Errors (authentication failures return a JSON body); What the service does, 3'),
  c('AUTH-REQUEST-ID-UNIQUE', 'auth-errors', 'should', 'Every error carries its own request id',
    'Resources (Request: req_<id>, error correlation)'),
  c('AUTH-MALFORMED-PROPERTY', 'auth-errors', 'must', 'Generated malformed credentials always get 401 invalid_token with the error shape',
    'Errors (invalid_token: credential malformed, 401; error shape)'),

  // --- Scopes ------------------------------------------------------------------------
  c('SCOPE-AGENTS-READ', 'scopes', 'must', 'GET /v1/voice/agents is allowed exactly to tokens holding voice:read',
    'Endpoints (agents requires voice:read); Authentication > Bearer tokens, scope table'),
  c('SCOPE-CALLS-WRITE', 'scopes', 'must', 'POST /v1/voice/calls is allowed exactly to tokens holding voice:write',
    'Endpoints (calls requires voice:write); Authentication > Bearer tokens, scope table'),
  c('SCOPE-TRANSCRIPT-READ', 'scopes', 'must', 'A call transcript is readable exactly by tokens holding voice:read',
    'Endpoints (transcript requires voice:read); Authentication > Bearer tokens, scope table'),
  c('SCOPE-WHOAMI-ANY', 'scopes', 'must', 'whoami answers 200 to a token of any single scope',
    'Endpoints (whoami: 200 when the credential is accepted)'),
  c('SCOPE-MISSING-CODE', 'scopes', 'must', 'A valid token lacking the scope gets a 4xx with code missing_scope and the error shape',
    'Errors (missing_scope); Errors, rule 1'),
  c('SCOPE-SUBSET-PROPERTY', 'scopes', 'must', 'For generated scope subsets, each endpoint is allowed exactly when its scope is held',
    'Authentication > Bearer tokens, 4 and scope table'),
  c('SCOPE-MISSING-STATUS', 'scopes', 'observe', 'HTTP status used for missing_scope',
    'Errors (missing_scope: HTTP status not shown)'),

  // --- Tokens and rotation -----------------------------------------------------------
  c('TOKEN-LIMIT-TWO', 'tokens', 'must', 'A workspace holds at most two active tokens; a slot frees on revocation',
    'States and transitions (Bearer token: up to two active); Limits (2)'),
  c('TOKEN-DEFAULT-SCOPES', 'tokens', 'must', 'A token created without scopes has exactly the licensed scopes',
    'Authentication > Bearer tokens, 4'),
  c('TOKEN-STAGING-PREFIX', 'tokens', 'must', 'Staging tokens carry svc_test_ (production svc_live_)',
    'Authentication > Bearer tokens, 2; Resources (Bearer token prefix)'),
  c('ROTATION-BOTH-ACTIVE', 'tokens', 'must', 'With two active tokens, whoami answers 200 to both',
    'Authentication > Rotation without downtime, 1-2'),
  c('ROTATION-NO-DOWNTIME', 'tokens', 'must', 'Steady traffic on the new token sees no failure while the old one is revoked',
    'Authentication > Rotation without downtime'),

  // --- Revocation --------------------------------------------------------------------
  c('REVOKE-PROPAGATION', 'revocation', 'must', 'A revoked token answers 401 invalid_token within 60 s, on fresh and kept-alive connections',
    'Authentication > Rotation without downtime, 3; Errors > Rules, 2; Limits (under 1 minute)'),
  c('REVOKE-STAYS-REVOKED', 'revocation', 'must', 'After the first 401, a revoked token never gets a 200 again',
    'States and transitions (Bearer token: revoking makes requests fail with 401)'),

  // --- Workspace suspension ----------------------------------------------------------
  c('WS-SUSPENDED-CODE', 'workspace', 'must', 'A suspended workspace answers workspace_disabled with a 4xx and the error shape',
    'Errors (workspace_disabled)'),
  c('WS-REINSTATED', 'workspace', 'must', 'After reinstatement the workspace answers 200 again',
    'Errors (workspace_disabled: suspended); control interface reinstate'),
  c('WS-DISABLED-STATUS', 'workspace', 'observe', 'HTTP status used for workspace_disabled',
    'Errors (workspace_disabled: HTTP status not shown)'),

  // --- Tenant isolation --------------------------------------------------------------
  c('TENANT-TRANSCRIPT', 'isolation', 'must', "A token never reads another workspace's call transcript",
    'What the service does, 2; Authentication > Bearer tokens, 1'),
  c('TENANT-AGENTS', 'isolation', 'must', "A token never lists or places calls with another workspace's agents",
    'What the service does, 2; Authentication > Bearer tokens, 1'),

  // --- Input handling ----------------------------------------------------------------
  c('INPUT-CALL-AGENTS-LIST', 'input', 'must', 'GET /v1/voice/agents answers 2xx with agt_ ids',
    'Endpoints (agents); Resources (Agent agt_<id>)'),
  c('INPUT-CALL-PLACED', 'input', 'must', 'POST /v1/voice/calls with agent_id and to answers 2xx with a call_ id',
    'Endpoints (calls); Resources (Call call_<id>)'),
  c('INPUT-CALL-INVALID', 'input', 'must', 'Invalid call bodies get a 4xx, never a 2xx or a 5xx',
    'Endpoints (calls request: agent_id agt_, to with leading +)'),
  c('INPUT-MALFORMED-REQUEST', 'input', 'must', 'Malformed JSON, wrong content type, huge bodies and odd headers get a 4xx, never a 5xx',
    'Endpoints (bodies are JSON; POST uses Content-Type: application/json)'),
  c('INPUT-UNKNOWN-PATH', 'input', 'should', 'An unknown path under /v1 gets a 4xx', 'What the service does, 3'),
  c('INPUT-ERROR-SHAPE', 'input', 'observe', 'Status and body shape of validation errors',
    'Errors, rule 3 (non-authentication errors: not shown)'),
  c('INPUT-RESPONSE-SHAPES', 'input', 'observe', 'Response shapes of agents list and call creation',
    'Endpoints, not shown (response body shapes)'),

  // --- Session tokens ----------------------------------------------------------------
  c('SESSION-VALID', 'session', 'must', 'A valid session JWT of a member gets 200 on whoami', 'Authentication > Session tokens, 1-2'),
  c('SESSION-SCOPES-MATCH', 'session', 'must', "A session token gets exactly its member's scopes, as a bearer token would",
    'Authentication (a permission granted applies under either scheme); Session tokens, 2'),
  c('SESSION-ES256', 'session', 'must', 'Session JWTs signed with ES256 and RS256 are both accepted', 'Authentication > Session tokens, 1'),
  c('SESSION-EXPIRED', 'session', 'must', 'An expired session token gets 401 invalid_token', 'Errors (invalid_token: expired); Limits (60 s)'),
  c('SESSION-LIFETIME-61S', 'session', 'must', 'A session token issued 61 s ago (60 s lifetime) is refused', 'Authentication (session token lifetime 60 seconds)'),
  c('SESSION-NBF-FUTURE', 'session', 'must', 'A session token not yet valid (nbf in the future) is refused', 'Authentication > Session tokens, 2'),
  c('SESSION-WRONG-ISSUER', 'session', 'must', 'A session token from another issuer is refused', 'Authentication > Session tokens, 2'),
  c('SESSION-WRONG-AUDIENCE', 'session', 'must', 'A session token for another audience is refused', 'Authentication > Session tokens, 2'),
  c('SESSION-UNKNOWN-KID', 'session', 'must', 'A session token naming an unknown kid is refused', 'Authentication > Session tokens, 2'),
  c('SESSION-FOREIGN-KEY', 'session', 'must', 'A session token signed with a key not in the JWKS is refused', 'Authentication > Session tokens, 2'),
  c('SESSION-TAMPERED', 'session', 'must', 'A session token with a tampered payload or signature is refused', 'Authentication > Session tokens, 1-2'),
  c('SESSION-ALG-NONE', 'session', 'must', 'An unsigned session token (alg none) is refused', 'Authentication > Session tokens, 1-2'),
  c('SESSION-HS256-CONFUSION', 'session', 'must', 'An HS256 token keyed with the public key is refused', 'Authentication > Session tokens, 1-2'),
  c('SESSION-NOT-MEMBER', 'session', 'must', 'A session token whose sub is not a member is refused', 'Authentication > Session tokens, 2'),
  c('SESSION-OTHER-WORKSPACE', 'session', 'must', "A session token from another workspace's provider is refused", 'Authentication > Session tokens, 2; What the service does, 2'),
  c('SESSION-MUTATION-PROPERTY', 'session', 'must', 'Random mutations of a valid session token never get a 2xx or a 5xx', 'Authentication > Session tokens, 1-2'),
  c('SESSION-KEY-ROTATION', 'session', 'should', 'A newly added signing key is accepted and a removed one refused within 60 s', 'Authentication > Session tokens, 2'),

  // --- Webhook registration -----------------------------------------------------------
  c('HOOK-REG-HTTPS-ONLY', 'webhook-registration', 'must', 'An endpoint URL that is not HTTPS is refused', 'Events > Endpoint registration rules, 1'),
  c('HOOK-REG-LOCALHOST', 'webhook-registration', 'must', 'An endpoint URL on localhost is refused', 'Events > Endpoint registration rules, 1'),
  c('HOOK-REG-LIMIT-25', 'webhook-registration', 'must', '25 active endpoints are accepted and a 26th refused', 'Events > Endpoint registration rules, 4; Limits (25)'),
  c('HOOK-OWN-SECRET', 'webhook-registration', 'must', "Each endpoint's deliveries are signed with its own secret", 'Events > Endpoint registration rules, 2'),

  // --- Webhook envelope and events ------------------------------------------------------
  c('HOOK-ENVELOPE', 'webhook-envelope', 'must', 'Every one of the eight event types arrives in the specified envelope', 'Events > Envelope; Events > Event types'),
  c('HOOK-CALL-COMPLETED-FIELDS', 'webhook-envelope', 'must', 'voice.call.completed carries every call field with its type', 'Resources (call fields); Events > Event types'),
  c('HOOK-METADATA-ROUNDTRIP', 'webhook-envelope', 'must', "The caller's metadata comes back in voice.call.completed", 'Resources (call fields: metadata)'),
  c('HOOK-TRANSCRIPT-URL', 'webhook-envelope', 'must', 'transcript_url has the specified form and answers with the transcript', 'Resources (call fields: transcript_url); Endpoints (transcript)'),
  c('HOOK-LIFECYCLE-COMPLETED', 'webhook-envelope', 'must', 'A completed call emits queued, started and completed', 'States and transitions (call lifecycle); Events > Event types'),
  c('HOOK-LIFECYCLE-FAILED', 'webhook-envelope', 'must', 'A failed call emits voice.call.failed and never completed', 'Events > Event types (voice.call.failed)'),
  c('HOOK-SUBSCRIPTION-FILTER', 'webhook-envelope', 'must', 'An endpoint receives exactly the event types it subscribed to', 'Events > Endpoint registration rules, 3'),
  c('HOOK-SUBSCRIPTION-WILDCARD', 'webhook-envelope', 'must', 'An endpoint subscribed to * receives every event type', 'Events > Endpoint registration rules, 3'),
  c('HOOK-CONTENT-TYPE', 'webhook-envelope', 'should', 'Deliveries are sent with a JSON content type', 'Endpoints (webhook receiver contract: JSON body)'),

  // --- Signatures and timestamps ------------------------------------------------------
  c('HOOK-SIGNATURE-RAW-BODY', 'webhook-signature', 'must', 'X-Service-Signature is the lowercase hex HMAC-SHA256 of the raw body', 'Events > Signature, 1 and 5'),
  c('HOOK-TIMESTAMP-DELIVERY-TIME', 'webhook-signature', 'must', 'X-Service-Timestamp is the delivery time in Unix seconds', 'Events > Signature, 2-3'),
  c('HOOK-TIMESTAMP-NOT-SIGNED', 'webhook-signature', 'must', 'The timestamp is not part of the signed content', 'Events > Signature, 3'),
  c('HOOK-TIMESTAMP-PER-ATTEMPT', 'webhook-signature', 'must', 'Each retry carries its own fresh timestamp', 'Events > Signature, 2; Events > Retry and replay, 2'),

  // --- Delivery outcomes -------------------------------------------------------------
  c('HOOK-ACK-ANY-2XX', 'webhook-delivery', 'must', 'Any 2xx (200, 201, 202, 204) acknowledges a delivery: no retry', 'Endpoints (any 2xx acknowledges delivery)'),
  c('HOOK-RETRY-ON-3XX', 'webhook-delivery', 'must', 'A 3xx answer is a failure and is retried', 'Events > Retry and replay, 1'),
  c('HOOK-RETRY-ON-4XX', 'webhook-delivery', 'must', 'A 4xx answer is a failure and is retried', 'Events > Retry and replay, 1'),
  c('HOOK-RETRY-ON-5XX', 'webhook-delivery', 'must', 'A 5xx answer is a failure and is retried', 'Events > Retry and replay, 1'),
  c('HOOK-RETRY-ON-TIMEOUT', 'webhook-delivery', 'must', 'A receiver slower than the delivery time-out is a failure and is retried', 'Events > Retry and replay, 1; Limits (30 s)'),
  c('HOOK-SLOW-ACK-OK', 'webhook-delivery', 'must', 'A 2xx slower than usual but within the time-out acknowledges', 'Events > Retry and replay, 1; Limits (30 s)'),
  c('HOOK-TIMEOUT-30S', 'webhook-delivery', 'must', 'The real time-out: a 2xx after 25 s acknowledges, no answer in 35 s is retried', 'Limits (webhook receiver time-out 30 s)', { tier: 'full' }),

  // --- Retries, drop, disable ------------------------------------------------------------
  c('HOOK-RETRY-EARLY-SCHEDULE', 'webhook-retry', 'must', 'The first retries arrive 1 min and 5 min (scaled) after the failures', 'Events > Retry and replay, 2'),
  c('HOOK-RETRY-FULL-SCHEDULE', 'webhook-retry', 'must', 'All retries arrive on the 1m, 5m, 30m, 2h, 12h, 24h schedule (scaled), then no more', 'Events > Retry and replay, 2; Limits'),
  c('HOOK-DROP-AND-FLAG', 'webhook-retry', 'must', 'After the last attempt the delivery is dropped and the endpoint flagged, still active', 'States and transitions (retries exhausted); Events > Retry and replay, 2'),
  c('HOOK-AUTO-DISABLE', 'webhook-retry', 'must', '24 h (scaled) of consecutive failures disable the endpoint', 'States and transitions; Events > Retry and replay, 3'),
  c('HOOK-DISABLED-SILENT', 'webhook-retry', 'must', 'A disabled endpoint receives no deliveries', 'States and transitions (no further deliveries to it)'),
  c('HOOK-REENABLE', 'webhook-retry', 'must', 'A re-enabled endpoint is active and receives deliveries again', 'States and transitions (disabled -> active)'),
  c('HOOK-RETRY-REAL-TIME', 'webhook-retry', 'must', 'Un-scaled: the first retry arrives 1 minute after the failure', 'Events > Retry and replay, 2', { tier: 'full' }),

  // --- Replay ------------------------------------------------------------------------
  c('HOOK-REPLAY-SAME-ID', 'webhook-replay', 'must', 'A replayed delivery carries the same event id and envelope', 'Events > Retry and replay, 4; Events > Envelope (id unchanged on replay)'),
  c('HOOK-REPLAY-FRESH', 'webhook-replay', 'must', 'A replay carries a fresh timestamp and a valid fresh signature', 'Events > Retry and replay, 4'),
];

const byId = new Map(CHECKS.map((check) => [check.id, check]));

export function getCheck(id: string): CheckSpec {
  const check = byId.get(id);
  if (!check) throw new Error(`unknown check id ${id}: add it to src/catalog/checks.ts first`);
  return check;
}

export function checksOfArea(area: Area): CheckSpec[] {
  return CHECKS.filter((check) => check.area === area);
}
