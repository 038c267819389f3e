/**
 * Every normative sentence of ../shared/spec/service-interface.md, keyed by a stable id,
 * with its section and the spec's own words. Checks cite these ids (src/catalog/checks.ts);
 * which checks cover a clause is generated from the catalog, never kept here.
 *
 * Id scheme: a prefix per section (below), then the item's number for a numbered item
 * (`SIG-4`: Events > Signature, item 4), the row's key for a table row
 * (`ERR-CODE-INVALID-TOKEN`, `LIMIT-RECEIVER-TIMEOUT`) or a short name for a sentence of
 * running text (`EP-STAGING`). Ids are stable: reword a text to follow the spec, never an id.
 *
 *   SVC-n           What the service does, item n
 *   RES-*           Resources (resource table); CALL-FIELD-* its call field table
 *   STATE-*         States and transitions
 *   EP-*            Endpoints; EP-RECEIVER* the webhook receiver contract; EP-NOT-SHOWN-* its "Not shown" list
 *   AUTH-*          Authentication: AUTH-SCHEME-* scheme table, AUTH-TOKEN-n Bearer tokens,
 *                   AUTH-SCOPE-* scope table, AUTH-SESSION-n Session tokens, AUTH-ROT-n Rotation without downtime
 *   EVT-DELIVERY    Events (opening sentence); REG-n Endpoint registration rules; ENV-* Envelope table;
 *                   TYPE-* Event types table; SIG-n Signature; RETRY-n Retry and replay
 *   ERR-*           Errors: ERR-SHAPE and ERR-FIELD-* the error body, ERR-CODE-* code table, ERR-RULE-n Rules
 *   LIMIT-*         Limits table
 *   VER-n           Versioning, item n
 *
 * `text` quotes the spec: a numbered item without its number, a table row's cells joined
 * by " | ", or a sentence as written. A unit test holds every text against the spec.
 *
 *   CTL-*           The control contract's sentences (contract-clauses.ts), cited like these
 */

import { CatalogError } from '../errors.js';
import type { SpecClause } from './clause.js';
import { CONTRACT_CLAUSE_DATA } from './contract-clauses.js';

const ABOUT = 'What the service does';
const RES = 'Resources';
const CALL = 'Resources > Call fields';
const STATE_ENDPOINT = 'States and transitions > Webhook endpoint';
const STATE_TOKEN = 'States and transitions > Bearer token';
const EP = 'Endpoints';
const EP_RECEIVER = 'Endpoints > Webhook receiver contract';
const EP_NOT_SHOWN = 'Endpoints > Not shown';
const SCHEMES = 'Authentication > Schemes';
const TOKENS = 'Authentication > Bearer tokens';
const SCOPES = 'Authentication > Bearer tokens > Scopes';
const SESSION = 'Authentication > Session tokens';
const ROTATION = 'Authentication > Rotation without downtime';
const REG = 'Events > Endpoint registration rules';
const ENV = 'Events > Envelope';
const TYPES = 'Events > Event types';
const SIG = 'Events > Signature';
const RETRY = 'Events > Retry and replay';
const ERR_BODY = 'Errors > Error body';
const ERR_CODES = 'Errors > Codes';
const ERR_RULES = 'Errors > Rules';
const LIMITS = 'Limits';
const VERSIONING = 'Versioning';

const NOT_SHOWN = 'Not shown: nothing to check.';
const OPERATOR_ONLY = 'A recommendation to operators; nothing the service does can be observed about it.';
const NO_MAILER_PATHS =
  'Mailer and webhook-management operations have no shown paths; their scopes cannot be exercised.';
const CONTROL_FIRED =
  'Fired through the control interface; its occasion cannot be caused through the public API. HOOK-ENVELOPE checks its envelope.';

