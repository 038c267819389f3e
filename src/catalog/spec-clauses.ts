/**
 * Every normative sentence of ../shared/spec/service-interface.md, with the checks that
 * cover it or the reason none can. docs/traceability.md is generated from this and the
 * catalog (`npm run docs`); a unit test keeps the two in step.
 */

export interface SpecClause {
  section: string;
  text: string;
  checks: string[];
  /** Why no check covers it, or what a check cannot see. */
  note?: string;
}

const s = (section: string, text: string, checks: string[], note?: string): SpecClause => ({ section, text, checks, ...(note ? { note } : {}) });

export const SPEC_CLAUSES: readonly SpecClause[] = [
  s('What the service does, 2', 'All access is scoped to one workspace; a caller who needs two workspaces uses one credential per workspace.', ['TENANT-TRANSCRIPT', 'TENANT-AGENTS', 'SESSION-OTHER-WORKSPACE']),
  s('What the service does, 3', 'The service is reached over HTTPS JSON under the path prefix /v1.', ['AUTH-ERROR-JSON', 'INPUT-UNKNOWN-PATH'], 'HTTPS of the target is the operator\'s choice of SVC_BASE_URL; the embedded reference serves plain HTTP on loopback.'),
  s('What the service does, 4', 'The service pushes notifications to receiver URLs as signed webhook deliveries.', ['HOOK-ENVELOPE', 'HOOK-SIGNATURE-RAW-BODY']),
  s('What the service does, 5', 'Staging mode: same surface, isolated data and no real-world side effects.', ['TOKEN-STAGING-PREFIX'], 'Absence of real-world side effects cannot be observed; calls use reserved fictional numbers (+1 555 01xx).'),
  s('Resources', 'Identifier shapes ws_, agt_, call_, lead_, evt_, req_; token prefixes svc_live_ / svc_test_.', ['HOOK-ENVELOPE', 'INPUT-CALL-AGENTS-LIST', 'INPUT-CALL-PLACED', 'AUTH-ERROR-SHAPE', 'TOKEN-STAGING-PREFIX']),
  s('Resources, call fields', 'voice.call.completed data: call_id, agent_id, to, duration_seconds (integer), outcome, transcript_url, metadata (object).', ['HOOK-CALL-COMPLETED-FIELDS', 'HOOK-METADATA-ROUNDTRIP', 'HOOK-TRANSCRIPT-URL']),
  s('States and transitions, webhook endpoint', 'active -> disabled after 24 hours of consecutive delivery failures; no further deliveries to it.', ['HOOK-AUTO-DISABLE', 'HOOK-DISABLED-SILENT']),
  s('States and transitions, webhook endpoint', 'disabled -> active when re-enabled from the dashboard.', ['HOOK-REENABLE']),
  s('States and transitions, webhook endpoint', 'Delivery retries exhausted (six attempts all failed): endpoint stays active, flagged; the delivery is dropped.', ['HOOK-DROP-AND-FLAG', 'HOOK-RETRY-FULL-SCHEDULE'], 'Ambiguity: "six attempts" beside six retry delays. Seven attempts in all (1 + 6 retries) is accepted; six in all is accepted only if the drop comes no sooner than the 24 h delay after the sixth attempt, so that every delay of the schedule is still used.'),
  s('States and transitions', 'Limit on creating endpoints: 25 active per workspace.', ['HOOK-REG-LIMIT-25']),
  s('States and transitions, bearer token', 'A workspace holds up to two active tokens.', ['TOKEN-LIMIT-TWO']),
  s('States and transitions, bearer token', 'Revoking a token makes requests using it fail with HTTP 401 within one propagation cycle (under one minute).', ['REVOKE-PROPAGATION', 'REVOKE-STAYS-REVOKED']),
  s('States and transitions, call lifecycle', 'Call lifecycle states named by events: queued, started, completed, failed.', ['HOOK-LIFECYCLE-COMPLETED', 'HOOK-LIFECYCLE-FAILED'], 'Transitions between them are not shown; the harness only requires the order queued, started, completed for a call that completes.'),
  s('Endpoints', 'All requests carry Authorization: Bearer <token>; bodies are JSON; POST uses Content-Type: application/json.', ['AUTH-MISSING-HEADER', 'AUTH-WRONG-SCHEME', 'INPUT-MALFORMED-REQUEST']),
  s('Endpoints', 'GET /v1/voice/agents lists agents and requires voice:read.', ['INPUT-CALL-AGENTS-LIST', 'SCOPE-AGENTS-READ']),
  s('Endpoints', 'POST /v1/voice/calls with agent_id (agt_) and to (leading +) places a call and requires voice:write.', ['INPUT-CALL-PLACED', 'INPUT-CALL-INVALID', 'SCOPE-CALLS-WRITE']),
  s('Endpoints', 'GET /v1/whoami answers HTTP 200 when the credential is accepted.', ['AUTH-WHOAMI-ACCEPTED', 'SCOPE-WHOAMI-ANY', 'SESSION-VALID']),
  s('Endpoints', 'The call transcript at /v1/voice/calls/<call_id>/transcript requires voice:read.', ['SCOPE-TRANSCRIPT-READ', 'HOOK-TRANSCRIPT-URL'], 'The method is not shown; the harness uses GET.'),
  s('Endpoints', 'The staging host serves the same paths.', ['AUTH-WHOAMI-ACCEPTED', 'INPUT-CALL-PLACED']),
  s('Endpoints, webhook receiver contract', 'POST to the endpoint URL with a JSON body and headers X-Service-Signature and X-Service-Timestamp; any 2xx acknowledges delivery.', ['HOOK-CONTENT-TYPE', 'HOOK-SIGNATURE-RAW-BODY', 'HOOK-TIMESTAMP-DELIVERY-TIME', 'HOOK-ACK-ANY-2XX']),
  s('Endpoints, not shown', 'Response body shapes, transcript method, mailer paths, pagination: not shown.', ['INPUT-RESPONSE-SHAPES', 'INPUT-ERROR-SHAPE'], 'Recorded as observations; mailer operations have no shown paths and cannot be checked.'),
  s('Authentication', 'Both schemes use Authorization: Bearer and share one workspace identity model, so a permission granted applies under either scheme.', ['SESSION-SCOPES-MATCH']),
  s('Authentication', 'Bearer tokens are long-lived; rotate every 90 days.', [], 'A recommendation to operators; nothing the service does can be observed about it.'),
  s('Authentication', 'Session tokens are short-lived, 60 seconds.', ['SESSION-LIFETIME-61S', 'SESSION-EXPIRED']),
  s('Authentication > Bearer tokens, 1', 'Tokens are created in the workspace dashboard and are valid for one workspace only.', ['TENANT-TRANSCRIPT', 'TENANT-AGENTS']),
  s('Authentication > Bearer tokens, 2', 'svc_live_ tokens are used against base_url; svc_test_ tokens against staging_base_url.', ['TOKEN-STAGING-PREFIX'], 'Whether production refuses a svc_test_ token cannot be checked without a production target.'),
  s('Authentication > Bearer tokens, 3', 'The service scans public code hosting daily for committed svc_live_ tokens and revokes any match.', [], 'Happens outside the API, once a day, against public code hosting: not observable by a harness.'),
  s('Authentication > Bearer tokens, 4', 'A token may be narrowed to a subset of scopes; by default it has all licensed scopes.', ['TOKEN-DEFAULT-SCOPES', 'SCOPE-SUBSET-PROPERTY']),
  s('Authentication > Bearer tokens, scope table', 'voice:read, voice:write, mailer:read, mailer:write, webhooks:write grant the listed operations.', ['SCOPE-AGENTS-READ', 'SCOPE-CALLS-WRITE', 'SCOPE-TRANSCRIPT-READ', 'SCOPE-MISSING-CODE'], 'Mailer and webhook-management operations have no shown paths; their scopes cannot be exercised.'),
  s('Authentication > Session tokens, 1', 'A browser app obtains a signed JWT from an external identity provider.', ['SESSION-VALID', 'SESSION-ES256', 'SESSION-ALG-NONE', 'SESSION-HS256-CONFUSION', 'SESSION-TAMPERED', 'SESSION-MUTATION-PROPERTY']),
  s('Authentication > Session tokens, 2', 'The service validates the JWT against the workspace\'s identity provider and resolves the caller to a member with that member\'s role and scopes.', ['SESSION-SCOPES-MATCH', 'SESSION-WRONG-ISSUER', 'SESSION-WRONG-AUDIENCE', 'SESSION-UNKNOWN-KID', 'SESSION-FOREIGN-KEY', 'SESSION-NOT-MEMBER', 'SESSION-OTHER-WORKSPACE', 'SESSION-NBF-FUTURE', 'SESSION-KEY-ROTATION']),
  s('Authentication > Rotation without downtime', 'Two active tokens at once; whoami answers 200 to both; after revocation the old one fails with 401 within one minute.', ['ROTATION-BOTH-ACTIVE', 'ROTATION-NO-DOWNTIME', 'REVOKE-PROPAGATION']),
  s('Events, registration 1', 'URL must use HTTPS; localhost is rejected.', ['HOOK-REG-HTTPS-ONLY', 'HOOK-REG-LOCALHOST']),
  s('Events, registration 2', 'Each endpoint has its own signing secret.', ['HOOK-OWN-SECRET']),
  s('Events, registration 3', 'An endpoint subscribes to a subset of event types or to the wildcard *.', ['HOOK-SUBSCRIPTION-FILTER', 'HOOK-SUBSCRIPTION-WILDCARD']),
  s('Events, registration 4', 'At most 25 active endpoints per workspace.', ['HOOK-REG-LIMIT-25']),
  s('Events > Envelope', 'id evt_ (unchanged on replay), type, created_at ISO 8601 UTC, workspace_id ws_, api_version YYYY-MM-DD, data object.', ['HOOK-ENVELOPE', 'HOOK-REPLAY-SAME-ID']),
  s('Events > Event types', 'Eight event types fired on the stated occasions.', ['HOOK-ENVELOPE', 'HOOK-LIFECYCLE-COMPLETED', 'HOOK-LIFECYCLE-FAILED'], 'mailer.* and workspace.plan.upgraded are fired through the control interface; their occasions cannot be caused through the public API.'),
  s('Events > Signature, 1', 'X-Service-Signature: lowercase hex HMAC-SHA256 of the raw body keyed with the endpoint\'s secret.', ['HOOK-SIGNATURE-RAW-BODY', 'HOOK-OWN-SECRET']),
  s('Events > Signature, 2', 'X-Service-Timestamp: delivery time in Unix seconds.', ['HOOK-TIMESTAMP-DELIVERY-TIME', 'HOOK-TIMESTAMP-PER-ATTEMPT']),
  s('Events > Signature, 3', 'Receivers reject a timestamp more than 300 s from their clock; the timestamp is not signed.', ['HOOK-TIMESTAMP-NOT-SIGNED', 'HOOK-TIMESTAMP-DELIVERY-TIME'], 'The 300 s rule binds receivers; the receiver certification covers it.'),
  s('Events > Signature, 4', 'Receivers compare signatures in constant time after checking lengths; 401 on mismatch, 2xx (204) on success.', [], 'Binds receivers, not the service; the receiver certification covers it. Constant-time comparison on the service side cannot be observed.'),
  s('Events > Signature, 5', 'Verification must use the raw body, not a re-serialised parsed body.', ['HOOK-SIGNATURE-RAW-BODY']),
  s('Events > Retry and replay, 1', 'A delivery fails on any non-2xx response or a connect/read timeout over 30 seconds.', ['HOOK-RETRY-ON-3XX', 'HOOK-RETRY-ON-4XX', 'HOOK-RETRY-ON-5XX', 'HOOK-RETRY-ON-TIMEOUT', 'HOOK-SLOW-ACK-OK', 'HOOK-TIMEOUT-30S']),
  s('Events > Retry and replay, 2', 'Retries after 1m, 5m, 30m, 2h, 12h, 24h; after six attempts dropped and the endpoint flagged.', ['HOOK-RETRY-EARLY-SCHEDULE', 'HOOK-RETRY-FULL-SCHEDULE', 'HOOK-DROP-AND-FLAG', 'HOOK-RETRY-REAL-TIME', 'HOOK-TIMESTAMP-PER-ATTEMPT']),
  s('Events > Retry and replay, 3', '24 hours of consecutive failures disable the endpoint until re-enabled.', ['HOOK-AUTO-DISABLE', 'HOOK-DISABLED-SILENT', 'HOOK-REENABLE'], 'Ambiguity: whether the 24 h are detected by a timer or at the next failure after them; both are accepted within the tolerance.'),
  s('Events > Retry and replay, 4', 'A replay has the same id, a fresh signature and a fresh timestamp; receivers are idempotent on id.', ['HOOK-REPLAY-SAME-ID', 'HOOK-REPLAY-FRESH']),
  s('Errors', 'Authentication failures return error.code, error.message, error.request_id (req_).', ['AUTH-ERROR-SHAPE', 'AUTH-ERROR-JSON', 'AUTH-REQUEST-ID-UNIQUE', 'AUTH-MALFORMED-PROPERTY']),
  s('Errors', 'invalid_token: credential malformed, expired or revoked: HTTP 401.', ['AUTH-MISSING-HEADER', 'AUTH-MALFORMED-HEADER', 'AUTH-WRONG-SCHEME', 'AUTH-UNKNOWN-TOKEN', 'AUTH-LONG-TOKEN', 'SESSION-EXPIRED', 'REVOKE-PROPAGATION']),
  s('Errors', 'missing_scope: credential valid but lacks the required scope (status not shown).', ['SCOPE-MISSING-CODE', 'SCOPE-MISSING-STATUS']),
  s('Errors', 'workspace_disabled: workspace suspended (status not shown).', ['WS-SUSPENDED-CODE', 'WS-REINSTATED', 'WS-DISABLED-STATUS']),
  s('Errors, rule 1', 'Tests rely on error.code, never on error.message.', [], 'A rule for the harness itself: no check reads error.message beyond its type.'),
  s('Errors, rule 2', 'After a token is revoked, its requests return 401 invalid_token within one minute.', ['REVOKE-PROPAGATION']),
  s('Limits', 'Webhook receiver time-out 30 seconds.', ['HOOK-TIMEOUT-30S', 'HOOK-RETRY-ON-TIMEOUT']),
  s('Limits', 'Bearer token recommended rotation every 90 days.', [], 'A recommendation; not observable.'),
  s('Versioning, 1-3', 'Prefix /v1; api_version in date form; error codes stable across versions.', ['HOOK-ENVELOPE', 'AUTH-ERROR-SHAPE'], 'Stability across versions needs two versions; report:diff of two runs shows changes.'),
];
