/**
 * The sentences of ../shared/contracts/control-interface.md that state what the target's
 * public API or its deliveries must do, keyed by a stable id, with their section and the
 * contract's own words. The spec leaves these points to the dashboard or unshown; the
 * contract fixes them for every implementation under test, so a check may rest on them
 * as on a sentence of the spec. Sentences that only describe the control calls the harness
 * makes are not quoted: a target that does not serve them cannot be run at all.
 *
 * Ids: `CTL-` then a short name under the section's prefix (AUTH Transport, WS Workspaces, TOKEN Bearer
 * tokens, SESSION Session tokens, HOOK Webhook endpoints, EVENT Events and deliveries, OPEN "What the public API leaves
 * open"). Ids are stable: reword a text to follow the contract, never an id.
 *
 * `text` quotes the contract as written, lines joined by one space. A unit test holds every
 * text against the contract (test/catalog/clauses.test.ts).
 */
import type { SpecClause } from './clause.js';

/** Every section is "Control interface > " and the start of one of the contract's headings. */
const CONTRACT = 'Control interface';
const TRANSPORT = `${CONTRACT} > Transport`;
const WORKSPACES = `${CONTRACT} > Workspaces`;
const TOKENS = `${CONTRACT} > Bearer tokens`;
const SESSIONS = `${CONTRACT} > Session tokens`;
const ENDPOINTS = `${CONTRACT} > Webhook endpoints`;
const EVENTS = `${CONTRACT} > Events and deliveries`;
const OPEN = `${CONTRACT} > What the public API leaves open`;

export const CONTRACT_CLAUSE_DATA = {
  'CTL-AUTH': {
    section: TRANSPORT,
    text: 'Every request carries `Authorization: Bearer <SVC_CONTROL_TOKEN>`; otherwise 401.',
  },
  'CTL-WS-SUSPEND': {
    section: WORKSPACES,
    text: '`POST /workspaces/{ws}/suspend` -> 204: the workspace is disabled (billing or trust-and-safety); its public requests answer `workspace_disabled`.',
  },
  'CTL-WS-REINSTATE': { section: WORKSPACES, text: '`POST /workspaces/{ws}/reinstate` -> 204.' },
  'CTL-WS-CALL-PROGRESS': {
    section: WORKSPACES,
    text: '`call_progress`: `auto` (default) moves every placed call queued -> started -> completed (outcome `answered`) by itself within 2 s of real time, emitting the matching events; `manual` leaves each call queued until moved with `POST /workspaces/{ws}/calls/{call_id}/progress`.',
  },
  'CTL-TOKEN-CREATE': {
    section: TOKENS,
    text: '`POST /workspaces/{ws}/tokens` body `{"label": "<free text>", "scopes": ["voice:read"]}` (`scopes` optional: default all the workspace\'s licensed scopes) -> 201 `{"token_id": "<string>", "token": "svc_test_…", "label": "…", "scopes": […]}`.',
  },
  'CTL-TOKEN-LIMIT': {
    section: TOKENS,
    text: 'A workspace holds at most two active tokens: a third is refused with 409.',
    note: 'The checks accept any 4xx and record the status: the contract\'s Transport has the harness treat any 4xx as "refused".',
  },
  'CTL-TOKEN-REVOKE': {
    section: TOKENS,
    text: "`DELETE /workspaces/{ws}/tokens/{token_id}` -> 204. From then on the public API must answer 401 `invalid_token` for it within the spec's propagation limit (under 60 s).",
  },
  'CTL-SESSION-MEMBER': {
    section: SESSIONS,
    text: '`POST /workspaces/{ws}/members` body `{"subject": "<sub>", "scopes": [...]}` -> 201 `{"member_id": "<string>"}`.',
  },
  'CTL-SESSION-JWT': {
    section: SESSIONS,
    text: "The public API then accepts `Authorization: Bearer <JWT>` whose signature verifies against a key of that JWKS (RS256 and ES256 at least), whose `iss` equals the issuer, whose `aud` is or contains the audience, which is within `nbf`/`exp`, and whose `sub` is a member: the caller gets that member's scopes. Anything else: 401 `invalid_token`.",
  },
  'CTL-HOOK-SECRET': {
    section: ENDPOINTS,
    text: 'The HMAC key is the UTF-8 bytes of `secret` exactly as given (no decoding of any part of it).',
  },
  'CTL-HOOK-REFUSED': {
    section: ENDPOINTS,
    text: 'Refused with a 4xx: a URL that is not HTTPS, a URL whose host is `localhost`, a 26th active endpoint.',
  },
  'CTL-HOOK-CREATE': {
    section: ENDPOINTS,
    text: '`POST /workspaces/{ws}/webhook-endpoints` body `{"url": "https://…", "events": ["*"]}` (`events`: event types, or `["*"]`) -> 201 `{"endpoint_id": "<string>", "secret": "<signing secret>", "state": "active"}`.',
  },
  'CTL-HOOK-READ': {
    section: ENDPOINTS,
    text: '`GET /workspaces/{ws}/webhook-endpoints/{endpoint_id}` -> 200 `{"endpoint_id": "…", "url": "…", "events": […], "state": "active" | "disabled", "flagged": true | false}` (`flagged`: a delivery to it was dropped after its retries were exhausted).',
  },
  'CTL-HOOK-LOOPBACK': {
    section: ENDPOINTS,
    text: 'In staging an implementation must deliver to `https://127.0.0.1:<port>/…` and either trust the certificate it is given or not verify certificates for loopback addresses.',
    note: 'Every delivery check depends on it; a target that cannot reach the receiver fails the probe delivery before any check (exit 2), not a check.',
  },
  'CTL-EVENT-FIRE': {
    section: EVENTS,
    text: '`POST /workspaces/{ws}/events` body `{"type": "<event type>", "data": {…}}` -> 201 `{"event_id": "evt_…"}`: fires that event through the normal delivery pipeline (for types the public API cannot cause: `mailer.*`, `workspace.plan.upgraded`).',
  },
  'CTL-OPEN-CALL-ID': {
    section: OPEN,
    text: 'The body of `POST /v1/voice/calls` is not shown: the harness takes the call id as the first string anywhere in the response JSON that matches `^call_[A-Za-z0-9]+`.',
  },
  'CTL-OPEN-METADATA': {
    section: OPEN,
    text: 'A request body may carry `metadata` (an object); `voice.call.completed` carries it back.',
  },
} as const satisfies Record<`CTL-${string}`, SpecClause>;