const CLAUSE_DATA = {
  // --- What the service does -------------------------------------------------------------
  'SVC-1': {
    section: ABOUT,
    text: 'The service is a workspace-based platform with two product areas: a voice area (agents, outbound calls, transcripts) and a mailer area (campaigns, leads, generated emails, replies).',
    note: 'Describes the product; the endpoints and events below say what can be checked.',
  },
  'SVC-2': {
    section: ABOUT,
    text: 'All access is scoped to one workspace. There is no account level above the workspace; a caller who needs two workspaces uses one credential per workspace.',
  },
  'SVC-3': {
    section: ABOUT,
    text: 'The service is reached over HTTPS JSON under the path prefix `/v1`.',
    note: "HTTPS of the target is the operator's choice of SVC_BASE_URL; the embedded reference serves plain HTTP on loopback.",
  },
  'SVC-4': {
    section: ABOUT,
    text: 'The service pushes notifications about things that happen (calls, emails, replies, campaigns, plan changes) to receiver URLs as signed webhook deliveries (see Events).',
    note: 'Stated in detail under Events; the webhook checks cite those clauses (ENV-*, TYPE-*, SIG-*).',
  },
  'SVC-5': {
    section: ABOUT,
    text: 'Staging mode: a staging host with the same surface, isolated data and no real-world side effects (no calls dialled, no emails sent).',
    note: 'Absence of real-world side effects cannot be observed; calls use reserved fictional numbers (+1 555 01xx).',
  },
  'SVC-6': {
    section: ABOUT,
    text: 'Behaviour of the voice and mailer products beyond what the scopes, endpoints and events below imply: not shown.',
    note: NOT_SHOWN,
  },

  // --- Resources -----------------------------------------------------------------------------
  'RES-WORKSPACE': {
    section: RES,
    text: 'Workspace | `ws_<id>` | identifier only',
    note: 'Checked where ids appear: the envelope (ENV-WORKSPACE-ID).',
  },
  'RES-AGENT': { section: RES, text: 'Agent (voice) | `agt_<id>` | identifier only' },
  'RES-CALL': { section: RES, text: 'Call (voice) | `call_<id>` | see call fields below' },
  'RES-LEAD': {
    section: RES,
    text: 'Lead (mailer) | `lead_<id>` | identifier only',
    note: 'Mailer operations have no shown paths; no lead id can be obtained.',
  },
  'RES-EVENT': {
    section: RES,
    text: 'Event (webhook delivery payload) | `evt_<id>` | see Events',
    note: 'Checked where ids appear: the envelope (ENV-ID).',
  },
  'RES-REQUEST': { section: RES, text: 'Request (error correlation) | `req_<id>` | identifier only, in error bodies' },
  'RES-TOKEN': {
    section: RES,
    text: 'Bearer token | prefix `svc_live_` or `svc_test_` | secret string, label (free text chosen at creation), scopes',
  },
  'RES-ENDPOINT': {
    section: RES,
    text: 'Webhook endpoint | not shown | URL (HTTPS), subscribed event types (list or wildcard `*`), own signing secret',
    note: 'Stated as rules under Events > Endpoint registration rules (REG-1 to REG-3), which the checks cite.',
  },
  'RES-NOT-SHOWN': {
    section: RES,
    text: 'Fields of agent, lead, campaign, generated-email and reply records beyond their identifiers: not shown.',
    note: NOT_SHOWN,
  },
  'CALL-FIELD-CALL-ID': { section: CALL, text: 'call_id | string | `call_<id>`' },
  'CALL-FIELD-AGENT-ID': { section: CALL, text: 'agent_id | string | `agt_<id>`' },
  'CALL-FIELD-TO': {
    section: CALL,
    text: 'to | string | destination phone number in international format with leading `+`',
  },
  'CALL-FIELD-DURATION-SECONDS': { section: CALL, text: 'duration_seconds | integer | length of the call in seconds' },
  'CALL-FIELD-OUTCOME': {
    section: CALL,
    text: 'outcome | string | example value `answered`; full set of values not shown',
  },
  'CALL-FIELD-TRANSCRIPT-URL': {
    section: CALL,
    text: 'transcript_url | string (URL) | URL under `{base_url}/v1/voice/calls/<call_id>/transcript` form',
  },
  'CALL-FIELD-METADATA': {
    section: CALL,
    text: 'metadata | object | caller-supplied key/value data, for example a `lead_id` entry; its keys are free-form',
  },

  // --- States and transitions -------------------------------------------------------------------
  'STATE-ENDPOINT-DISABLE': {
    section: STATE_ENDPOINT,
    text: 'active | consecutive delivery failures | failures last 24 hours | disabled | no further deliveries to it',
  },
  'STATE-ENDPOINT-REENABLE': {
    section: STATE_ENDPOINT,
    text: 'disabled | re-enable from the dashboard | receiver is back | active | none stated',
  },
  'STATE-ENDPOINT-FLAG': {
    section: STATE_ENDPOINT,
    text: 'active | delivery retries exhausted | six attempts all failed | active (flagged in dashboard) | that delivery is dropped',
    note: 'Ambiguity: "six attempts" beside six retry delays. Seven attempts in all (1 + 6 retries) is accepted; six in all is accepted only if the drop comes no sooner than the 24 h delay after the sixth attempt, so that every delay of the schedule is still used.',
  },
  'STATE-ENDPOINT-LIMIT': {
    section: STATE_ENDPOINT,
    text: 'Limit on creating endpoints: 25 active per workspace.',
    note: 'The same limit as REG-4 and LIMIT-ENDPOINTS, which HOOK-REG-LIMIT-25 cites.',
  },
  'STATE-TOKEN-LIMIT': { section: STATE_TOKEN, text: 'Bearer token: a workspace holds up to two active tokens.' },
  'STATE-TOKEN-REVOKE': {
    section: STATE_TOKEN,
    text: 'Revoking a token makes requests using it fail with HTTP 401 within one propagation cycle (under one minute).',
  },
  'STATE-CALL': {
    section: 'States and transitions > Call lifecycle',
    text: 'Call lifecycle states, named by events: queued, started, completed, failed. Transitions between them: not shown.',
    note: 'Transitions between them are not shown; the harness only requires the order queued, started, completed for a call that completes.',
  },
  'STATE-CAMPAIGN': {
    section: 'States and transitions > Campaign and lead',
    text: 'Campaign and lead states: only the existence of a terminal state for a lead is shown (a campaign is complete when every lead is terminal); the state names and moves: not shown.',
    note: 'Mailer operations have no shown paths; mailer.campaign.completed is fired through the control interface.',
  },

  // --- Endpoints -------------------------------------------------------------------------------
  'EP-AUTH-HEADER': { section: EP, text: 'All requests carry `Authorization: Bearer <token>` (see Authentication).' },
  'EP-JSON': { section: EP, text: 'Bodies are JSON; POST requests use `Content-Type: application/json`.' },
  'EP-AGENTS': {
    section: EP,
    text: 'GET | `{base_url}/v1/voice/agents` | no body | list of agents (requires `voice:read`)',
  },
  'EP-CALLS': {
    section: EP,
    text: 'POST | `{base_url}/v1/voice/calls` | JSON object: `agent_id` (string, `agt_<id>`), `to` (string, phone number with leading `+`) | places a call (requires `voice:write`)',
  },
  'EP-WHOAMI': {
    section: EP,
    text: 'GET | `{base_url}/v1/whoami` | no body | HTTP 200 when the credential is accepted',
  },
  'EP-TRANSCRIPT': {
    section: EP,
    text: '(method not given) | `{base_url}/v1/voice/calls/<call_id>/transcript` | none | transcript of the call (requires `voice:read`)',
    note: 'The method is not shown; the harness uses GET.',
  },
  'EP-STAGING': {
    section: EP,
    text: 'The staging host `{staging_base_url}` serves the same paths.',
    note: 'A run targets one host (normally staging); that both hosts serve the same paths cannot be compared without a production target.',
  },
  'EP-RECEIVER': {
    section: EP_RECEIVER,
    text: 'Webhook receiver contract (the service calls the receiver): POST to the endpoint URL with a JSON body (the envelope in Events) and headers `X-Service-Signature` and `X-Service-Timestamp`.',
  },
  'EP-RECEIVER-ACK': { section: EP_RECEIVER, text: 'Any 2xx response acknowledges delivery.' },
  'EP-NOT-SHOWN-RESPONSES': {
    section: EP_NOT_SHOWN,
    text: 'Response body shapes of the operations above, including call creation: not shown.',
  },
  'EP-NOT-SHOWN-TRANSCRIPT': {
    section: EP_NOT_SHOWN,
    text: 'Transcript retrieval method and response shape: not shown.',
    note: 'Not shown; the harness uses GET (EP-TRANSCRIPT).',
  },
  'EP-NOT-SHOWN-MAILER': {
    section: EP_NOT_SHOWN,
    text: 'Paths and payloads of mailer operations (read campaigns, leads, generated emails; push leads, start research, queue sends) and of webhook endpoint management over the API: not shown.',
    note: 'Mailer operations have no shown paths and cannot be checked; endpoints are managed through the control interface.',
  },
  'EP-NOT-SHOWN-LISTS': {
    section: EP_NOT_SHOWN,
    text: 'Query parameters, pagination and filtering of list operations: not shown.',
    note: NOT_SHOWN,
  },

  // --- Authentication ------------------------------------------------------------------------
  'AUTH-SCHEMES': {
    section: 'Authentication',
    text: 'Both use `Authorization: Bearer <token>` and share one workspace identity model, so a permission granted applies under either scheme.',
  },
  'AUTH-SCHEME-BEARER': {
    section: SCHEMES,
    text: 'Bearer token | server-to-server (scripts, scheduled jobs, integrations) | long-lived; rotate every 90 days',
    note: OPERATOR_ONLY,
  },
  'AUTH-SCHEME-SESSION': {
    section: SCHEMES,
    text: "Session token | browser apps acting for a logged-in end user | short-lived, 60 seconds; refreshed by the identity provider's client SDK",
  },
  'AUTH-TOKEN-1': {
    section: TOKENS,
    text: 'Tokens are created in the workspace dashboard and are valid for one workspace only.',
  },
  'AUTH-TOKEN-2': {
    section: TOKENS,
    text: 'Token prefixes: `svc_live_` tokens are used against `{base_url}`; `svc_test_` tokens are used against `{staging_base_url}`.',
    note: 'Whether production refuses a svc_test_ token cannot be checked without a production target.',
  },
  'AUTH-TOKEN-3': {
    section: TOKENS,
    text: 'Tokens are secrets. The service scans public code hosting daily for committed `svc_live_` tokens and revokes any match automatically.',
    note: 'Happens outside the API, once a day, against public code hosting: not observable by a harness.',
  },
  'AUTH-TOKEN-4': {
    section: TOKENS,
    text: 'A token may be narrowed to a subset of scopes; by default a token has all scopes the workspace is licensed for.',
  },
  'AUTH-SCOPE-VOICE-READ': { section: SCOPES, text: 'voice:read | list agents, calls, transcripts' },
  'AUTH-SCOPE-VOICE-WRITE': {
    section: SCOPES,
    text: 'voice:write | place calls, modify agents, update prompts',
    note: 'Only placing calls has a shown path; modifying agents and updating prompts cannot be exercised.',
  },
  'AUTH-SCOPE-MAILER-READ': {
    section: SCOPES,
    text: 'mailer:read | read campaigns, leads, generated emails',
    note: NO_MAILER_PATHS,
  },
  'AUTH-SCOPE-MAILER-WRITE': {
    section: SCOPES,
    text: 'mailer:write | push leads, start research, queue sends',
    note: NO_MAILER_PATHS,
  },
  'AUTH-SCOPE-WEBHOOKS-WRITE': {
    section: SCOPES,
    text: 'webhooks:write | create and rotate webhook endpoints',
    note: NO_MAILER_PATHS,
  },
  'AUTH-SESSION-1': {
    section: SESSION,
    text: 'A browser app obtains a signed JWT from an external identity provider using a template that the workspace owner configures once in that provider (template name: <TEMPLATE_NAME>).',
  },
  'AUTH-SESSION-2': {
    section: SESSION,
    text: "The service validates the JWT against the identity provider instance configured for the workspace and resolves the caller to a workspace member, with that member's role and scopes.",
  },
  'AUTH-SESSION-3': { section: SESSION, text: 'Member roles and their scope mapping: not shown.', note: NOT_SHOWN },
  'AUTH-ROT-1': { section: ROTATION, text: 'A workspace supports two active tokens at once.' },
  'AUTH-ROT-2': {
    section: ROTATION,
    text: 'Steps: create a new token with a label; deploy it everywhere and confirm `GET /v1/whoami` returns 200 with both old and new credentials; revoke the old token.',
  },
  'AUTH-ROT-3': {
    section: ROTATION,
    text: 'After revocation, requests with the old token fail with 401 within under one minute.',
  },

  // --- Events ----------------------------------------------------------------------------------
  'EVT-DELIVERY': {
    section: 'Events',
    text: 'Delivery: each event is an HTTP POST with a JSON body to a receiver URL registered per endpoint.',
  },
  'REG-1': { section: REG, text: 'URL must use HTTPS; `localhost` is rejected.' },
  'REG-2': { section: REG, text: 'Each endpoint has its own signing secret (<SIGNING_SECRET>).' },
  'REG-3': { section: REG, text: 'An endpoint subscribes to a chosen subset of event types or to the wildcard `*`.' },
  'REG-4': { section: REG, text: 'At most 25 active endpoints per workspace.' },
  'ENV-ID': { section: ENV, text: 'id | string | `evt_<id>`; unchanged on replay; the idempotency key' },
  'ENV-TYPE': { section: ENV, text: 'type | string | one of the event types below' },
  'ENV-CREATED-AT': { section: ENV, text: 'created_at | string | ISO 8601 UTC timestamp' },
  'ENV-WORKSPACE-ID': { section: ENV, text: 'workspace_id | string | `ws_<id>`' },
  'ENV-API-VERSION': { section: ENV, text: 'api_version | string | date-form version, `YYYY-MM-DD`' },
  'ENV-DATA': { section: ENV, text: 'data | object | varies by type' },
  'TYPE-VOICE-CALL-QUEUED': {
    section: TYPES,
    text: 'voice.call.queued | call accepted, waiting for carrier dial-out | not shown',
  },
  'TYPE-VOICE-CALL-STARTED': {
    section: TYPES,
    text: 'voice.call.started | remote party picked up; marks the start of billable minutes | not shown',
  },
  'TYPE-VOICE-CALL-COMPLETED': {
    section: TYPES,
    text: 'voice.call.completed | call ended cleanly | call fields listed in Resources (call_id, agent_id, to, duration_seconds, outcome, transcript_url, metadata)',
  },
  'TYPE-VOICE-CALL-FAILED': {
    section: TYPES,
    text: 'voice.call.failed | call did not connect (no answer, busy, blocked, carrier error) | not shown',
  },
  'TYPE-MAILER-EMAIL-SENT': {
    section: TYPES,
    text: 'mailer.email.sent | a generated email cleared the throttle and was sent through an email delivery provider | not shown',
    note: CONTROL_FIRED,
  },
  'TYPE-MAILER-REPLY-RECEIVED': {
    section: TYPES,
    text: 'mailer.reply.received | a prospect replied | includes the parsed reply body and a sentiment value; field names not shown',
    note: CONTROL_FIRED,
  },
  'TYPE-MAILER-CAMPAIGN-COMPLETED': {
    section: TYPES,
    text: 'mailer.campaign.completed | every lead in a campaign has reached a terminal state | not shown',
    note: CONTROL_FIRED,
  },
  'TYPE-WORKSPACE-PLAN-UPGRADED': {
    section: TYPES,
    text: 'workspace.plan.upgraded | workspace moved to a higher tier | not shown',
    note: CONTROL_FIRED,
  },
  'SIG-1': {
    section: SIG,
    text: "`X-Service-Signature`: lowercase hex HMAC-SHA256 of the raw, unparsed request body, keyed with the endpoint's signing secret.",
  },
  'SIG-2': { section: SIG, text: '`X-Service-Timestamp`: delivery time in Unix seconds.' },
  'SIG-3': {
    section: SIG,
    text: 'A receiver rejects a delivery when the absolute difference between its clock and the timestamp exceeds 300 seconds (replay protection). The timestamp is not part of the signed content.',
    note: 'The 300 s rule binds receivers; the receiver certification covers it.',
  },
  'SIG-4': {
    section: SIG,
    text: 'A receiver compares signatures in constant time, after checking lengths are equal; on mismatch it rejects the delivery (the reference receiver answers 401). On success it answers with a 2xx status (the reference receiver answers 204).',
    note: 'Binds receivers, not the service; the receiver certification covers it. Constant-time comparison on the service side cannot be observed.',
  },
  'SIG-5': { section: SIG, text: 'Verification must use the raw body, not a re-serialised parsed body.' },
  'RETRY-1': {
    section: RETRY,
    text: 'A delivery fails on any non-2xx response or on a connect/read timeout over 30 seconds.',
  },
  'RETRY-2': {
    section: RETRY,
    text: 'Failed deliveries are retried with delays of 1 minute, 5 minutes, 30 minutes, 2 hours, 12 hours, 24 hours. After six attempts the delivery is dropped and the endpoint is flagged in the dashboard.',
  },
  'RETRY-3': {
    section: RETRY,
    text: '24 hours of consecutive failures disable the endpoint until re-enabled in the dashboard.',
    note: 'Ambiguity: whether the 24 h are detected by a timer or at the next failure after them; both are accepted within the tolerance.',
  },
  'RETRY-4': {
    section: RETRY,
    text: 'A delivery can be replayed from the dashboard; the replay has the same `id`, a fresh signature and a fresh timestamp. Receivers must be idempotent on `id`.',
  },
  'RETRY-5': { section: RETRY, text: 'Allowed values of `outcome`: not shown.', note: NOT_SHOWN },

  // --- Errors ----------------------------------------------------------------------------------
  'ERR-SHAPE': { section: 'Errors', text: 'Authentication failures return a JSON body of this shape:' },
  'ERR-FIELD-CODE': { section: ERR_BODY, text: 'error.code | string | stable across versions' },
  'ERR-FIELD-MESSAGE': { section: ERR_BODY, text: 'error.message | string | human-readable; not stable' },
  'ERR-FIELD-REQUEST-ID': { section: ERR_BODY, text: 'error.request_id | string | `req_<id>`' },
  'ERR-CODE-INVALID-TOKEN': {
    section: ERR_CODES,
    text: 'invalid_token | credential malformed, expired or revoked | 401',
  },
  'ERR-CODE-MISSING-SCOPE': {
    section: ERR_CODES,
    text: 'missing_scope | credential valid but lacks the scope the endpoint requires | not shown',
  },
  'ERR-CODE-WORKSPACE-DISABLED': {
    section: ERR_CODES,
    text: 'workspace_disabled | workspace suspended for billing or trust-and-safety reasons | not shown',
  },
  'ERR-RULE-1': {
    section: ERR_RULES,
    text: 'Tests rely on `error.code`, never on `error.message`.',
    note: "A rule for the harness itself: no check relies on error.message's words; AUTH-ERROR-MESSAGE asks only that it has some, AUTH-ERROR-NO-TOKEN-ECHO that it carries no token.",
  },
  'ERR-RULE-2': {
    section: ERR_RULES,
    text: 'After a token is revoked, its requests return 401 with `invalid_token` within one minute.',
  },
  'ERR-RULE-3': {
    section: ERR_RULES,
    text: 'Error codes and shapes for non-authentication failures (validation, not found, conflicts): not shown.',
  },

  // --- Limits ----------------------------------------------------------------------------------
  'LIMIT-ENDPOINTS': { section: LIMITS, text: 'Active webhook endpoints per workspace | 25' },
  'LIMIT-TOKENS': { section: LIMITS, text: 'Active bearer tokens per workspace | 2' },
  'LIMIT-ROTATION': { section: LIMITS, text: 'Bearer token recommended rotation | every 90 days', note: OPERATOR_ONLY },
  'LIMIT-SESSION-LIFETIME': { section: LIMITS, text: 'Session token lifetime | 60 seconds' },
  'LIMIT-RECEIVER-TIMEOUT': { section: LIMITS, text: 'Webhook receiver time-out | 30 seconds' },
  'LIMIT-TIMESTAMP-TOLERANCE': { section: LIMITS, text: 'Webhook timestamp tolerance | 300 seconds' },
  'LIMIT-DELIVERY-ATTEMPTS': {
    section: LIMITS,
    text: 'Webhook delivery attempts | 6 retries on schedule 1m, 5m, 30m, 2h, 12h, 24h, then dropped',
  },
  'LIMIT-AUTO-DISABLE': {
    section: LIMITS,
    text: 'Consecutive failure period before endpoint auto-disable | 24 hours',
    note: 'The same period as RETRY-3 and STATE-ENDPOINT-DISABLE, which HOOK-AUTO-DISABLE cites.',
  },
  'LIMIT-REVOCATION': { section: LIMITS, text: 'Revocation propagation | under 1 minute' },
  'LIMIT-NOT-SHOWN': {
    section: LIMITS,
    text: 'Rate limits of API requests, page sizes and payload size limits: not shown.',
    note: 'Not shown: a 2 MB valid body may be accepted or refused (INPUT-LENIENT-PARSING records which); it may not take the service down (INPUT-MALFORMED-REQUEST).',
  },

  // --- Versioning --------------------------------------------------------------------------------
  'VER-1': {
    section: VERSIONING,
    text: 'The API path prefix is `/v1`.',
    note: 'Every request of the harness goes under /v1; see SVC-3.',
  },
  'VER-2': {
    section: VERSIONING,
    text: 'Each webhook envelope carries `api_version` in date form `YYYY-MM-DD`.',
    note: 'The same rule as ENV-API-VERSION, which HOOK-ENVELOPE cites.',
  },
  'VER-3': {
    section: VERSIONING,
    text: 'Error `code` values are stable across versions; `message` values are not.',
    note: 'Stability across versions needs two versions; report:diff of two runs shows changes.',
  },
  'VER-4': {
    section: VERSIONING,
    text: 'How a caller selects or pins an `api_version`, and how versions are retired: not shown.',
    note: NOT_SHOWN,
  },
} as const satisfies Record<string, SpecClause>;

