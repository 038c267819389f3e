// The fault registry: each entry breaks exactly one rule of the spec the way real
// implementations get it wrong. A fault is switched on per request by a path prefix
// (`/faults/<name>[,<name>…]/v1/…` or `/faults/<name>/_control/…`); a workspace created
// under a faulted control prefix keeps those faults for everything done on its behalf
// (tokens, session tokens, deliveries), so one reference process serves many runs.

export const FAULTS = {
  // Authentication, scopes, errors
  // Blind spot of the webhooks module's mutation run (endpoints.ts), its own mutant
  'deleted-endpoint-in-flight-retried':
    "a deleted endpoint is not marked deleted, only removed and its pending retries cancelled: an attempt in flight at the deletion that fails is retried to the deleted endpoint's URL",
  // Blind spots of the auth module's mutation run (authenticate.ts), each its own mutant
  'auth-error-message-empty':
    'authentication errors carry error.message "" (the messages were to come from a translation table never filled in): the code and request id are right, the words are missing',
  'bearer-scheme-unanchored':
    'the Authorization header is matched by a pattern not anchored at its start: a scheme whose name ends in "Bearer" ("NotBearer <token>") is read as Bearer',
  'bearer-trailing-words-ignored':
    'the Authorization header is matched by a pattern not anchored at its end: "Bearer <token> more" is read as "Bearer <token>", the words after the token ignored',
  // Blind spots of the auth module's mutation run (session.ts), each its own mutant
  'jwks-several-keys-refused':
    'a session token without kid, verified against a JWKS that lists several keys of its algorithm, is refused: the "several matching keys" error is taken as a refusal instead of trying each key',
  'member-unlicensed-scope-granted':
    "a member's scopes are not bounded by the workspace's licence: a member created with a scope the workspace is not licensed for holds it under a session token",
  // Red team, round 24
  'retry-signature-uppercase':
    "a retry's signature is taken from the retry queue's row, stored as upper-case hex: the first attempt is signed in lower-case hex, every retry in upper-case",
  'duration-zero-defaulted':
    'a completed call reported with duration_seconds 0 is stored as 1 (the duration is read with || 1, meant for a missing one): voice.call.completed says 1',
  'mailer-envelope-workspace-id-cached':
    "the workspace_id of mailer.* envelopes comes from a process-wide memo of the first mailer event's workspace: a second workspace's mailer events name the first",
  'endpoint-url-read-port-dropped':
    "an endpoint's page rebuilds its URL from protocol, hostname and path: the port (and query) of the registered URL are lost on read-back",
  'session-scopes-of-latest-member':
    "a member's session is granted the scopes of the workspace's most recently added member (a workspace-level \"member scopes\" variable): with two members, the first gets the second's scopes",
  'completed-call-id-of-agent-current-call':
    "voice.call.completed names the agent's current call (the last one placed with it), not the call that ended: of two interleaved calls, the first's completion carries the second's call_id",
  'suspended-agents-listed':
    "the agents list route's gate list forgot the suspension check: a suspended workspace's token still lists its agents",
  'workspace-disabled-no-request-id':
    'the suspension gate builds its error object without the request id: workspace_disabled answers {code, message} only',
  'reply-body-html-escaped':
    "a mailer.reply.received payload goes through the dashboard's HTML sanitiser: the reply's <, >, & and quotes arrive as entities",
  'replay-cancels-pending-retries':
    "a replay takes over the delivery's row: the original delivery's pending retries to that endpoint are dropped (only the replay's own schedule remains)",
  'event-id-workspace-sequence':
    "event ids are numbered by a per-workspace sequence (evt_ + the workspace's event count): two workspaces' events share ids, so a receiver idempotent on id drops the second",
  'subscription-keyed-by-url':
    "the subscription index is keyed by receiver URL: of two endpoints at one URL, the earlier one is filtered by the later one's event types",
  // Red team, round 23
  'retry-body-of-latest-event':
    "a retry re-sends the body last sent to its endpoint (the endpoint's outbox row holds one body): a failed event's retry carries a later event's id and data",
  'ack-cancels-other-retries':
    "an acknowledgement is recorded on the event, not the delivery: once one endpoint takes an event, another endpoint's pending retry of it is dropped",
  'endpoint-delete-cancels-workspace-retries':
    "deleting an endpoint cancels the pending retries of every endpoint of its workspace (the timers looked up by workspace): another endpoint's failed delivery is never retried",
  'replay-call-event-latest-of-call':
    "a call event's replay is read from the call's event row (keyed by call id), which holds its latest event: replaying voice.call.queued sends voice.call.completed",
  'subscription-workspace-type-unmatched':
    'the subscription index is keyed by product (voice, mailer): an endpoint subscribed by name to workspace.plan.upgraded never gets it (a wildcard one does)',
  'transcript-url-lowercased':
    "transcript_url is built by a path helper that lower-cases it: the call id's capitals are lost and the URL answers 404",
  'token-limit-refusal-revokes-oldest':
    "a third token is refused with 409 after the rotation helper already revoked the workspace's oldest token to make room: the refusal costs a working token",
  'idp-audience-shared-by-jwks-uri':
    "the session verifier is cached per jwks_uri with its audience: a second workspace configured with the same JWKS and another audience makes the first workspace's session tokens refused",
  'reinstate-first-token-only':
    'a suspension is stamped on each token and the reinstatement clears the first token row only: the second token keeps answering workspace_disabled',
  'session-suspended-invalid-token':
    "a suspended workspace's member session tokens are answered 401 invalid_token, not workspace_disabled (the member lookup skips suspended workspaces)",
  'workspace-delete-removes-shared-url-endpoints':
    "deleting a workspace deletes endpoints by receiver URL (of the fault prefix): another workspace's endpoint registered at the same URL is gone too",
  'session-call-metadata-dropped':
    'a call placed with a session token loses its metadata (the browser route parses the body with a schema of agent_id and to only): voice.call.completed carries {}',
  // Red team, round 22
  'token-scopes-of-first-token':
    "a bearer token is granted the scopes of its workspace's first active token (the scope guard loads the workspace's token row, not the credential's): a narrowed second token places calls",
  'revoke-empties-scopes':
    'revoking a token narrows it to no scopes instead of invalidating it: whoami keeps answering 200 for it, and it still holds its slot',
  'idp-put-clears-members':
    "reconfiguring the workspace's identity provider drops its members (they hang off the old provider row): a member's session JWT is refused after the second PUT",
  'endpoint-delete-removes-last':
    'deleting an endpoint removes the most recently created one (splice at indexOf -1): of two endpoints, deleting the first leaves it delivered to and silences the second',
  'endpoint-id-reused-after-delete':
    "endpoint ids are numbered by the workspace's live endpoint count: a deleted endpoint's id names the next one created, and reads back as it",
  'fanout-stops-at-failure':
    'an event is sent to its endpoints one after another and the fan-out stops at the first failed attempt: the endpoints after a failing one never get it',
  'subscription-filter-hoisted':
    "the subscription filter is computed once per event from the workspace's first endpoint: a later endpoint subscribed to one type receives whatever the first takes",
  'replay-to-deleted-endpoint':
    "a replay is sent from the delivery log's copy of the endpoint (URL and secret), not the live table: a deleted endpoint is replayed to",
  'completed-metadata-over-fields':
    "voice.call.completed data is built as {...call fields, ...metadata, metadata}: a metadata key named like a call field (outcome, to) overwrites the call's value",
  'workspace-delete-reinstatable':
    'deleting a workspace only suspends it and hides nothing: a later reinstatement brings it back, tokens and all',
  'token-answer-read-back-by-label':
    "a token creation's answer is read back by workspace and label: a second token labelled like an active one is answered with the first token's id and secret",
  'retry-sent-to-last-endpoint':
    "a failed delivery's retry is scheduled by a closure over the fan-out loop's variable: it goes to the event's last endpoint, not the one that failed",
  // Red team, round 21
  'endpoint-events-read-first-only':
    'an endpoint\'s page shows only the first of its event types (read from a legacy single-type column): ["a", "b"] reads back ["a"]',
  'endpoint-create-state-missing': 'an endpoint creation answers endpoint_id and secret but no state',
  'fire-answered-200': 'a fired event is answered 200, not the 201 the contract names',
  'member-id-numeric': 'a member creation answers member_id as a number (the row id), not a string',
  'progress-answered-200': 'a call progress is answered 200 with an empty object, not the 204 the contract names',
  'suspend-answered-200': 'a suspension is answered 200 with the workspace, not the 204 the contract names',
  'token-revoke-answered-200':
    'a token revocation is answered 200 with {"revoked": true}, not the 204 the contract names',
  'endpoint-delete-answered-200':
    'an endpoint deletion is answered 200 with {"deleted": true}, not the 204 the contract names',
  'reinstate-answered-200': 'a reinstatement is answered 200 with the workspace, not the 204 the contract names',
  'replay-type-enum-key':
    "a replay's envelope carries its type as the enum constant's name, MAILER_EMAIL_SENT, where the first delivery said mailer.email.sent",
  'token-id-numeric': 'a token creation answers token_id as a number (the row id), not a string',
  // Red team, round 20
  'member-second-replaces-first':
    "adding a second member (another subject) replaces the first: the first subject's session JWT is refused",
  'endpoint-limit-500':
    'a 26th active endpoint is refused with 500 (an unmapped database trigger error), not the 4xx the contract names',
  'fired-data-integers-int32':
    'fired event data keeps its top-level integers through an int32 column: 3000000000 becomes -1294967296',
  'to-cached-per-agent':
    "voice.call.completed carries the number of the agent's first completed call (a per-agent memo), not the call's own to",
  'envelope-data-id-hoisted':
    'a string id member of the event data is lifted over the envelope id: data {"id": "lead_7"} is delivered with id "lead_7"',
  'token-label-json-escaped':
    'a token label is stored JSON-encoded and read back unparsed: say "hi" is answered as say \\"hi\\"',
  'endpoint-create-lifts-suspension':
    "creating a webhook endpoint saves the workspace row with the form's default suspended flag: a suspended workspace is served again",
  'request-id-beside-error':
    'an authentication error carries request_id at the body\'s root, {"error": {code, message}, "request_id": …}, not inside error',
  'replay-answered-200': 'a replay accepted by the control interface is answered 200, not the 202 the contract names',
  'endpoint-state-read-uppercase':
    'an endpoint\'s page shows its state as the database enum label, "ACTIVE", while its creation answers "active"',
  'token-scopes-answered-as-string':
    'a token creation answers its scopes OAuth-style as one space-separated string, "voice:read mailer:read", not a list',
  // Red team, round 19
  'missing-scope-errors-array':
    'a missing_scope answer comes from the scope guard\'s own JSON:API-style body, {"errors": [{code, message, request_id}]}, not {"error": {…}}',
  'jwt-sub-trimmed': 'a session JWT\'s sub is trimmed before the member lookup: a sub of "u1 " is taken for member u1',
  'token-empty-label-defaulted':
    'a token created with an empty label is stored and answered as "Untitled token" (a form default), not the empty label given',
  'endpoint-localhost-trailing-dot':
    'the localhost check compares the hostname as written: "https://localhost./hook" (the same host, fully qualified) is accepted',
  'retry-schedule-starts-at-5m':
    'the retry delay is read at the attempt count, not one before it: the first retry waits 5 minutes, the second 30, and so on',
  'retry-timestamp-scaled':
    "a retry's X-Service-Timestamp is read from the retry scheduler's clock, which runs time_scale times faster from the event's time, not the wall clock",
  'replay-stamped-with-created-at':
    "a replay's X-Service-Timestamp is the event's created_at in Unix seconds (the replay job reuses the stored time), not a fresh timestamp",
  'metadata-floats-truncated':
    'call events carry metadata numbers through an integer column: {"score": 0.75} becomes {"score": 0}',
  'suspension-stamped-on-tokens':
    'a suspension is written onto the tokens the workspace holds when it is suspended: a token created while it is suspended is served',
  'retry-body-pretty-printed':
    'a retry is sent pretty-printed from the envelope the retry queue stored parsed, while its signature is of the compact body',
  'metadata-dollar-keys-dropped':
    'call events carry metadata without its keys that start with "$" (a NoSQL-injection sanitiser on the request body)',
  'fired-data-false-dropped':
    'fired event data goes through a truthiness filter meant for nulls: top-level members that are false are dropped',
  // Red team, round 18
  'request-id-from-client-header':
    "an error's request_id is the caller's X-Request-Id header when one is sent (a tracing middleware trusts it), not a req_ id",
  'jwt-typ-required':
    'a session JWT without a typ header of "JWT" is refused with invalid_token, though its signature and claims are valid',
  'token-answer-shows-licensed-scopes':
    "a token created with narrowed scopes is answered with the workspace's licensed scopes (the form's default), not the ones it holds",
  'endpoint-http-uppercase-accepted':
    'the HTTPS rule is a text check that the URL does not start with "http://": an "HTTP://" URL is accepted',
  'auto-disable-after-24-failures':
    'an endpoint is auto-disabled after 24 failed attempts in a row (the "24" read as a count), not after 24 hours of failures',
  'fanout-deduped-by-url':
    'an event goes once to each receiver URL: of two subscribed endpoints with the same URL, only the first gets a delivery',
  'replay-stamp-cached-per-endpoint':
    "a second replay to the same endpoint re-sends the first replay's timestamp and signature (cached per event and endpoint), not fresh ones",
  'call-events-created-at-placement':
    "every call event's created_at is the call's placement time (read from the call row), not the time the event happened",
  'metadata-strings-truncated-255':
    'call events carry metadata string values cut to 255 characters (a varchar(255) value column)',
  'fired-data-nfc-normalised':
    'fired event data strings are stored NFC-normalised: a decomposed e + U+0301 is delivered as the composed U+00E9',
  'retry-scale-of-latest-workspace':
    "retry delays are scaled by the time_scale of the workspace created last (a process-wide staging setting), not by their own workspace's",
  'licensed-scopes-shared-default':
    'a workspace created without licensed_scopes gets the licensed scopes of the previous workspace created with some (a mutated default), not all five',
  // Red team, round 17
  'timestamp-fractional-seconds':
    'X-Service-Timestamp is the milliseconds divided by 1000 and never floored, written to three places: "1764….123", not whole Unix seconds',
  'fired-data-strings-trimmed':
    'fired event data goes through a form clean-up that trims every string at every depth: " Hi " is delivered as "Hi"',
  'metadata-numeric-strings-coerced':
    'call events carry metadata strings that look like numbers as numbers (a loosely typed key/value store): {"crm_id": "00123"} becomes {"crm_id": 123}',
  'duration-fencepost-plus-one':
    "a completed call's duration_seconds is counted inclusively (end - start + 1): a 42-second call is reported as 43",
  'token-create-lifts-suspension':
    'creating a token in a suspended workspace saves the workspace row with suspended from the form default: the suspension is lifted',
  'revocation-list-single-slot':
    "the workspace's revocation record holds one token: revoking a second token brings the first revoked one back to life",
  'invalid-token-message-echoes-token':
    'the invalid_token error message names the bearer token presented ("unknown token svc_test_…"), putting the secret in the body',
  'replay-signed-with-first-receiver-secret':
    "a replay is signed with the secret of the event's first subscribed endpoint, not of the endpoint named: replayed to the second, it fails verification",
  'endpoint-url-read-normalised':
    'GET on an endpoint shows its URL as new URL(url).href writes it: https://127.0.0.1:443/hook reads back as https://127.0.0.1/hook',
  'jwks-keys-cached-by-kid':
    "session keys are cached process-wide by kid alone: a workspace's JWT is verified against another workspace's key of the same kid",
  'token-secret-from-active-count':
    "a token's secret is generated from a seed of the workspace and its active token count: a token created after a revocation gets the revoked one's secret, which works again",
  'fired-data-single-item-arrays-unwrapped':
    'fired event data goes through an XML-style mapper that collapses one-item arrays: {"to": ["a@x.io"]} is delivered as {"to": "a@x.io"}',
  // Red team, round 16
  'retry-call-metadata-dropped':
    "a call event's retry is rebuilt from the call record, which keeps no metadata: the retry of voice.call.completed lacks it",
  'retry-worker-clock-behind':
    "retries are sent by a worker whose clock runs 2.6 s behind the first attempt's sender: their X-Service-Timestamp is 2.6 s early",
  'retry-created-at-refreshed':
    "a retry's envelope carries the retry's time as created_at (the envelope rebuilt when the retry is sent), not the event's",
  'timestamp-header-duplicated':
    'X-Service-Timestamp is sent twice (set by the signer and again by the transport): the receiver reads "1764…, 1764…", not Unix seconds',
  'retry-after-header-obeyed':
    "a failed delivery answered with a Retry-After header is retried after the receiver's delay (Retry-After: 0 at once), not on the 1 min, 5 min, … schedule",
  'replay-acknowledged-skipped':
    'a replay of an event its endpoint acknowledged is answered 202 but never sent (the replay re-queues failed deliveries only)',
  'fired-data-dates-revived':
    'date-time strings in fired event data are revived as dates and re-serialised: "2026-11-28T10:00:00Z" is delivered as "2026-11-28T10:00:00.000Z"',
  'fire-unknown-type-delivered':
    'a fired event of a type not in the spec (a dotted name such as mailer.lead.bounced) is accepted and delivered to wildcard endpoints',
  'endpoint-flagged-omitted-when-false':
    'GET on an endpoint leaves flagged out unless it is true (a serialiser that skips false booleans)',
  'endpoint-read-any-workspace':
    "GET on an endpoint finds it by id alone: another workspace's endpoint is read, URL and subscription included, under this one's path",
  'progress-call-any-workspace':
    "moving a call (manual progress) finds it by id alone: another workspace's call is moved under this one's path",
  'jwt-nbf-leeway-inverted':
    'the clock leeway on nbf is applied the wrong way (nbf > now - 5 s): a session JWT whose nbf is within the last 5 s is refused',
  'metadata-dotted-keys-nested':
    'call events carry metadata keys holding a dot expanded into nested objects (a path setter): {"crm.id": 7} becomes {"crm": {"id": 7}}',
  'token-revoke-hits-newest':
    "revoking a token revokes the workspace's most recently created active token (the row picked by position, not id): revoking the older of two revokes the newer",
  // Red team, round 15
  'scopeless-credential-invalid':
    'a credential holding no scope is answered 401 invalid_token, whoami too (the principal loader reads an empty scope list as no principal)',
  'member-subject-lowercased':
    "a member's subject is stored lower-cased (a case-folding column): a JWT whose sub has capitals (user_2NxQ…) is refused",
  'jwt-exp-fractional-refused':
    'a session JWT whose exp is a non-integer NumericDate (1764327000.5) is refused (the claim schema wants an integer)',
  'token-unlicensed-scope-granted':
    "a token may be created with scopes the workspace is not licensed for, and holds them (the check reads every scope, not the workspace's licence)",
  'revoked-token-revived-by-create':
    "creating a token writes back the workspace's token list as the page read it a minute before: a token revoked in that minute is active again",
  'endpoint-localhost-port-accepted':
    'an endpoint URL on localhost with an explicit port (https://localhost:8443/…) is accepted (the check compares url.host, port included)',
  'retry-ack-not-recorded':
    'a 2xx answering a retry is not recorded as the acknowledgement: the delivery stays pending and is retried again on the schedule',
  'body-ascii-escaped-signed-utf8':
    "the body is sent with its non-ASCII characters \\u-escaped (an ensure_ascii encoder) but signed over its UTF-8 form: such an event's signature does not verify",
  'replay-data-json-text':
    "a replay's data is the JSON text of the event's data, a string, not the object (the data column read back without parsing)",
  'metadata-arrays-objectified':
    'call events carry the caller\'s metadata with its arrays turned into objects keyed by index (a deep merge into {}): ["a","b"] becomes {"0":"a","1":"b"}',
  'fired-data-floats-2dp':
    'numbers in fired event data are rounded to two decimals (a NUMERIC(12,2) column): a sentiment of 0.875 is delivered as 0.88',
  'suspension-cached-per-credential':
    'a credential served while its workspace was active is remembered as active for 90 s: right after a suspension its requests are still served',
  // Red team, round 14
  'created-at-epoch-seconds': 'the envelope created_at is a Unix-seconds number, not an ISO 8601 string',
  'endpoint-wildcard-read-expanded': 'an endpoint registered with ["*"] reads back with the list of every event type',
  'invalid-token-no-message': 'an invalid_token error body lacks error.message',
  'token-label-lowercased': 'a token label is stored lower-cased',
  'to-truncated-12': 'the completed event carries `to` cut to 12 characters (a varchar(12) column)',
  'session-post-refused':
    'session tokens are refused (401 invalid_token) on POST requests: placing a call needs a bearer token',
  'manual-progress-ignored-with-time-scale':
    'a workspace created with a time_scale above 1 gets auto call progress even when it asks for manual',
  'fired-data-first-of-type':
    'a fired event carries the data of the first event of its type fired in the workspace (a per-type payload cache)',
  'replay-call-metadata-dropped':
    'a replayed voice.call.completed event comes without its metadata (the replay rebuilds the data from the call row)',
  'scope-agents-unchecked': 'GET /v1/voice/agents does not require voice:read',
  'scope-calls-unchecked': 'POST /v1/voice/calls does not require voice:write',
  'scope-transcript-unchecked': 'the call transcript does not require voice:read',
  'whoami-needs-scope': 'GET /v1/whoami answers missing_scope unless the credential has voice:read',
  'token-revoked-code': 'a revoked token is answered with code token_revoked instead of invalid_token',
  'bad-token-403': 'invalid_token is answered with HTTP 403 instead of 401',
  'no-credential-empty-401': 'a request without Authorization gets 401 with an empty body (no error shape)',
  'long-token-500': 'a bearer token longer than 2 kB makes the server answer 500',
  'no-request-id': 'error bodies lack error.request_id',
  'request-id-reused': 'every error carries the same request id',
  'error-text-plain': 'error bodies are sent with Content-Type text/plain',
  'revocation-slow': 'a revoked token keeps working for 75 s',
  'revocation-stale-node': 'one node of three keeps accepting a revoked token forever',
  'third-token': 'a workspace may hold a third active token',
  'token-limit-every-workspace':
    'the two-token limit counts the active tokens of every workspace (of the fault prefix): the count lost its workspace condition',
  'token-limit-check-then-insert':
    'the two-token limit is checked, then the token inserted after a store round trip: concurrent creations all pass the check',
  'empty-token-scopes-all':
    'a token created with an empty scope list gets every licensed scope, as if scopes were omitted',
  'default-scopes-all': 'a token created without scopes gets all five scopes, not the licensed ones',
  'live-prefix-in-staging': 'staging issues svc_live_ tokens',
  'rotation-flush': "revoking a token also rejects the workspace's other tokens for 3 s",
  'suspended-revoke-keeps-slot':
    'a token revoked while the workspace is suspended still counts toward the two-token limit',
  'suspended-create-uncounted':
    'a token created while the workspace is suspended does not count toward the two-token limit',
  'revoke-race-frees-slot':
    'a revocation reads the token active, then writes it revoked and decrements the active count after a store round trip: two revocations of one token at once free two slots',
  'double-revoke-frees-slot':
    'revoking a revoked token again frees one more slot (a counter, not the tokens, holds the limit)',
  'endpoint-double-delete-frees-slot':
    'deleting a deleted endpoint again (answered 404) frees one more of the 25 active slots',
  'disabled-endpoint-holds-slot': 'an auto-disabled endpoint still counts toward the limit of 25 active endpoints',
  'reenabled-endpoint-silent':
    're-enabling an auto-disabled endpoint makes it read active, but no delivery reaches it any more',
  'rotation-flush-late':
    "when a revocation has propagated (4 s after it), the workspace's other tokens are rejected for 2 s",
  'old-token-blip-after-rotation':
    'the other active token is refused (401) for 2.5 s starting 5 s after a second token is created, then works again',
  'suspension-ignored': 'a suspended workspace keeps being served',
  'suspended-transcript-served':
    "a suspended workspace's call transcripts are still served: the transcript path checks the token and its scope, not the workspace",
  'reinstate-ignored': 'a reinstated workspace stays suspended',
  'reinstate-every-suspended':
    'reinstating a workspace reinstates every suspended workspace (of the same fault prefix): the update has no workspace in its condition',
  'reinstate-widens-scopes': 'reinstating a workspace gives each of its tokens every licensed scope, narrowed ones too',
  'session-suspension-ignored':
    "a suspended workspace refuses its bearer tokens only: its members' session tokens are served (the check reads the token record's workspace)",
  'reinstate-widens-members':
    'reinstating a workspace gives each of its members every licensed scope, narrowed ones too',
  'tenant-transcript-leak': "any workspace's call transcript is readable",
  'tenant-transcript-redirect': "another workspace's call transcript is answered with a 302 to it, not refused",
  'transcript-always-403': 'every transcript is answered 403, to its owner too',
  'revocation-whoami-only': 'a revoked token is refused on whoami only; the other endpoints keep accepting it',
  'tenant-agent-leak': "a call may be placed with another workspace's agent",
  'agent-id-normalised': 'agent ids are looked up trimmed and case-insensitively: " AGT_…" places a call with agt_…',
  'malformed-json-500': 'a malformed JSON body makes the server answer 500',
  'malformed-json-accepted': 'a malformed JSON body is answered 201 as if a call had been placed',
  'whoami-204': 'GET /v1/whoami answers 204 without a body instead of 200',
  'agents-list-empty': 'GET /v1/voice/agents lists no agents',
  'call-id-sequence-race':
    'call ids are numbered from a per-workspace sequence read, then written back after a store round trip: calls placed at once get the same id',
  'call-id-missing': 'POST /v1/voice/calls answers 202 without the call_ id',
  'unknown-path-200': 'an unknown path under /v1 answers 200 with an empty object',
  'invalid-call-accepted': 'POST /v1/voice/calls accepts a missing or invalid to/agent_id with 201',
  'control-progress-unauthenticated':
    "the control interface's call-progress route is mounted before its authentication: it answers without the control token",
  // Webhook signing and timestamps
  'sign-reserialized': 'the body is sent pretty-printed but signed in its compact form',
  'sign-timestamp-body': 'the signature covers `${timestamp}.${body}` instead of the body',
  'sign-uppercase': 'the signature is upper-case hex',
  'sign-base64': 'the signature is base64 instead of hex',
  'sign-decoded-key': "the HMAC key is the base64-decoded part after whsec_ instead of the secret's bytes",
  'secret-shared': 'all endpoints of a workspace share one signing secret',
  'timestamp-ms': 'X-Service-Timestamp is in milliseconds',
  'clock-10min-ahead':
    "the service's clock runs 10 minutes fast: its X-Service-Timestamp and Date headers agree with each other, not with the time",
  'clock-20s-ahead': "the service's clock runs 20 s fast (X-Service-Timestamp and Date headers)",
  'timestamp-reused': "retries and replays reuse the first attempt's timestamp",
  'event-id-sequence-race':
    'event ids are numbered from a per-workspace sequence read, then written back after a store round trip: events fired at once get the same id',
  'replay-new-id': 'a replay carries a new event id',
  'replay-to-disabled-delivered': 'a replay to a disabled endpoint is accepted and delivered at once',
  // Webhook retries and endpoint states
  'retry-exponential': 'retry delays are 1, 2, 4, 8, 16, 32 minutes',
  'retry-too-few': 'a failed delivery is retried only 5 times',
  'retry-too-many': 'a failed delivery is retried 8 times',
  'retry-to-every-subscriber':
    'a retry re-publishes the event: every endpoint subscribed to its type gets the retry, those that acknowledged it too',
  'retry-immediately': 'the first retry comes at once instead of 1 min after the failure',
  'retry-1m-late-20pct': 'the first retry comes after 72 s instead of 1 min',
  'retry-5m-early-10pct': 'the second retry comes after 4.5 min instead of 5 (just outside the 5% jitter allowed)',
  'retry-30m-late-20pct': 'the third retry comes after 36 min instead of 30',
  'retry-2h-late-20pct': 'the fourth retry comes after 144 min instead of 2 h',
  'retry-12h-late-20pct': 'the fifth retry comes after 14.4 h instead of 12 h',
  'ack-204-fails': 'a 204 acknowledgement counts as a failure',
  'ack-known-2xx-only': 'only the usual 2xx (200 to 204) acknowledge: a 206 or a 299 counts as a failure',
  'redirect-success': 'a 3xx answer counts as a success',
  'ack-range-inclusive-300':
    'the acknowledgement range is written 200 <= status <= 300: a 300 answer counts as a success, and is not retried (a StrykerJS mutant)',
  '4xx-no-retry': 'a 4xx answer is not retried',
  '5xx-no-retry': 'a 5xx answer is not retried',
  'no-retry-timeout': 'a timed-out delivery is not retried',
  'delivery-timeout-24s': 'deliveries time out after 24 s, whatever time-out is declared',
  'delivery-timeout-37s': 'deliveries time out after 37 s, whatever time-out is declared',
  'slow-ack-fails': 'a 2xx that takes longer than a quarter of the delivery time-out counts as a failure',
  'no-auto-disable': 'an endpoint is never disabled after 24 h of failures',
  'deliver-when-disabled': 'a disabled endpoint still gets deliveries',
  'enable-ignored': 'enabling a disabled endpoint leaves it disabled',
  'no-flag-on-drop': 'dropping a delivery after its last retry does not flag the endpoint',
  'no-retry-after-reset':
    'a delivery attempt that gets no HTTP answer (connection refused, or reset by the receiver) is neither retried nor counted as a failure, so such an endpoint is never disabled',
  'deleted-endpoint-still-delivered':
    'deleting an endpoint only hides it (no new event, its slot freed), but its pending retries are still sent and a replay naming it is delivered',
  'reenable-resets-subscription':
    're-enabling an auto-disabled endpoint resets its subscription to *: it receives every event type, whatever it subscribed to',
  'reenable-new-secret':
    're-enabling an auto-disabled endpoint gives it a new signing secret that the dashboard never shows',
  // Webhook registration and subscriptions
  'accept-http-url': 'an http:// endpoint URL is accepted',
  'accept-localhost': 'an endpoint URL whose host is localhost is accepted',
  'endpoint-limit-26': 'a 26th active endpoint is accepted (the 27th is refused)',
  'endpoint-limit-check-then-insert':
    'the 25-endpoint limit is checked, then the endpoint inserted after a store round trip: concurrent creations all pass the check',
  'empty-events-all': 'an endpoint created with an empty event list is accepted and subscribed to every event type',
  'subscriptions-ignored': 'every endpoint gets every event type',
  'wildcard-missing-mailer': 'an endpoint subscribed to * gets no mailer.* events',
  // Envelope and event data
  'created-at-offset': 'created_at carries a +01:00 offset instead of UTC Z',
  'api-version-not-date': 'api_version is "v1" instead of a YYYY-MM-DD date',
  'envelope-missing-workspace': 'the envelope lacks workspace_id',
  'duration-string': 'duration_seconds is a string',
  'duration-zero-omitted':
    'duration_seconds is left out of voice.call.completed when it is 0 (a falsy test before setting it)',
  'metadata-dropped': "voice.call.completed carries {} instead of the caller's metadata",
  'metadata-omitted-when-empty':
    'voice.call.completed leaves metadata out when the call was placed without any (an empty field is not serialised)',
  'failed-reported-completed': 'a failed call emits voice.call.completed',
  'lifecycle-no-started': 'voice.call.started is never emitted',
  'transcript-url-wrong': 'transcript_url points to /v1/calls/<id>/transcript',
  'deliver-with-put': 'deliveries are sent with PUT instead of POST',
  'no-content-type': 'deliveries are sent without Content-Type application/json',
  // Session tokens
  'jwt-alg-none': 'an unsigned JWT (alg none) is accepted',
  'jwt-ignore-exp': 'an expired JWT is accepted',
  'jwt-exp-leeway-90s': 'a JWT is accepted up to 90 s after it expired (a clock leeway longer than its 60 s lifetime)',
  'jwt-ignore-nbf': 'a JWT before its nbf is accepted',
  'jwt-ignore-iss': 'a JWT with a wrong iss is accepted',
  'jwt-ignore-aud': 'a JWT with a wrong aud is accepted',
  'jwt-member-all-scopes': "a member gets every licensed scope, not the member's scopes",
  'empty-member-scopes-all': 'a member added with an empty scope list gets every licensed scope',
  'jwt-unknown-kid': 'a JWT whose kid is not in the JWKS is tried against every key',
  'jwt-hs256-confusion': 'an HS256 JWT signed with the public key PEM as secret is accepted',
  'jwt-any-sub': 'a JWT whose sub is not a member gets every licensed scope',
  'jwt-cross-workspace': "a JWT valid for another workspace's identity provider is accepted",
  'jwt-rs256-only': 'session tokens signed with ES256 are refused (only RS256 is accepted)',
  'jwt-signature-unchecked': 'a JWT whose signature does not verify is accepted when its claims are valid',
  'jwks-cached-forever': 'the JWKS is fetched once and never again: a new key is refused, a removed one accepted',
  'jwt-alg-none-case-insensitive':
    'alg none is refused by exact match only, but any other spelling (None, NONE) is an unsigned JWT',
  'jwt-trust-embedded-jwk': 'a JWT carrying a jwk header is verified with that key (CVE-2018-0114)',
  'jwt-follow-key-url': 'a JWT naming a jku (JWKS) or x5u (certificate) URL is verified with the key fetched from it',
  'jwt-kid-path-traversal':
    'the kid of an HS256 JWT names a key file, joined to the keys directory without confining it (../../dev/null: an empty secret)',
  'jwt-psychic-ecdsa': 'an ES256 signature with r = s = 0 verifies any JWT (CVE-2022-21449)',
  'jwt-ignore-crit': 'crit header parameters are taken as understood, whatever they name',
  'jwt-exp-margin-30s':
    'a session token with less than 30 s left before its exp is refused (an early-refresh margin applied by the server)',
  'jwt-no-exp-accepted': 'a JWT without exp is accepted (and never expires)',
  'jwt-first-sub-wins':
    'the member is looked up by the first sub in the payload text, though the verifier read the last of a repeated sub',
  'jwt-malformed-400':
    'a session token whose header or payload does not parse is answered 400 (with the error shape), not 401',
  'jwt-string-dates-skipped': 'exp and nbf are checked only when they are numbers: given as strings, they are skipped',
  // Near-miss inputs, settings changed after first use, operations that name a target, values handed out
  'token-case-insensitive':
    'bearer tokens are looked up ignoring case: the token with its letters case-swapped is accepted',
  'token-prefix-compared':
    'a bearer token is compared on its first 40 characters only (a fixed-width key column): one character changed, dropped or added after them is accepted',
  'jwt-iss-case-insensitive': "the session token's iss is compared with the configured issuer ignoring case",
  'jwt-aud-substring':
    'a string aud is accepted when the configured audience contains it (String.includes where an array was meant)',
  'idp-reconfigure-ignored':
    'the identity provider PUT again answers 204, but the first settings (issuer, audience, JWKS) stay in force',
  'idp-old-keys-kept':
    "the identity provider PUT again takes the new issuer and audience, but keeps verifying with the first JWKS's keys",
  'member-repost-keeps-scopes': 'a member added again with other scopes answers 201, but keeps its first scopes',
  'replay-to-every-subscriber':
    'a replay is delivered to every active endpoint of the workspace subscribed to its type, not only to the one named',
  'progress-moves-every-call':
    'moving one call (manual progress) moves every unfinished call of the workspace the same way',
  'suspension-shared-settings':
    'workspaces share one settings object: suspending one suspends every workspace created under the same fault prefix',
  'revoke-by-label':
    'revoking a token revokes every token with the same label, in every workspace created under the same fault prefix',
  'events-to-every-workspace':
    'an event is delivered to the subscribed endpoints of every workspace created under the same fault prefix, not only its own',
  'transcript-url-other-port':
    "transcript_url names the service's host with another port (an internal listener), its path right",
  'replay-any-workspace':
    "a replay finds its event and its endpoint by id alone: another workspace's event, or another workspace's endpoint, can be named",
  'enable-enables-all': 're-enabling one auto-disabled endpoint re-enables every disabled endpoint of the workspace',
  'control-ids-any-workspace':
    "the dashboard finds a token to revoke and an endpoint to delete by its id alone: another workspace's can be named under this one's path",
  'control-token-prefix-compared':
    'the control interface compares the first 16 characters of its token only: the token with its tail changed, dropped or extended is let in',
  'second-agent-unusable':
    'only the first agent of a workspace can place calls: the others, listed and answered at creation, get 404 agent_not_found',
  // Load budgets: no spec rule, the harness's own objective (load/README.md); proved by test/load, not by certify
  'deliveries-delayed-5s': "every delivery's first attempt waits 5 s after its event (a backlog)",
  // Noise, not a broken rule: what a busy machine does to a conforming service; certify must pass it
  'retry-late-once':
    'each of the first five retry delays (1m to 12h) comes 50% late the first time this reference uses it at a time scale, then on time (a one-off stall)',
  // Red team, round 1
  'scope-write-implies-read':
    'a token holding voice:write (or mailer:write) is granted the matching :read scope too, as if write implied read, though it was narrowed to write only',
  'token-prefix-match':
    'a bearer token is compared over its first 49 characters only (a fixed-width column truncates the presented credential): the token with characters appended is accepted',
  'token-same-label-replaces':
    'creating a token with the label of an active token revokes that token (tokens upserted by label)',
  'revocation-keepalive-stale':
    'a kept-alive connection remembers each credential it accepted: a revoked token keeps working on it for as long as the connection lives',
  'jwt-aud-contains-audience':
    'the session JWT audience is checked with String.includes: an aud that merely contains the audience as a substring is accepted',
  'jwt-verified-cache-past-exp':
    'a session JWT once verified is cached by its text for 5 minutes without re-checking exp: it keeps working after it expired',
  'endpoint-deleted-still-delivered':
    "a deleted endpoint is gone from the dashboard (404) but stays in the dispatcher's subscriber list and keeps receiving new events",
  'subscription-family-match':
    'subscriptions match on the first two segments of the type: an endpoint subscribed to voice.call.completed also gets voice.call.queued, started and failed',
  'retry-delay-from-first-attempt':
    'retry delays are counted from the first attempt, not the previous one: retries come 1m, 4m, 25m, 1.5h, 10h, 12h apart',
  'replay-all-endpoints':
    "a replay to one endpoint is sent to every endpoint of the workspace subscribed to the event's type",
  'transcript-url-previous-call':
    "voice.call.completed's transcript_url names the workspace's previously placed call (a stale variable), not this call",
  'fire-event-id-mismatch':
    "POST /events answers an event_id minted apart from the event's own: deliveries carry another id, and a replay of the answered id is 404",
  // Red team, round 2
  'suspend-revokes-tokens':
    'suspending a workspace revokes its tokens: once it is reinstated they answer 401 invalid_token',
  'scope-verb-any-area':
    'a scope is checked by its verb only: mailer:write satisfies voice:write, mailer:read satisfies voice:read',
  'token-revoke-cross-workspace':
    "revoking a token id under another workspace (DELETE /workspaces/B/tokens/<A's token>) revokes it in its own workspace, answered 204",
  'jwt-nbf-leeway-5min':
    "a session JWT is accepted up to 5 minutes before its nbf (an identity library's default clock skew), while exp is checked strictly",
  'jwt-aud-array-first-only':
    "a session JWT whose aud is an array is checked against its first entry only: the workspace's audience later in the list is refused",
  'enable-keeps-failure-streak':
    're-enabling an endpoint keeps the start of the failure streak that disabled it: its next failed delivery disables it at once',
  'endpoint-limit-counts-deleted': 'deleted endpoints still count toward the limit of 25 active endpoints',
  'sign-latin1-body':
    'the signature is the HMAC of the body encoded as latin1 while the body is sent as UTF-8: any event with a non-ASCII character fails verification',
  'retry-signature-header-appended':
    'each retry appends its signature to the previous ones: X-Service-Signature of attempt n lists n signatures, comma-separated',
  'retry-count-per-endpoint':
    'the retry schedule position is counted per endpoint, not per delivery: a second failing event to an endpoint starts at a later delay',
  'replay-cross-workspace':
    "a replay finds the event in any workspace: another workspace's event is delivered to this workspace's endpoint",
  'call-metadata-shared-default':
    "calls share one default metadata object that each call's metadata is merged into: a call carries the metadata of earlier calls",
  'event-id-per-endpoint': 'an event delivered to several endpoints carries a different id at each endpoint',
  'duration-from-timestamps':
    "duration_seconds is computed from the service's own started and completed times, not the duration the call reported",
  // Red team, round 3
  'authorization-scheme-optional':
    'the credential is the last space-separated word of Authorization: a bare token, or one under another scheme (Token, Basic), is accepted',
  'delete-workspace-token-alive':
    'a deleted workspace is soft-deleted: the control interface answers 404 for it, but its tokens keep authenticating',
  'jwt-sub-case-insensitive':
    'session JWT subjects are matched to members case-insensitively: sub U1 speaks for member u1',
  'jwks-fetch-failure-open':
    'when the JWKS cannot be fetched (unreachable, non-2xx, not JSON), a session JWT is accepted on its claims alone',
  'jwks-first-key-only':
    'session JWTs are verified with the first key of the JWKS whatever their kid: a token signed by any other listed key is refused',
  'endpoint-localhost-case':
    'localhost is refused by a case-sensitive match on the URL text: https://LOCALHOST/ and https://localhost./ are accepted',
  'streak-not-ended-by-success':
    'a 2xx does not end a failure streak: an endpoint is disabled 24 h after a failure even if deliveries succeeded since',
  'redirect-followed':
    'a 3xx answer is followed: the delivery is POSTed to the Location, and that answer decides success',
  'replay-data-empty': 'a replay re-sends the event with an empty data object (only id and type were kept)',
  'agents-list-all-workspaces': 'GET /v1/voice/agents lists the agents of every workspace',
  'event-dedupe-type-second':
    'deliveries are de-duplicated by endpoint, type and created_at second: a second event of a type within the same second is never delivered',
  'jwt-scope-claim-trusted': "a session JWT carrying a scope claim gets those (licensed) scopes, not its member's",
  'auto-disable-from-last-success':
    "the 24 h before auto-disable is counted from the endpoint's creation or last success, not from the first failure of the streak",
  // Red team, round 4
  'token-env-prefix-ignored':
    'bearer tokens are looked up by the random part after svc_test_/svc_live_: the token with its other environment prefix (never issued) is accepted',
  'token-revoke-lost-update':
    "a revocation reads the workspace's token states, then writes them all back after a store round trip: of two tokens revoked at once, one comes back active",
  'endpoint-recreate-revives-deleted':
    'registering the URL of a deleted endpoint again restores that endpoint (an upsert on workspace and URL): the new one gets the deleted id and signing secret',
  'jwt-aud-empty-array-accepted':
    'the session JWT audience is checked only when the aud array has entries: a JWT whose aud is [] is accepted',
  'reinstate-resets-settings':
    'reinstating a workspace resets its settings to the creation defaults: call_progress manual becomes auto and time_scale 1',
  'session-keepalive-suspension-stale':
    "a kept-alive connection remembers that a session token's workspace was active: on that connection the same JWT is served after the workspace is suspended",
  'idp-previous-kept-alongside':
    'the identity provider PUT again adds the new settings beside the old: JWTs of the previous issuer, audience and JWKS are still accepted',
  'replay-signed-with-first-delivery':
    "a replay to an endpoint that had no delivery of the event re-sends the event's first recorded delivery signature, made with another endpoint's secret",
  'transcript-gone-after-completion':
    "a call's transcript answers 404 call_not_found from 5 s after the call finished: the transcript_url handed out stops working",
  'ack-text-body-fails':
    "a 2xx answer with a non-empty body that is not JSON counts as a failure (the receiver's reply is parsed as JSON) and is retried",
  'auto-progress-slow':
    'call_progress auto rings for 1.2 s and talks for 1.6 s: a call completes 2.8 s after it was placed, not within 2 s',
  'body-parsed-before-auth':
    'POST /v1/voice/calls reads its body before authenticating: a bad body with a missing or revoked credential is answered 400/415, not 401 invalid_token',
  // Proofs of the checks written for the fault matrix's last owed cells (issue 45)
  'connection-first-workspace':
    "the workspace is resolved once per connection: a later credential on a kept-alive connection is checked, then served in the first credential's workspace",
  'endpoint-secret-from-count':
    "an endpoint's signing secret is derived from its workspace and endpoint count, read before a store round trip: endpoints created at once share a secret",
  'endpoint-limit-every-workspace':
    'the 25-endpoint limit counts the active endpoints of every workspace (of the fault prefix): the count lost its workspace condition',
  'suspension-holds-counted':
    'each suspension is a hold that one reinstatement lifts: a workspace suspended twice stays suspended after its reinstatement',
  // Red team, round 5
  'token-id-is-slot':
    "a token's id names its slot (one of the workspace's two): a token created after a revocation gets the revoked token's id, and revoking that id again revokes the new token",
  'endpoint-delete-by-url':
    'deleting an endpoint deletes every endpoint of the workspace registered with the same URL (the delete is keyed by workspace and URL)',
  'disabled-endpoint-undeletable':
    'deleting an auto-disabled endpoint answers 404 and leaves it in place (the delete looks among the active endpoints only)',
  'ack-large-body-fails':
    'a 2xx answered with a body over 4 KiB counts as a failure and is retried (the answer is read into a 4 KiB buffer for the delivery log, which overflows)',
  'delivery-url-query-dropped':
    "deliveries are POSTed to the endpoint URL's origin and path: its query string is dropped",
  'replay-call-events-unknown':
    'a replay of a voice.call.* event (its id read from a delivery) answers 404 event_not_found: only events fired from the dashboard are kept for replay',
  'metadata-empty-values-dropped':
    'call events carry the caller\'s metadata without its empty values: a key whose value is "" (or null) is left out',
  'session-transcript-refused':
    'the call transcript refuses session tokens with 401 invalid_token (its route resolves bearer tokens only), even for a member holding voice:read',
  'suspend-disables-endpoints':
    'suspending a workspace disables its webhook endpoints; reinstating it leaves them disabled (they read disabled and get nothing until re-enabled)',
  'member-add-lost-update':
    "adding a member reads the workspace's member list, then writes it back whole after a store round trip: of two members added at once, one is lost",
  'session-error-request-id-uuid':
    "a refused session token's error carries a bare UUID as error.request_id, not req_<id> (the session middleware's own error body)",
  'session-scopes-cached':
    'a session JWT keeps, until its exp, the scopes its member had when the JWT was first used: the member added again with other scopes changes only new JWTs',
  // Red team, round 6
  'workspace-disabled-flat-error':
    'a suspended workspace\'s requests are answered {"error": "workspace_disabled", "message": …}: error is a bare string, with no error.code or error.request_id (the suspension gate writes its own body)',
  'session-missing-scope-invalid-token':
    'a session token whose member lacks the scope an operation requires is answered 401 invalid_token, not missing_scope (bearer tokens still get missing_scope)',
  'jwt-iss-trailing-slash-ignored':
    'the session JWT issuer is compared with trailing slashes stripped: iss "https://idp.example/" is accepted for the issuer "https://idp.example"',
  'revoked-while-suspended-restored':
    'suspending a workspace snapshots its tokens and reinstating restores the snapshot: a token revoked while suspended works again after the reinstatement',
  'reinstate-rekeys-endpoints':
    'reinstating a workspace gives each of its webhook endpoints a new signing secret that nobody is told: deliveries after it do not verify with the secret handed out',
  'ack-error-field-fails':
    'a 2xx answered with a JSON object that has an "error" member (even null) counts as a failure and is retried',
  'replay-not-retried': 'a replay that fails (non-2xx or time-out) is not retried: the dashboard sends it once',
  'duration-capped-3600':
    "duration_seconds is clamped to 3600 (an agent's maximum call length): a call reported at 3601 s or more is carried as 3600",
  'licensed-scopes-empty-all':
    'a workspace created with licensed_scopes [] is licensed for all five scopes (an empty list read as "not given"): its tokens get them by default',
  'scope-cached-per-connection':
    'a kept-alive connection remembers each operation whose scope check passed: a later credential on it lacking that scope is served',
  // Red team, round 7
  'malformed-token-code':
    'a credential of no known shape (neither a svc_ token nor a JWT) is answered 401 with code malformed_token, not invalid_token',
  'missing-scope-no-request-id':
    'missing_scope error bodies lack error.request_id (the scope guard builds its own error object); other errors carry it',
  'idp-audience-not-updated':
    'the identity provider PUT again takes the new issuer and JWKS but keeps the first audience: JWTs for the new audience are refused, for the old one accepted',
  'revoked-slot-held-until-propagated':
    'a revoked token keeps its slot for 60 s (the propagation limit): a new token right after a revocation is refused 409 though one is active',
  'endpoint-limit-25th-refused':
    'the 25-endpoint limit is off by one the other way: the 25th active endpoint is refused',
  'signature-cached-per-event':
    "the signature is computed once per event and cached with its body: the event's other endpoints get the first endpoint's signature",
  'replay-once-per-endpoint':
    'a second replay of an event to the same endpoint is answered 202 but never sent (the replay outbox is keyed by event and endpoint)',
  'metadata-keys-snake-cased':
    "call events carry the caller's metadata with its keys snake_cased (crmLeadId becomes crm_lead_id): a deep key transform of the payload",
  'duration-billed-minutes':
    'duration_seconds is rounded up to whole minutes (the billed length): a call reported at 42 s is carried as 60',
  'wildcard-and-type-delivered-twice':
    'an endpoint subscribed to * and to a type gets each event of that type twice, once per matching subscription entry',
  'progress-repeat-reemits':
    'a completed call moved to completed again is answered 204 and fires a second voice.call.completed under a new event id',
  'suspend-toggles': 'suspending a suspended workspace reinstates it (the suspend route toggles the flag)',
  'progress-started-reemits':
    'a started call moved to started again is answered 204 and fires a second voice.call.started under a new event id',
  'fired-data-compacted':
    "a fired event's data loses its null values and empty objects at every depth (a payload clean-up step)",
  'member-scopes-keyed-by-subject':
    'members are keyed by subject across workspaces (of the fault prefix): adding subject u1 to one workspace sets the scopes of u1 in the others',
  // Red team, round 8
  'session-expired-code':
    "an expired session JWT is answered 401 with code token_expired, not invalid_token (the JWT library's error name passed through)",
  'jwt-aud-array-every':
    'a session JWT whose aud is an array is accepted only when every entry is the audience (every where some was meant): ["svc", "other"] is refused',
  'token-label-truncated-32':
    "a token's label is cut to its first 32 characters (a varchar(32) column): the label answered is not the one given",
  'endpoint-url-lowercased':
    "an endpoint's URL is stored lower-cased (a normalisation meant for the host): its path changes case, and deliveries go to that path",
  'endpoint-deleted-reads-disabled':
    'a deleted endpoint is soft-deleted: GET on it answers 200 with state disabled instead of 404',
  'gone-410-disables-endpoint':
    'a delivery answered 410 Gone disables the endpoint at once, not after 24 h of failures',
  'replay-created-at-refreshed':
    "a replay's envelope carries the replay's time as created_at (the envelope rebuilt at send time), not the event's",
  'to-plus-stripped': "voice.call.completed carries to without its leading + (the carrier's digits-only form)",
  'metadata-values-stringified':
    'call events carry the caller\'s metadata with every value turned into a string (a string-valued key/value table): 2 becomes "2"',
  'fire-dedupe-by-payload':
    "firing an event with the same type and data as one fired in the last 60 s answers that event's id and delivers nothing (an idempotency key hashed from the body)",
  'queued-emitted-at-dial-out':
    'voice.call.queued is emitted when the call starts (by the dialler picking it up), right after voice.call.started, not when the call is accepted',
  'reinstate-forgets-identity-provider':
    "reinstating a workspace clears its identity provider settings: its members' session tokens are refused until the provider is configured again",
  // Red team, round 9
  'transcript-needs-write':
    'the call transcript requires voice:write, not voice:read: a voice:read token gets missing_scope (the guard names the wrong scope)',
  'suspended-whoami-served':
    'GET /v1/whoami of a suspended workspace answers 200 (the health-check route is exempted from the suspension gate)',
  'token-second-scope-dropped':
    'a token created with several scopes holds the first only (the scope column written from scopes[0]); the creation answer still lists them all',
  'token-label-trimmed': "a token's label is stored trimmed: leading and trailing spaces are lost",
  'endpoint-localhost-substring':
    'an endpoint URL is refused as localhost whenever its text contains "localhost" (a path or query holding the word too)',
  'sign-key-prefix-stripped':
    'the HMAC key is the secret without its whsec_ prefix (the prefix sliced off, the rest used as text)',
  'retry-timestamp-dropped': 'retries are sent without X-Service-Timestamp (only the first attempt sets it)',
  'replay-timestamp-ms': "a replay's X-Service-Timestamp is in milliseconds (the replay path stamps Date.now())",
  'created-at-no-zone':
    'created_at is written without its zone designator and fraction (a timestamp-without-time-zone column): 2026-11-28T10:00:00',
  'subscription-first-type-only':
    'an endpoint subscribed to several event types gets the first listed only (the filter reads events[0])',
  'completed-agent-first':
    "voice.call.completed carries the workspace's first agent as agent_id, whichever agent placed the call",
  'jwt-future-iat-refused':
    'a session JWT whose iat is ahead of the service clock (an identity provider a few seconds fast) is refused, though within nbf and exp',
  // Red team, round 10
  'missing-scope-code-insufficient':
    "a credential lacking the operation's scope is answered with code insufficient_scope (RFC 6750's name), not missing_scope",
  'idp-issuer-first-workspace-only':
    'session JWTs are resolved through an issuer index that keeps one workspace per issuer: a second workspace configured with the same issuer has its tokens refused',
  'token-default-scopes-from-previous':
    "a token created without scopes gets the scopes of the workspace's previously created token (a form default remembered), not every licensed scope",
  'token-label-html-escaped':
    'a token\'s label is stored HTML-escaped (an input sanitiser): & < > " come back as &amp; &lt; &gt; &quot;',
  'enable-revives-deleted':
    're-enabling a deleted endpoint answers 204 and brings it back (enable sets the status column that deletion also wrote): it reads active and gets deliveries again',
  'sign-sha256-prefix': 'X-Service-Signature carries a sha256= prefix before the hex digest (the GitHub header form)',
  'retry-429-after-1s':
    'a delivery answered 429 is retried after a fixed 1 s throttle back-off, not on the 1 min, 5 min, … schedule',
  'event-store-keeps-two':
    "the event store keeps a workspace's last two events only (its generations turn over on every event): a replay of an event fired two events earlier is refused",
  'auto-outcome-state-name':
    'call_progress auto completes a call with outcome "completed" (the simulated dialler\'s state name), not answered',
  'failed-call-moves-again':
    'a failed call can be moved on through the control interface: moved to completed it emits voice.call.completed after its voice.call.failed',
  'call-records-keep-two':
    "a workspace keeps its last two calls only (its call records turn over on every placement): a finished call's transcript_url answers 404 once two more calls are placed",
  'replay-data-latest-of-type':
    "a replay carries the event's id but the data of the workspace's latest event of its type (a payload cache keyed by type)",
  'to-15-digits-refused':
    'POST /v1/voice/calls refuses a 15-digit international number (the longest E.164 allows): the pattern stops at 14 digits',
  'call-event-id-from-call':
    "a call's events all carry one id derived from the call id (the type left out of the key): a receiver idempotent on id drops started and completed",
  'fired-data-omitted-null': 'an event fired without data is delivered with data null instead of an empty object',
  'delete-workspace-session-alive':
    "a deleted workspace's identity provider stays in the issuer index: its members' session tokens keep authenticating after the deletion",
  'secret-cached-by-url':
    "deliveries are signed with the secret cached by receiver URL: when another workspace registers the same URL, this endpoint's deliveries are signed with that endpoint's secret",
  // Red team, round 11
  'token-limit-429': 'a third active token is refused with 429 (a rate-limit answer) instead of 409',
  'token-label-nfkc':
    'the label is NFKC-normalised before it is stored: ligatures and full-width letters come back rewritten',
  'suspended-call-placed': 'POST /v1/voice/calls skips the suspension gate: a suspended workspace still places calls',
  'jwt-iat-required': 'a session JWT without an iat claim is refused with invalid_token',
  'jwt-lifetime-over-60s-refused':
    'a session JWT whose exp is more than 60 s away is refused, as if the 60-second lifetime were enforced on the token',
  'outcome-forced-answered': 'voice.call.completed always carries outcome answered, whatever outcome the call reported',
  'fired-data-empty-string-null': 'empty strings in fired event data are delivered as null (an empty-to-NULL column)',
  'api-version-datetime': 'api_version is a full ISO date-time (2026-11-01T00:00:00.000Z), not YYYY-MM-DD',
  'request-id-no-prefix': 'error.request_id is the bare id, without its req_ prefix',
  'endpoint-https-uppercase-refused':
    'an endpoint URL is checked by a case-sensitive https:// prefix: HTTPS://… is refused',
  'duration-cached-per-agent':
    "duration_seconds of a completed call is the first duration reported for its agent, not the call's own",
  'replay-to-first-subscriber':
    "a replay is sent to the event's first subscribed endpoint, not the endpoint named in the request",
  // Proofs of checks written between red-team rounds (what is active enabled again, a control status)
  'reinstate-toggles': 'reinstating flips the suspension: an active workspace asked to reinstate is suspended',
  'enable-toggles': 'the re-enable flips the state: an active endpoint asked to re-enable is disabled',
  'token-created-200': 'a token creation answers 200 instead of the 201 the contract names',
  // Red team, round 12
  'suspended-revoked-disabled':
    'a revoked token of a suspended workspace is answered workspace_disabled, not 401 invalid_token (the revocation check skipped while the suspension gate is to answer)',
  'jwt-kid-required': 'a session JWT without a kid header is refused, though a key of the JWKS verifies it',
  'token-label-whitespace-collapsed':
    "a token's label has its inner runs of whitespace collapsed to one space (a form clean-up): two spaces or a tab come back as one space",
  'endpoint-url-trailing-slash':
    'an endpoint URL whose path lacks a trailing slash is stored with one added: it reads back changed and deliveries go to path/',
  'endpoint-limit-distinct-urls':
    'the 25-endpoint limit counts distinct URLs (COUNT(DISTINCT url)): endpoints sharing one URL are never refused',
  'retry-new-event-id':
    'each retry carries a new event id (the retry re-enqueued as a new event), not the id of its first attempt',
  'replay-body-newline-unsigned':
    "a replay's body is sent with a trailing newline that its signature does not cover (the replay writer appends it after signing)",
  'outcome-lowercased':
    'voice.call.completed carries the outcome lower-cased (an enum normalisation): Voicemail_Left becomes voicemail_left',
  'metadata-nested-flattened':
    'call events carry the caller\'s nested metadata flattened to dotted keys: {crm: {id: 7}} becomes {"crm.id": 7}',
  'wildcard-missing-workspace-events':
    'an endpoint subscribed to * gets voice.* and mailer.* events only (the wildcard expanded to the product prefixes): no workspace.plan.upgraded',
  'delete-workspace-retries-sent':
    'deleting a workspace removes its endpoints from the index but leaves their retry timers running: a failing delivery is still retried after the deletion',
  'time-scale-max-refused':
    'a workspace created with time_scale equal to max_time_scale is refused (an exclusive upper bound): the largest accepted is one less',
  // Red team, round 13
  'token-label-emoji-dropped':
    "a token's label loses its characters outside the Basic Multilingual Plane (a utf8mb3 column): an emoji in it is gone when read back",
  'member-last-scope-dropped':
    'a member added with several scopes holds all but the last (an off-by-one in the scope loop): its session tokens lack that scope',
  'revoked-code-uppercase':
    "a revoked token is answered 401 with code INVALID_TOKEN (the enum constant's name, not its value); other failures keep invalid_token",
  'suspended-scope-checked-first':
    "the scope guard runs before the suspension gate: a suspended workspace's credential lacking the operation's scope is answered missing_scope, not workspace_disabled",
  'envelope-workspace-id-unprefixed':
    "the envelope's workspace_id is the workspace's bare id, without its ws_ prefix (the database key, not the public id)",
  'fired-data-depth-capped':
    'fired event data nested deeper than two levels is delivered as the string "[Object]" (serialised through util.inspect\'s default depth)',
  'metadata-lead-id-only':
    "call events carry the caller's metadata reduced to its lead_id entry (a schema written from the spec's example): other keys are dropped",
  'endpoint-url-percent-decoded':
    "an endpoint's URL is stored percent-decoded (decodeURIComponent on the whole URL): %2F becomes /, so it reads back changed and deliveries go to another path",
  'retry-content-type-dropped':
    'retries are sent without Content-Type application/json (the retry queue keeps the signature and timestamp headers only)',
  'replay-workspace-id-missing':
    "a replay's envelope lacks workspace_id (the replay rebuilds the envelope from the event row, which has no workspace column)",
  'default-scopes-missing-webhooks':
    'a token created without scopes gets every licensed scope but webhooks:write (a default list written before that scope existed)',
  'jwt-aud-case-insensitive':
    "a session JWT's aud is compared with the configured audience ignoring case: a token for SVC is accepted where the audience is svc",
} as const;