/** The id of a sentence of the spec. */
export type SpecClauseId = keyof typeof CLAUSE_DATA;

/** The id of a sentence of the control contract (contract-clauses.ts). */
export type ContractClauseId = keyof typeof CONTRACT_CLAUSE_DATA;

/** A clause's id, of the spec or of the contract: a check citing anything else does not type-check. */
export type ClauseId = SpecClauseId | ContractClauseId;

export const CLAUSES: Readonly<Record<ClauseId, SpecClause>> = { ...CLAUSE_DATA, ...CONTRACT_CLAUSE_DATA };

export const SPEC_CLAUSE_IDS = Object.keys(CLAUSE_DATA) as SpecClauseId[];

export const CONTRACT_CLAUSE_IDS = Object.keys(CONTRACT_CLAUSE_DATA) as ContractClauseId[];

/** The spec's clauses, then the contract's. */
export const CLAUSE_IDS: readonly ClauseId[] = [...SPEC_CLAUSE_IDS, ...CONTRACT_CLAUSE_IDS];

/** Which document a clause quotes. */
export function documentOf(id: ClauseId): 'spec' | 'contract' {
  return Object.hasOwn(CONTRACT_CLAUSE_DATA, id) ? 'contract' : 'spec';
}

/** The clause, or an error naming the unknown id (for ids that bypassed the type checker). */
export function clause(id: ClauseId): SpecClause {
  if (!Object.hasOwn(CLAUSES, id))
    throw new CatalogError(`unknown spec clause id ${id}: add it to src/catalog/spec-clauses.ts first`);
  return CLAUSES[id];
}

/** The ids grouped by section, sections in the order first cited, ids in the order cited. */
export function bySection(ids: readonly ClauseId[]): Array<[section: string, ids: ClauseId[]]> {
  const groups = new Map<string, ClauseId[]>();
  for (const id of ids) {
    const { section } = clause(id);
    groups.set(section, [...(groups.get(section) ?? []), id]);
  }
  return [...groups];
}

/**
 * The readable reference a report's `clause` field holds, rendered from the ids:
 * "Events > Signature: SIG-1, SIG-4; Limits: LIMIT-TIMESTAMP-TOLERANCE".
 */
export function renderClauses(ids: readonly ClauseId[]): string {
  return bySection(ids)
    .map(([section, inSection]) => `${section}: ${inSection.join(', ')}`)
    .join('; ');
}