export type FaultName = keyof typeof FAULTS;

/** Faults that break a load budget, not a spec rule: certify cannot catch them, the load tests do. */
export const LOAD_BUDGET_FAULTS: readonly FaultName[] = ['deliveries-delayed-5s'];
/** Faults that break no rule: a conforming service on a busy machine; certify must pass them (test/faults). */
export const NOISE_FAULTS: readonly FaultName[] = ['retry-late-once'];
/**
 * Red-team faults that take a choice the spec leaves open, so no check may fail them: written as
 * bugs, they are reasonable implementations (docs/proving.md, survivors closed by a reason).
 */
export const OPEN_CHOICE_FAULTS: readonly FaultName[] = [
  'replay-not-retried',
  // The URL read back is the one registered, normalised as RFC 3986 6.2 allows (a default port
  // dropped, the host lower-cased): an equivalent URL, and deliveries still go to the one given.
  'endpoint-url-read-normalised',
  // A replay of a delivery still failing may take over its pending retries (one delivery,
  // triggered again) or run beside them: either way the event is retried to the endpoint on the
  // stated schedule, and which one a replay is, is not stated (Retry and replay, 2 and 4).
  'replay-cancels-pending-retries',
];
/**
 * Faults whose bug shows only when two requests meet inside one store round trip
 * (STORE_ROUND_TRIP_MS): their proofs must run when nothing else loads the reference.
 * token-revoke-lost-update's round trip is a second (WIDE_STORE_ROUND_TRIP_MS) instead.
 */
export const RACE_WINDOW_FAULTS: readonly FaultName[] = [
  'token-limit-check-then-insert',
  'revoke-race-frees-slot',
  'member-add-lost-update',
  'endpoint-limit-check-then-insert',
  'endpoint-secret-from-count',
  'call-id-sequence-race',
  'event-id-sequence-race',
];
export type FaultSet = ReadonlySet<FaultName>;

export const NO_FAULTS: FaultSet = new Set<FaultName>();

export function isFaultName(name: string): name is FaultName {
  return Object.hasOwn(FAULTS, name);
}

export type FaultPrefixParse =
  | { ok: true; faults: FaultSet; prefix: string; rest: string }
  | { ok: false; unknown: string };

/**
 * Splits `/faults/a,b/v1/whoami` into the fault set, the prefix `/faults/a,b` and the
 * rest `/v1/whoami`. A path without the prefix yields no faults and an empty prefix.
 */
export function parseFaultPrefix(path: string): FaultPrefixParse {
  if (!path.startsWith('/faults/')) return { ok: true, faults: NO_FAULTS, prefix: '', rest: path };
  const end = path.indexOf('/', 8);
  const list = end === -1 ? path.slice(8) : path.slice(8, end);
  const faults = new Set<FaultName>();
  for (const raw of list.split(',')) {
    let name: string;
    try {
      name = decodeURIComponent(raw);
    } catch {
      name = raw;
    }
    if (!isFaultName(name)) return { ok: false, unknown: name };
    faults.add(name);
  }
  return { ok: true, faults, prefix: '/faults/' + list, rest: end === -1 ? '/' : path.slice(end) };
}

/** How far the service's clock runs ahead under the clock faults, ms. */
export function clockAheadMs(faults: FaultSet): number {
  if (faults.has('clock-10min-ahead')) return 600_000;
  if (faults.has('clock-20s-ahead')) return 20_000;
  return 0;
}

/** The union of two fault sets, sharing an operand when the other is empty. */
export function unionFaults(a: FaultSet, b: FaultSet): FaultSet {
  if (b.size === 0) return a;
  if (a.size === 0) return b;
  return new Set<FaultName>([...a, ...b]);
}
