/**
 * The check catalog, for both subjects: the service (`npm run certify`, checks in
 * suites/<area>.suite.ts) and a team's webhook receiver (`npm run certify:receiver`, checks
 * in src/receiver-cert/checks/, where the harness plays the service). The single source of
 * every check's id, title, level, tier, the clauses it cites (ids from spec-clauses.ts, the
 * control contract's `CTL-*` from contract-clauses.ts), the one of them that makes a `must`
 * a must, and its numeric tolerance where the rule states one. Suites and
 * receiver checks refer to checks by id; reports, docs/traceability.md and the clause →
 * checks map are generated from here; the fault registries in test/ name the ids each
 * fault must break.
 *
 * Ids are stable across versions: rename a title freely, never an id. Receiver checks run
 * in the order listed (the status and latency checks read what earlier checks saw).
 */
import { CatalogError } from '../errors.js';
import { CLAUSE_IDS, renderClauses, type ClauseId } from './spec-clauses.js';

export type Level = 'must' | 'should' | 'observe';

export type Subject = 'service' | 'receiver';

/** `full`: only under CERTIFY_TIER=full (real-time waits); reported `skip` in `fast`. */
export type Tier = 'fast' | 'full';

/** Which suite file (suites/<area>.suite.ts) holds a service check. */
export type Area =
  | 'auth-errors'
  | 'scopes'
  | 'tokens'
  | 'revocation'
  | 'workspace'
  | 'isolation'
  | 'input'
  | 'session'
  | 'session-attacks'
  | 'webhook-registration'
  | 'webhook-envelope'
  | 'webhook-signature'
  | 'webhook-delivery'
  | 'webhook-retry'
  | 'webhook-replay'
  | 'state-model';

export type ReceiverArea =
  | 'receiver-acceptance'
  | 'receiver-signature'
  | 'receiver-timestamp'
  | 'receiver-replay'
  | 'receiver-status'
  | 'receiver-timing';

/**
 * The numeric bound a check's rule states, the clause that states it, and what the check
 * allows around it for jitter and measurement error (printed in docs/traceability.md).
 */
export interface Tolerance {
  /** The bound itself, when the rule states one number. */
  seconds?: number;
  clause: ClauseId;
  /** What is allowed around the bound, and why. */
  allowance?: string;
}

interface EntryFields {
  id: string;
  title: string;
  level: Level;
  tier: Tier;
  /** The clauses of the spec and of the control contract (`CTL-*`) the check traces to. */
  clauses: readonly ClauseId[];
  /** The same clauses as a report's `clause` field shows them ("Events > Signature: SIG-1, SIG-4"). */
  clause: string;
  tolerance?: Tolerance;
  /** Where the spec leaves a choice open: every choice the check accepts (docs/traceability.md, "Accepted"). */
  accepts?: string;
  /**
   * The one clause whose sentence makes the check a `must` (one of `clauses`); every `must`
   * has one (test/catalog/grounds.test.ts).
   */
  ground?: ClauseId;
  /**
   * An outside document the check also rests on ("RFC 7515, 4.1.11"). It never makes a
   * check a `must` by itself: a rule only it states is a `should`.
   */
  source?: string;
}

export interface CheckSpec extends EntryFields {
  subject: 'service';
  area: Area;
}

export interface ReceiverCheckSpec extends EntryFields {
  subject: 'receiver';
  area: ReceiverArea;
}

export type CatalogEntry = CheckSpec | ReceiverCheckSpec;

/** What an entry of the catalog states, by name: each `service({...})` or `receiver({...})` below. */
interface EntryInput {
  id: string;
  level: Level;
  title: string;
  /** The clauses of the spec and of the control contract (`CTL-*`) the check traces to. */
  clauses: readonly ClauseId[];
  /** Default `fast`. */
  tier?: Tier;
  tolerance?: Tolerance;
  accepts?: string;
  ground?: ClauseId;
  source?: string;
}

/** Throws at load time on a clause id the type checker did not see (renderClauses) or a tolerance its check does not cite. */
function fields(input: EntryInput): EntryFields {
  const { id, level, title, clauses } = input;
  if (clauses.length === 0) throw new CatalogError(`check ${id} cites no spec clause`);
  if (input.tolerance && !clauses.includes(input.tolerance.clause)) {
    throw new CatalogError(`check ${id}: its tolerance's clause ${input.tolerance.clause} is not among its clauses`);
  }
  if (input.ground && !clauses.includes(input.ground))
    throw new CatalogError(`check ${id}: its ground ${input.ground} is not among its clauses`);
  return {
    id,
    title,
    level,
    tier: input.tier ?? 'fast',
    clauses,
    clause: renderClauses(clauses),
    ...(input.tolerance ? { tolerance: input.tolerance } : {}),
    ...(input.accepts ? { accepts: input.accepts } : {}),
    ...(input.ground ? { ground: input.ground } : {}),
    ...(input.source ? { source: input.source } : {}),
  };
}

/** A check of the service (a suite of suites/ declares its body). */
const service = (input: EntryInput & { area: Area }): CheckSpec => ({
  subject: 'service',
  area: input.area,
  ...fields(input),
});
/** A check of a webhook receiver (src/receiver-cert/checks/ declares its body). */
const receiver = (input: EntryInput & { area: ReceiverArea }): ReceiverCheckSpec => ({
  subject: 'receiver',
  area: input.area,
  ...fields(input),
});

const ENVELOPE: ClauseId[] = [
  'ENV-ID',
  'ENV-TYPE',
  'ENV-CREATED-AT',
  'ENV-WORKSPACE-ID',
  'ENV-API-VERSION',
  'ENV-DATA',
];
const EVENT_TYPES: ClauseId[] = [
  'TYPE-VOICE-CALL-QUEUED',
  'TYPE-VOICE-CALL-STARTED',
  'TYPE-VOICE-CALL-COMPLETED',
  'TYPE-VOICE-CALL-FAILED',
  'TYPE-MAILER-EMAIL-SENT',
  'TYPE-MAILER-REPLY-RECEIVED',
  'TYPE-MAILER-CAMPAIGN-COMPLETED',
  'TYPE-WORKSPACE-PLAN-UPGRADED',
];
const CALL_FIELDS: ClauseId[] = [
  'CALL-FIELD-CALL-ID',
  'CALL-FIELD-AGENT-ID',
  'CALL-FIELD-TO',
  'CALL-FIELD-DURATION-SECONDS',
  'CALL-FIELD-OUTCOME',
  'CALL-FIELD-TRANSCRIPT-URL',
  'CALL-FIELD-METADATA',
];
const RECEIVER_TIMEOUT: Pick<EntryInput, 'tolerance'> = {
  tolerance: { seconds: 30, clause: 'LIMIT-RECEIVER-TIMEOUT' },
};
const TIMESTAMP_WINDOW: Pick<EntryInput, 'tolerance'> = {
  tolerance: { seconds: 300, clause: 'LIMIT-TIMESTAMP-TOLERANCE' },
};
/** The jitter is SCHEDULE_JITTER and the timing error scheduleTolerance's, both in src/suite/timing/error.ts. */
const RETRY_SCHEDULE: Tolerance = {
  clause: 'RETRY-2',
  allowance:
    'each delay ±5% (jitter), plus the measured timing error either way (2 × the harness event-loop delay p99, or 2 × its longest stall during that gap, at least 10 ms) and 3 round trips late (connect, TLS, request); ' +
    "a delay is timed only where it lasts 5 s or more at the time scale used (its 5% above what a busy machine delays the service's own timers); " +
    'the shorter ones of the full schedule (1m, 5m, 30m, 2h at 3600) are counted there and timed each on its own by HOOK-RETRY-EARLY-SCHEDULE; ' +
    'a delay outside its tolerance is measured once more on its own and fails only if outside both times (every delay but 24h, whose 38.6 h of failures would auto-disable the endpoint first)',
};

export const CATALOG: readonly CatalogEntry[] = [
  // --- Authentication errors -----------------------------------------------------------------
  service({
    id: 'AUTH-WHOAMI-ACCEPTED',
    area: 'auth-errors',
    level: 'must',
    title: 'GET /v1/whoami answers 200 to an accepted bearer token',
    clauses: ['EP-WHOAMI', 'AUTH-ROT-2'],
    ground: 'EP-WHOAMI',
    accepts: 'any body (its shape is not shown)',
  }),
  service({
    id: 'AUTH-MISSING-HEADER',
    area: 'auth-errors',
    level: 'must',
    title:
      'A request without a credential (no Authorization, or Bearer and nothing after it) is refused with a 4xx and the error shape',
    clauses: ['EP-AUTH-HEADER', 'ERR-SHAPE'],
    ground: 'ERR-SHAPE',
    accepts:
      'any 4xx and any error.code (recorded): the spec names neither for a missing credential; AUTH-NO-CREDENTIAL-401 asks for 401 invalid_token',
  }),
  service({
    id: 'AUTH-NO-CREDENTIAL-401',
    area: 'auth-errors',
    level: 'should',
    title: 'A request without a credential gets 401 invalid_token',
    clauses: ['EP-AUTH-HEADER', 'ERR-CODE-INVALID-TOKEN'],
  }),
  service({
    id: 'AUTH-MALFORMED-HEADER',
    area: 'auth-errors',
    level: 'must',
    title: 'A malformed bearer credential gets 401 invalid_token',
    clauses: ['ERR-CODE-INVALID-TOKEN'],
    ground: 'ERR-CODE-INVALID-TOKEN',
  }),
  service({
    id: 'AUTH-WRONG-SCHEME',
    area: 'auth-errors',
    level: 'should',
    title:
      'A valid token under a scheme other than Bearer, under none, or followed by another word gets 401 invalid_token',
    clauses: ['AUTH-SCHEMES', 'EP-AUTH-HEADER', 'ERR-CODE-INVALID-TOKEN'],
  }),
  service({
    id: 'AUTH-UNKNOWN-TOKEN',
    area: 'auth-errors',
    level: 'must',
    title: 'A well-formed but unknown svc_test_ token gets 401 invalid_token',
    clauses: ['ERR-CODE-INVALID-TOKEN'],
    ground: 'ERR-CODE-INVALID-TOKEN',
    accepts: 'any error.message and any extra fields',
  }),
  service({
    id: 'AUTH-NEAR-MISS-TOKEN',
    area: 'auth-errors',
    level: 'must',
    title:
      "Near misses of an accepted bearer token (its letters' case changed, one character changed, dropped or added, the token twice, the other environment's prefix, a space inside, percent-encoded, base64) get 401 invalid_token",
    clauses: ['ERR-CODE-INVALID-TOKEN', 'AUTH-TOKEN-1'],
    ground: 'ERR-CODE-INVALID-TOKEN',
  }),
  service({
    id: 'AUTH-ERROR-NO-TOKEN-ECHO',
    area: 'auth-errors',
    level: 'should',
    title:
      'A refused bearer token (an unknown one, near misses of an accepted one) is not handed back in the error body or headers',
    clauses: ['AUTH-TOKEN-3', 'ERR-SHAPE'],
    accepts:
      'a should: "Tokens are secrets" says nothing of error bodies, and echoing a credential to the one who sent it leaks it only to where responses are logged; the token, or its part after svc_test_/svc_live_, anywhere in the answer warns',
  }),
  service({
    id: 'AUTH-CONTROL-NEAR-MISS',
    area: 'auth-errors',
    level: 'must',
    title:
      'The control interface lets in its token only: none, another scheme, and near misses of the token (a character changed, dropped or added, its case changed) get 401, and every control route answers 401 without Authorization',
    clauses: ['CTL-AUTH'],
    ground: 'CTL-AUTH',
    accepts: 'any body with the 401',
  }),
  service({
    id: 'AUTH-LONG-TOKEN',
    area: 'auth-errors',
    level: 'must',
    title: 'A 2 kB token gets 401 invalid_token; a 10 kB one is refused with a 4xx',
    clauses: ['ERR-CODE-INVALID-TOKEN'],
    ground: 'ERR-CODE-INVALID-TOKEN',
    accepts: 'for the 10 kB token, 401 invalid_token or any 4xx of a header limit (431, 400; recorded)',
  }),
  service({
    id: 'AUTH-ERROR-SHAPE',
    area: 'auth-errors',
    level: 'must',
    title: 'Authentication errors carry error.code, error.message and error.request_id (req_)',
    clauses: ['ERR-SHAPE', 'ERR-FIELD-CODE', 'ERR-FIELD-MESSAGE', 'ERR-FIELD-REQUEST-ID'],
    ground: 'ERR-SHAPE',
    accepts: 'extra fields beside error and inside it; any req_ id',
  }),
  service({
    id: 'AUTH-ERROR-MESSAGE',
    area: 'auth-errors',
    level: 'should',
    title:
      "Authentication errors carry a human-readable error.message (at least one letter): seven refused credentials, and with a control interface a revoked token and a deleted workspace's",
    clauses: ['ERR-FIELD-MESSAGE'],
    ground: 'ERR-FIELD-MESSAGE',
    accepts:
      'a should: "human-readable" names no length or language; any words in any script pass, an empty or letterless message warns; answers without the error shape are left to AUTH-ERROR-SHAPE and AUTH-LONG-TOKEN, a revoked token still accepted after a minute to REVOKE-PROPAGATION',
  }),
  service({
    id: 'AUTH-ERROR-JSON',
    area: 'auth-errors',
    level: 'should',
    title: 'Authentication errors are served as application/json',
    clauses: ['ERR-SHAPE', 'SVC-3'],
    accepts: 'application/json or any +json type, with parameters',
  }),
  service({
    id: 'AUTH-REQUEST-ID-UNIQUE',
    area: 'auth-errors',
    level: 'should',
    title:
      "Every error carries its own request id, a req_<id> of the service's, also for requests carrying a request id of the caller's own (X-Request-Id, X-Correlation-Id)",
    clauses: ['RES-REQUEST'],
  }),
  service({
    id: 'AUTH-MALFORMED-PROPERTY',
    area: 'auth-errors',
    level: 'must',
    title:
      'Generated malformed credentials are refused: a bearer credential with 401 invalid_token, anything else with a 4xx and the error shape',
    clauses: ['ERR-CODE-INVALID-TOKEN', 'ERR-SHAPE'],
    ground: 'ERR-CODE-INVALID-TOKEN',
    accepts:
      'for headers holding bytes beyond ASCII, any 4xx (an HTTP layer may refuse them first); for other schemes, any 4xx with the error shape',
  }),

  // --- Scopes --------------------------------------------------------------------------------
  service({
    id: 'SCOPE-AGENTS-READ',
    area: 'scopes',
    level: 'must',
    title: 'GET /v1/voice/agents is allowed exactly to tokens holding voice:read',
    clauses: ['EP-AGENTS', 'AUTH-SCOPE-VOICE-READ'],
    ground: 'EP-AGENTS',
    accepts: 'the refusal with any 4xx and missing_scope',
  }),
  service({
    id: 'SCOPE-CALLS-WRITE',
    area: 'scopes',
    level: 'must',
    title: 'POST /v1/voice/calls is allowed exactly to tokens holding voice:write',
    clauses: ['EP-CALLS', 'AUTH-SCOPE-VOICE-WRITE'],
    ground: 'EP-CALLS',
    accepts: 'the refusal with any 4xx and missing_scope',
  }),
  service({
    id: 'SCOPE-TRANSCRIPT-READ',
    area: 'scopes',
    level: 'must',
    title: 'A call transcript is readable exactly by tokens holding voice:read',
    clauses: ['EP-TRANSCRIPT', 'AUTH-SCOPE-VOICE-READ'],
    ground: 'EP-TRANSCRIPT',
    accepts: 'GET, or POST where GET answers 405 with Allow: POST',
  }),
  service({
    id: 'SCOPE-WHOAMI-ANY',
    area: 'scopes',
    level: 'must',
    title: 'whoami answers 200 to a token of any single scope',
    clauses: ['EP-WHOAMI'],
    ground: 'EP-WHOAMI',
  }),
  service({
    id: 'SCOPE-MISSING-CODE',
    area: 'scopes',
    level: 'must',
    title: 'A valid token lacking the scope gets a 4xx with code missing_scope and the error shape',
    clauses: ['ERR-CODE-MISSING-SCOPE', 'ERR-RULE-1'],
    ground: 'ERR-CODE-MISSING-SCOPE',
    accepts: 'any 4xx status (recorded by SCOPE-MISSING-STATUS)',
  }),
  service({
    id: 'SCOPE-KEPT-ALIVE',
    area: 'scopes',
    level: 'must',
    title:
      'On one kept-alive connection, a token without voice:read is refused missing_scope after one with it listed agents',
    clauses: ['AUTH-SCOPE-VOICE-READ', 'ERR-CODE-MISSING-SCOPE'],
    ground: 'ERR-CODE-MISSING-SCOPE',
    accepts: 'the refusal with any 4xx and missing_scope',
  }),
  service({
    id: 'SCOPE-SUBSET-PROPERTY',
    area: 'scopes',
    level: 'must',
    title: 'For generated scope subsets, each endpoint is allowed exactly when its scope is held',
    clauses: ['AUTH-TOKEN-4', 'AUTH-SCOPE-VOICE-READ', 'AUTH-SCOPE-VOICE-WRITE'],
    ground: 'AUTH-TOKEN-4',
  }),
  service({
    id: 'SCOPE-MISSING-STATUS',
    area: 'scopes',
    level: 'observe',
    title: 'HTTP status used for missing_scope',
    clauses: ['ERR-CODE-MISSING-SCOPE'],
  }),

  // --- Tokens and rotation -------------------------------------------------------------------
  service({
    id: 'TOKEN-LIMIT-TWO',
    area: 'tokens',
    level: 'must',
    title: 'A workspace holds at most two active tokens; a slot frees on revocation',
    clauses: ['STATE-TOKEN-LIMIT', 'LIMIT-TOKENS', 'CTL-TOKEN-LIMIT'],
    ground: 'CTL-TOKEN-LIMIT',
    accepts: 'the third token refused with any 4xx (the contract names 409; the status is recorded)',
  }),
  service({
    id: 'TOKEN-LIMIT-409',
    area: 'tokens',
    level: 'should',
    title: 'A third active token is refused with 409, the status the contract names',
    clauses: ['CTL-TOKEN-LIMIT'],
  }),
  service({
    id: 'TOKEN-DEFAULT-SCOPES',
    area: 'tokens',
    level: 'must',
    title:
      'A token created without scopes has exactly the licensed scopes; a workspace created without licensed_scopes, right after one licensed narrowly, is licensed for all five',
    clauses: ['AUTH-TOKEN-4'],
    ground: 'AUTH-TOKEN-4',
  }),
  service({
    id: 'TOKEN-ANSWER-SCOPES',
    area: 'tokens',
    level: 'must',
    title: "A token created with some scopes is answered with exactly those scopes, not the workspace's licensed ones",
    clauses: ['CTL-TOKEN-CREATE', 'AUTH-TOKEN-4'],
    ground: 'CTL-TOKEN-CREATE',
    accepts: 'the scopes in any order',
  }),
  service({
    id: 'TOKEN-STAGING-PREFIX',
    area: 'tokens',
    level: 'must',
    title: 'Staging tokens carry svc_test_ (production svc_live_)',
    clauses: ['AUTH-TOKEN-2', 'RES-TOKEN'],
    ground: 'AUTH-TOKEN-2',
  }),
  service({
    id: 'TOKEN-LABEL-AS-GIVEN',
    area: 'tokens',
    level: 'should',
    title:
      'A token created with a label (a long one with non-ASCII characters, an empty one) is answered with that label, every character as given',
    clauses: ['RES-TOKEN'],
    accepts: 'the label refused with any 4xx (a length or character limit), or no label in the answer (recorded)',
  }),
  service({
    id: 'ROTATION-BOTH-ACTIVE',
    area: 'tokens',
    level: 'must',
    title: 'With two active tokens, whoami answers 200 to both',
    clauses: ['AUTH-ROT-1', 'AUTH-ROT-2'],
    ground: 'AUTH-ROT-2',
  }),
  service({
    id: 'ROTATION-NO-DOWNTIME',
    area: 'tokens',
    level: 'must',
    title: 'Steady traffic on the new token sees no failure while the old one is revoked',
    clauses: ['AUTH-ROT-1', 'AUTH-ROT-2', 'AUTH-ROT-3'],
    ground: 'AUTH-ROT-2',
  }),
  service({
    id: 'ROTATION-DEPLOY-PHASE',
    area: 'tokens',
    level: 'must',
    title:
      'Through a deploy phase after the new token is created (CERTIFY_ROTATION_DEPLOY_MS), both tokens answer every request, whoami and a scoped call',
    clauses: ['AUTH-ROT-1', 'AUTH-ROT-2'],
    ground: 'AUTH-ROT-2',
    accepts: 'whoami 200 and any 2xx to the agents list; 429 answers (rate limits are not shown), not counted',
  }),
  service({
    id: 'TOKEN-LIMIT-CONCURRENT',
    area: 'tokens',
    level: 'must',
    title:
      "With one token active, concurrent creations leave at most two active: whoami accepts at most two of the workspace's tokens once all have answered",
    clauses: ['STATE-TOKEN-LIMIT', 'LIMIT-TOKENS', 'CTL-TOKEN-LIMIT'],
    ground: 'STATE-TOKEN-LIMIT',
    accepts:
      'one creation granted and the others refused with any 4xx, or all refused (recorded); a created token that whoami refuses with 401 afterwards is not counted active',
  }),
  service({
    id: 'TOKEN-REVOKE-BOTH-AT-ONCE',
    area: 'tokens',
    level: 'must',
    title: 'Two tokens revoked at once are both refused with 401 within a minute',
    clauses: ['STATE-TOKEN-REVOKE', 'ERR-RULE-2', 'CTL-TOKEN-REVOKE', 'LIMIT-REVOCATION'],
    ground: 'STATE-TOKEN-REVOKE',
  }),
  service({
    id: 'TOKEN-REVOKE-CONCURRENT',
    area: 'tokens',
    level: 'must',
    title:
      "One token revoked twice at once, beside a creation, frees one slot: once all have answered and tokens are created until refused, whoami accepts at most two of the workspace's tokens",
    clauses: ['STATE-TOKEN-LIMIT', 'LIMIT-TOKENS', 'CTL-TOKEN-LIMIT', 'STATE-TOKEN-REVOKE', 'CTL-TOKEN-REVOKE'],
    ground: 'STATE-TOKEN-LIMIT',
    accepts:
      'the second revocation done or refused with any 4xx, the creation beside them granted or refused with any 4xx (recorded); the revoked token counted only if whoami still accepts it 60 s after',
  }),
  service({
    id: 'TOKEN-EMPTY-SCOPES',
    area: 'tokens',
    level: 'must',
    title: 'A token created with an empty scope list holds no scope: refused missing_scope wherever one is needed',
    clauses: ['AUTH-TOKEN-4', 'ERR-CODE-MISSING-SCOPE'],
    ground: 'AUTH-TOKEN-4',
    accepts:
      'the creation refused with any 4xx, or a token whose scoped requests are refused with any 4xx and missing_scope (its whoami answer recorded, not judged)',
  }),

  service({
    id: 'TOKEN-UNLICENSED-SCOPE',
    area: 'tokens',
    level: 'must',
    title:
      'A token asked for a scope its workspace is not licensed for does not hold it: refused missing_scope where that scope is needed',
    clauses: ['AUTH-TOKEN-4'],
    ground: 'AUTH-TOKEN-4',
    accepts:
      'the creation refused with any 4xx, or a token whose requests needing the unlicensed scope are refused with any 4xx and missing_scope (its scopes as answered recorded)',
  }),

  // --- Revocation ----------------------------------------------------------------------------
  service({
    id: 'REVOKE-PROPAGATION',
    area: 'revocation',
    level: 'must',
    title: 'A revoked token answers 401 invalid_token within 60 s, on fresh and kept-alive connections',
    clauses: ['AUTH-ROT-3', 'ERR-RULE-2', 'LIMIT-REVOCATION', 'CTL-TOKEN-REVOKE'],
    ground: 'ERR-RULE-2',
    tolerance: { seconds: 60, clause: 'LIMIT-REVOCATION' },
    accepts: 'any propagation time under 60 s (recorded)',
  }),
  service({
    id: 'REVOKE-STAYS-REVOKED',
    area: 'revocation',
    level: 'must',
    title: 'After propagation, a revoked token gets 401 invalid_token on every endpoint, every time',
    clauses: ['STATE-TOKEN-REVOKE', 'ERR-RULE-2'],
    ground: 'ERR-RULE-2',
  }),

  service({
    id: 'REVOKE-SUSPENDED-STILL-INVALID',
    area: 'revocation',
    level: 'should',
    title: 'A revoked token stays 401 invalid_token once its workspace is suspended too, not workspace_disabled',
    clauses: ['ERR-RULE-2', 'ERR-CODE-WORKSPACE-DISABLED'],
    accepts:
      "a should: the suspension rule speaks of the workspace's requests, and a service may check the workspace before the credential",
  }),
  service({
    id: 'REVOKE-ONE-TOKEN',
    area: 'revocation',
    level: 'must',
    title:
      "Revoking a token revokes that token only: the workspace's other token and another workspace's token, all with the same label, keep working",
    clauses: ['CTL-TOKEN-REVOKE', 'STATE-TOKEN-REVOKE', 'AUTH-ROT-1', 'SVC-2'],
    ground: 'AUTH-ROT-1',
    accepts: "any propagation of the revoked token's refusal within 60 s; the others watched 5 s after it",
  }),

  // --- Workspace suspension ------------------------------------------------------------------
  service({
    id: 'WS-SUSPENDED-CODE',
    area: 'workspace',
    level: 'must',
    title:
      "A suspended workspace answers workspace_disabled with a 4xx and the error shape on whoami, agents, placing a call and a call's transcript",
    clauses: ['ERR-CODE-WORKSPACE-DISABLED', 'CTL-WS-SUSPEND', 'EP-TRANSCRIPT'],
    ground: 'CTL-WS-SUSPEND',
    accepts: 'any 4xx status (recorded by WS-DISABLED-STATUS)',
  }),
  service({
    id: 'WS-SUSPENSION-HOLDS',
    area: 'workspace',
    level: 'must',
    title:
      'Registering an endpoint, firing an event, adding a member or creating a token on a suspended workspace (done or refused) leaves it suspended',
    clauses: ['CTL-WS-SUSPEND', 'ERR-CODE-WORKSPACE-DISABLED'],
    ground: 'CTL-WS-SUSPEND',
    accepts: 'each operation done or refused with any 4xx (recorded); whoami on a fresh connection after each',
  }),
  service({
    id: 'WS-SUSPENDED-BEFORE-SCOPE',
    area: 'workspace',
    level: 'should',
    title:
      'On a suspended workspace, a request its credential lacks the scope for answers workspace_disabled, not missing_scope',
    clauses: ['CTL-WS-SUSPEND', 'ERR-CODE-WORKSPACE-DISABLED', 'ERR-CODE-MISSING-SCOPE'],
    accepts:
      'a should: the contract makes every public request of the workspace answer workspace_disabled, and a service may authorise the scope first',
  }),
  service({
    id: 'WS-REINSTATED',
    area: 'workspace',
    level: 'must',
    title: 'After reinstatement the workspace answers 200 again; reinstating an active workspace leaves it active',
    clauses: ['ERR-CODE-WORKSPACE-DISABLED', 'CTL-WS-REINSTATE'],
    ground: 'CTL-WS-REINSTATE',
    accepts: 'the reinstatement of an active workspace answered 2xx or refused with any 4xx (recorded)',
  }),
  // The contract makes DELETE optional and states nothing after it; every user expects a deleted workspace's tokens to stop.
  service({
    id: 'WS-DELETED-TOKENS',
    area: 'workspace',
    level: 'should',
    title:
      "A deleted workspace's token no longer authenticates: whoami answers a 4xx within 60 s of the deletion, and still after the workspace is asked to reinstate",
    clauses: ['AUTH-TOKEN-1', 'SVC-2'],
    accepts:
      'any 4xx; the reinstatement refused or answered 2xx; skipped where DELETE /workspaces/{ws} is not supported (the workspace still takes a new token)',
  }),
  service({
    id: 'WS-REINSTATED-KEEPS-SETTINGS',
    area: 'workspace',
    level: 'must',
    title:
      "A reinstated workspace keeps its settings and its endpoints' secrets: under call_progress manual, a call placed after it stays queued until moved, its event is signed with the secret as registered, and a member's session token is still accepted",
    clauses: ['CTL-WS-REINSTATE', 'CTL-WS-CALL-PROGRESS', 'REG-2', 'CTL-SESSION-JWT'],
    ground: 'CTL-WS-CALL-PROGRESS',
  }),
  service({
    id: 'WS-SUSPEND-ONE-WORKSPACE',
    area: 'workspace',
    level: 'must',
    title:
      'Suspending a workspace suspends that workspace only: another one keeps answering its token; with both suspended, reinstating one leaves the other suspended',
    clauses: ['CTL-WS-SUSPEND', 'CTL-WS-REINSTATE', 'SVC-2', 'EP-WHOAMI'],
    ground: 'CTL-WS-SUSPEND',
  }),
  service({
    id: 'CTL-SUCCESS-STATUSES',
    area: 'workspace',
    level: 'should',
    title:
      'Every control operation that succeeds answers the status the contract names: 201 for a creation or a fired event, 204 for a change, 202 for a replay, 200 for a read',
    clauses: [
      'CTL-WS-SUSPEND',
      'CTL-WS-REINSTATE',
      'CTL-TOKEN-REVOKE',
      'CTL-EVENT-FIRE',
      'CTL-HOOK-SECRET',
      'CTL-WS-CALL-PROGRESS',
    ],
    accepts: 'the operations of a control adapter are not read (skipped: no HTTP statuses)',
  }),
  service({
    id: 'CTL-CREATE-ANSWER-FIELDS',
    area: 'workspace',
    level: 'must',
    title:
      "The creation answers of a token, an endpoint, a member and an event have the contract's fields with their types: token_id, token, label and scopes; endpoint_id, secret and state active; member_id; event_id, each id a string",
    clauses: ['CTL-TOKEN-CREATE', 'CTL-HOOK-CREATE', 'CTL-SESSION-MEMBER', 'CTL-EVENT-FIRE'],
    ground: 'CTL-HOOK-CREATE',
    accepts: "fields beyond the contract's (recorded by name); ids of any form but a non-empty string",
  }),
  service({
    id: 'CTL-ENDPOINT-READ-FIELDS',
    area: 'workspace',
    level: 'must',
    title:
      'A new endpoint reads back with every field the contract shows: its endpoint_id, URL and event types as registered, state active, flagged false',
    clauses: ['CTL-HOOK-READ', 'STATE-ENDPOINT-FLAG'],
    ground: 'CTL-HOOK-READ',
    accepts: 'the event types in any order; skipped under a control adapter (its answers are not HTTP bodies)',
  }),
  service({
    id: 'WS-DELETED-NO-DELIVERIES',
    area: 'webhook-retry',
    level: 'should',
    title: "A deleted workspace's pending retry is not sent: nothing reaches its endpoint after the deletion",
    clauses: ['RETRY-2', 'EVT-DELIVERY'],
    accepts:
      'skipped where DELETE /workspaces/{ws} is not supported (the contract makes it optional), or where the deletion was answered less than 500 ms before the retry could be sent (it may have left first)',
  }),
  service({
    id: 'WS-DISABLED-STATUS',
    area: 'workspace',
    level: 'observe',
    title: 'HTTP status used for workspace_disabled',
    clauses: ['ERR-CODE-WORKSPACE-DISABLED'],
  }),

  // --- Tenant isolation ----------------------------------------------------------------------
  service({
    id: 'TENANT-TRANSCRIPT',
    area: 'isolation',
    level: 'must',
    title: "A token never reads another workspace's call transcript",
    clauses: ['SVC-2', 'AUTH-TOKEN-1'],
    ground: 'SVC-2',
    accepts: 'GET, or POST where GET answers 405 with Allow: POST',
  }),
  service({
    id: 'TENANT-REPLAY',
    area: 'isolation',
    level: 'must',
    title:
      "A workspace's replay never sends another workspace's event, nor sends its own to another workspace's endpoint",
    clauses: ['SVC-2', 'RETRY-4'],
    ground: 'SVC-2',
    accepts: 'the replay refused with any 4xx, or accepted and nothing sent (watched 2 s)',
  }),
  service({
    id: 'TENANT-CONTROL-IDS',
    area: 'isolation',
    level: 'must',
    title:
      "A workspace's token revoked or endpoint deleted under another workspace's path stays as it was, and so does its endpoint when another workspace with an endpoint at the same URL is deleted: the token keeps working, the endpoint keeps receiving",
    clauses: ['SVC-2', 'CTL-TOKEN-REVOKE'],
    ground: 'SVC-2',
    accepts: 'the foreign revocation and deletion refused with any 4xx, or accepted without effect (watched 5 s)',
  }),
  service({
    id: 'TENANT-CONTROL-READS',
    area: 'isolation',
    level: 'must',
    title:
      "A workspace's endpoint read, or its call moved, under another workspace's control path is refused: the read shows nothing, the call does not move",
    clauses: ['SVC-2', 'CTL-WS-CALL-PROGRESS'],
    ground: 'SVC-2',
    accepts:
      'the move refused with any 4xx, or answered 2xx with no effect (recorded); watched 2 s for the call to start; skipped when the manual call starts by itself before the move',
  }),
  service({
    id: 'TENANT-AGENTS',
    area: 'isolation',
    level: 'must',
    title: "A token never lists or places calls with another workspace's agents",
    clauses: ['SVC-2', 'AUTH-TOKEN-1'],
    ground: 'SVC-2',
    accepts: 'the foreign agent refused with any 4xx (recorded); an agent list in any shape',
  }),
  service({
    id: 'TENANT-SAME-URL-OWN-SECRET',
    area: 'isolation',
    level: 'must',
    title: "Two workspaces' endpoints at one URL: each workspace's events are signed with its own endpoint's secret",
    clauses: ['SVC-2', 'REG-2'],
    ground: 'REG-2',
    accepts: "the second workspace's endpoint at the same URL refused with any 4xx (recorded; nothing to judge)",
  }),
  service({
    id: 'TENANT-KEPT-ALIVE',
    area: 'isolation',
    level: 'must',
    title:
      "One kept-alive connection used with one workspace's token, then another's, answers each for its own workspace",
    clauses: ['SVC-2', 'AUTH-TOKEN-1'],
    ground: 'SVC-2',
    accepts:
      'the connection closed by the service between requests (then the next goes on a new one, recorded); an agent list in any shape',
  }),

  // --- Input handling ------------------------------------------------------------------------
  service({
    id: 'INPUT-CALL-AGENTS-LIST',
    area: 'input',
    level: 'must',
    title: 'GET /v1/voice/agents answers 2xx with agt_ ids',
    clauses: ['EP-AGENTS', 'RES-AGENT'],
    ground: 'EP-AGENTS',
    accepts: 'any 2xx body that holds the agt_ ids, in any shape',
  }),
  service({
    id: 'INPUT-CALL-LONGEST-NUMBER',
    area: 'input',
    level: 'should',
    title: 'A call to a 15-digit number, the longest the international format (E.164) allows, is placed',
    clauses: ['EP-CALLS', 'CALL-FIELD-TO'],
    source: 'ITU-T E.164, 6.1: a number of at most 15 digits',
  }),
  service({
    id: 'INPUT-CALL-PLACED',
    area: 'input',
    level: 'must',
    title:
      'POST /v1/voice/calls with agent_id and to answers 2xx with a call_ id, for every agent the workspace was created with',
    clauses: ['EP-CALLS', 'RES-CALL', 'CTL-OPEN-CALL-ID', 'RES-AGENT'],
    ground: 'CTL-OPEN-CALL-ID',
    accepts: 'any 2xx; the call_ id anywhere in the body',
  }),
  service({
    id: 'INPUT-CALL-INVALID',
    area: 'input',
    level: 'must',
    title: 'Invalid call bodies (a missing or malformed agent_id or to) are never accepted',
    clauses: ['EP-CALLS'],
    ground: 'EP-CALLS',
    accepts: 'any answer but a 2xx (validation errors are not shown); INPUT-MALFORMED-4XX asks for a 4xx',
  }),
  // The spec does not say ids compare exactly; an id handed out is opaque, and a lookup that normalises it finds what was not named.
  service({
    id: 'CALL-AGENT-NEAR-MISS',
    area: 'input',
    level: 'should',
    title:
      "An agent_id one step from the workspace's agent (case, white space, a character more, less or changed) places no call",
    clauses: ['EP-CALLS', 'RES-AGENT'],
    accepts: 'any answer but a 2xx',
  }),
  service({
    id: 'INPUT-MALFORMED-REQUEST',
    area: 'input',
    level: 'must',
    title:
      'A body that carries no call (malformed JSON, empty, an array, a form, invalid UTF-8) or a malformed credential is never accepted, and the service serves on after every odd request',
    clauses: ['EP-JSON', 'EP-CALLS'],
    ground: 'EP-CALLS',
    accepts:
      'any answer but a 2xx to what carries no call; the 2 MB body may be refused by closing the connection if the service serves on',
  }),
  service({
    id: 'INPUT-MALFORMED-4XX',
    area: 'input',
    level: 'should',
    title: 'Malformed requests and invalid call bodies are refused with a 4xx, and no odd request gets a 5xx',
    clauses: ['EP-JSON', 'EP-CALLS'],
  }),
  service({
    id: 'INPUT-LENIENT-PARSING',
    area: 'input',
    level: 'observe',
    title:
      'What the service does with a valid JSON body sent as text/plain, a 2 MB valid body, two Authorization headers and two spaces after Bearer',
    clauses: ['EP-JSON', 'LIMIT-NOT-SHOWN'],
    accepts: 'accepting or refusing each (recorded)',
  }),
  service({
    id: 'INPUT-UNKNOWN-PATH',
    area: 'input',
    level: 'should',
    title: 'An unknown path under /v1 gets a 4xx',
    clauses: ['SVC-3'],
    accepts: 'any 4xx, in any body',
  }),
  service({
    id: 'INPUT-ERROR-SHAPE',
    area: 'input',
    level: 'observe',
    title: 'Status and body shape of validation errors',
    clauses: ['ERR-RULE-3'],
  }),
  service({
    id: 'INPUT-RESPONSE-SHAPES',
    area: 'input',
    level: 'observe',
    title: 'Response shapes of agents list and call creation',
    clauses: ['EP-NOT-SHOWN-RESPONSES'],
  }),

  // --- Session tokens ------------------------------------------------------------------------
  service({
    id: 'SESSION-VALID',
    area: 'session',
    level: 'must',
    title: 'A valid session JWT of a member gets 200 on whoami',
    clauses: ['AUTH-SESSION-1', 'AUTH-SESSION-2', 'CTL-SESSION-JWT'],
    ground: 'CTL-SESSION-JWT',
    accepts: 'aud as a string or as an array containing the audience',
  }),
  service({
    id: 'SESSION-SCOPES-MATCH',
    area: 'session',
    level: 'must',
    title: "A session token gets exactly its member's scopes, as a bearer token would",
    clauses: ['AUTH-SCHEMES', 'AUTH-SESSION-2'],
    ground: 'AUTH-SESSION-2',
    accepts: 'refusals with any 4xx and missing_scope, as for bearer tokens',
  }),
  service({
    id: 'SESSION-SCOPE-CLAIM-IGNORED',
    area: 'session',
    level: 'must',
    title:
      "A session token gets its member's scopes whatever scope claim the JWT carries: a voice:read member claiming every scope is refused a call with missing_scope",
    clauses: ['AUTH-SESSION-2', 'CTL-SESSION-JWT'],
    ground: 'AUTH-SESSION-2',
    accepts: 'missing_scope with any 4xx, as for bearer tokens',
  }),
  service({
    id: 'SESSION-MEMBER-EMPTY-SCOPES',
    area: 'session',
    level: 'must',
    title:
      'A member added with an empty scope list holds no scope: its session token is refused missing_scope wherever one is needed',
    clauses: ['AUTH-SESSION-2', 'CTL-SESSION-JWT'],
    ground: 'AUTH-SESSION-2',
    accepts:
      'the member refused with any 4xx, or its scoped requests refused with any 4xx and missing_scope (its whoami answer recorded, not judged)',
  }),
  service({
    id: 'SESSION-CALL-AS-BEARER',
    area: 'session',
    level: 'must',
    title:
      "A call placed with a member's session token is the call a bearer token places: voice.call.completed carries the metadata it was placed with",
    clauses: ['AUTH-SCHEMES', 'CALL-FIELD-METADATA', 'CTL-SESSION-JWT'],
    ground: 'AUTH-SCHEMES',
  }),
  service({
    id: 'SESSION-SUSPENDED-CODE',
    area: 'session',
    level: 'must',
    title:
      "A suspended workspace refuses its members' session tokens with workspace_disabled, as its bearer tokens, on whoami, agents, placing a call and a transcript; once reinstated, each member has its own scopes again",
    clauses: ['CTL-WS-SUSPEND', 'ERR-CODE-WORKSPACE-DISABLED', 'AUTH-SCHEMES', 'AUTH-SESSION-2', 'CTL-SESSION-JWT'],
    ground: 'CTL-WS-SUSPEND',
    accepts:
      'any 4xx the same operation gives a bearer token of the workspace (recorded); a call placed with a member token lacking voice:write is not sent while suspended (which refusal wins is not stated)',
  }),
  service({
    id: 'SESSION-MEMBERS-AT-ONCE',
    area: 'session',
    level: 'must',
    title: "Members added at once are each a member: each one's session token is accepted",
    clauses: ['CTL-SESSION-JWT'],
    ground: 'CTL-SESSION-JWT',
  }),
  service({
    id: 'SESSION-SAME-SUBJECT',
    area: 'session',
    level: 'must',
    title:
      "One subject, a member of two workspaces with other scopes: each workspace's session token carries that workspace's scopes",
    clauses: ['SVC-2', 'CTL-SESSION-JWT'],
    ground: 'CTL-SESSION-JWT',
  }),
  service({
    id: 'SESSION-ES256',
    area: 'session',
    level: 'must',
    title: 'Session JWTs signed with ES256 and RS256 are both accepted',
    clauses: ['AUTH-SESSION-1', 'CTL-SESSION-JWT'],
    ground: 'CTL-SESSION-JWT',
  }),
  service({
    id: 'SESSION-EXPIRED',
    area: 'session',
    level: 'must',
    title: 'An expired session token gets 401 invalid_token',
    clauses: ['ERR-CODE-INVALID-TOKEN', 'LIMIT-SESSION-LIFETIME'],
    ground: 'ERR-CODE-INVALID-TOKEN',
    tolerance: { seconds: 60, clause: 'LIMIT-SESSION-LIFETIME' },
  }),
  service({
    id: 'SESSION-LIFETIME-61S',
    area: 'session',
    level: 'should',
    title:
      'A session token past its 60 s lifetime is refused once its clock leeway (recorded) is spent; a leeway over 60 s warns',
    clauses: ['AUTH-SCHEME-SESSION'],
    tolerance: { seconds: 60, clause: 'AUTH-SCHEME-SESSION' },
    accepts: 'a clock leeway on exp of up to 60 s (recorded)',
  }),
  service({
    id: 'SESSION-VALIDITY-EDGES',
    area: 'session',
    level: 'must',
    title:
      "A session token near the edges of its validity (15 s left before exp; nbf 2 s ago, by the target's clock) is accepted",
    clauses: ['CTL-SESSION-JWT', 'LIMIT-SESSION-LIFETIME'],
    ground: 'CTL-SESSION-JWT',
    tolerance: {
      seconds: 60,
      clause: 'LIMIT-SESSION-LIFETIME',
      allowance:
        "edges held 15 s and 2 s inside, after the target's clock offset (whole seconds, from its Date header)",
    },
  }),
  service({
    id: 'SESSION-EXPIRES-AFTER-USE',
    area: 'session',
    level: 'must',
    title:
      'A session token accepted while valid is refused once it has expired, as soon as an unused token of the same exp is',
    clauses: ['CTL-SESSION-JWT', 'ERR-CODE-INVALID-TOKEN'],
    ground: 'CTL-SESSION-JWT',
    accepts:
      'any clock leeway on exp, as long as the used token gets no more of it than an unused one (watched up to 65 s past exp)',
  }),
  service({
    id: 'SESSION-NBF-FUTURE',
    area: 'session',
    level: 'must',
    title: 'A session token not yet valid (nbf in the future) is refused',
    clauses: ['AUTH-SESSION-2', 'CTL-SESSION-JWT'],
    ground: 'CTL-SESSION-JWT',
  }),
  service({
    id: 'SESSION-IAT-AHEAD',
    area: 'session',
    level: 'should',
    title: 'A session token whose iat is 30 s ahead, valid by its nbf and exp, is accepted',
    clauses: ['CTL-SESSION-JWT', 'AUTH-SESSION-2'],
    accepts:
      'a should: the contract names signature, iss, aud, nbf/exp and membership, not iat, but common libraries refuse an iat ahead of their clock',
  }),
  service({
    id: 'SESSION-NO-IAT',
    area: 'session',
    level: 'must',
    title: 'A session token without iat, valid by its signature, iss, aud, nbf/exp and member, is accepted',
    clauses: ['CTL-SESSION-JWT', 'AUTH-SESSION-2'],
    ground: 'CTL-SESSION-JWT',
  }),
  service({
    id: 'SESSION-NO-KID',
    area: 'session',
    level: 'should',
    title: 'A session token without kid, signed by the one key of its algorithm in the JWKS, is accepted',
    clauses: ['CTL-SESSION-JWT', 'AUTH-SESSION-2'],
    accepts:
      'a should: the contract asks for a key of the JWKS that verifies the token, and common libraries (jwks-rsa) need a kid once the JWKS holds several keys',
  }),
  service({
    id: 'SESSION-NO-KID-SEVERAL-KEYS',
    area: 'session',
    level: 'should',
    title: 'A session token without kid, signed by one of several keys of its algorithm in the JWKS, is accepted',
    clauses: ['CTL-SESSION-JWT', 'AUTH-SESSION-2'],
    accepts:
      'a should, as SESSION-NO-KID: the contract asks for a key of the JWKS that verifies the token; a token signed by each of two RS256 keys, neither named',
  }),
  service({
    id: 'SESSION-UNLICENSED-SCOPE',
    area: 'session',
    level: 'should',
    title:
      'A member recorded with a scope its workspace is not licensed for does not hold it: its session token is refused missing_scope where that scope is needed',
    clauses: ['AUTH-SCHEMES', 'AUTH-SESSION-2', 'AUTH-TOKEN-4'],
    accepts:
      "the member's creation refused with any 4xx, or its session token refused with any 4xx and missing_scope where the unlicensed scope is needed; a should: the spec bounds tokens by the licence, and members by one identity model for both schemes",
  }),
  service({
    id: 'SESSION-FRACTIONAL-DATES',
    area: 'session',
    level: 'should',
    title: 'A session token whose nbf, iat and exp carry fractions of a second, valid by them, is accepted',
    clauses: ['CTL-SESSION-JWT', 'AUTH-SESSION-2'],
    accepts:
      "a should: a JWT's NumericDate may be a non-integer (RFC 7519, section 2), which the contract does not restate, and providers issue whole seconds",
  }),
  service({
    id: 'SESSION-TYP-OPTIONAL',
    area: 'session',
    level: 'must',
    title: 'A session token whose header has no typ, valid otherwise, is accepted',
    clauses: ['CTL-SESSION-JWT', 'AUTH-SESSION-2'],
    ground: 'CTL-SESSION-JWT',
    accepts:
      'the contract lists what a token must meet (signature, iss, aud, nbf/exp, a member sub) and typ is not among them; RFC 7519 makes typ optional. Any other typ is not judged (explicit typing, RFC 8725, may refuse one)',
  }),
  service({
    id: 'SESSION-LONG-LIFETIME',
    area: 'session',
    level: 'should',
    title: 'A session token expiring in ten minutes, valid otherwise, is accepted',
    clauses: ['CTL-SESSION-JWT', 'AUTH-SESSION-2'],
    accepts:
      "a should: the contract's condition is nbf/exp, and the spec's 60 seconds is the lifetime of the provider's tokens, which a service could read as a limit",
  }),
  service({
    id: 'SESSION-WRONG-ISSUER',
    area: 'session',
    level: 'must',
    title: 'A session token from another issuer is refused',
    clauses: ['AUTH-SESSION-2', 'CTL-SESSION-JWT'],
    ground: 'CTL-SESSION-JWT',
  }),
  service({
    id: 'SESSION-WRONG-AUDIENCE',
    area: 'session',
    level: 'must',
    title: 'A session token for another audience is refused',
    clauses: ['AUTH-SESSION-2', 'CTL-SESSION-JWT'],
    ground: 'CTL-SESSION-JWT',
  }),
  // Its signature verifies against a key of the JWKS, all the contract asks of a key: only
  // the JWK kid matching of RFC 7517 refuses it.
  service({
    id: 'SESSION-UNKNOWN-KID',
    area: 'session',
    level: 'should',
    title: 'A session token naming an unknown kid is refused',
    clauses: ['AUTH-SESSION-2'],
    source: 'RFC 7517, 4.5; RFC 7515, 4.1.4',
  }),
  service({
    id: 'SESSION-FOREIGN-KEY',
    area: 'session',
    level: 'must',
    title: 'A session token signed with a key not in the JWKS is refused',
    clauses: ['AUTH-SESSION-2', 'CTL-SESSION-JWT'],
    ground: 'CTL-SESSION-JWT',
  }),
  service({
    id: 'SESSION-TAMPERED',
    area: 'session',
    level: 'must',
    title: 'A session token with a tampered payload or signature is refused',
    clauses: ['AUTH-SESSION-1', 'AUTH-SESSION-2', 'CTL-SESSION-JWT'],
    ground: 'CTL-SESSION-JWT',
  }),
  service({
    id: 'SESSION-ALG-NONE',
    area: 'session',
    level: 'must',
    title: 'An unsigned session token (alg none) is refused',
    clauses: ['AUTH-SESSION-1', 'AUTH-SESSION-2', 'CTL-SESSION-JWT'],
    ground: 'CTL-SESSION-JWT',
  }),
  service({
    id: 'SESSION-HS256-CONFUSION',
    area: 'session',
    level: 'must',
    title: 'An HS256 token keyed with the public key is refused',
    clauses: ['AUTH-SESSION-1', 'AUTH-SESSION-2', 'CTL-SESSION-JWT'],
    ground: 'CTL-SESSION-JWT',
    source: 'RFC 8725, 3.1 (a key is used with one algorithm)',
  }),
  service({
    id: 'SESSION-JWKS-UNAVAILABLE',
    area: 'session',
    level: 'must',
    title:
      "A session token is refused when the workspace's JWKS cannot be had (a 404, a 200 that is not a JWKS): its claims alone are not enough",
    clauses: ['CTL-SESSION-JWT', 'AUTH-SESSION-2'],
    ground: 'CTL-SESSION-JWT',
  }),
  service({
    id: 'SESSION-NOT-MEMBER',
    area: 'session',
    level: 'must',
    title:
      "A session token whose sub is not a member is refused: nobody's, a member's in upper case, or with a space before or after it",
    clauses: ['AUTH-SESSION-2', 'CTL-SESSION-JWT'],
    ground: 'CTL-SESSION-JWT',
    source: 'RFC 7519, 2 (StringOrURI values compare case-sensitively)',
  }),
  service({
    id: 'SESSION-OTHER-WORKSPACE',
    area: 'session',
    level: 'must',
    title: "A session token from another workspace's provider is refused",
    clauses: ['AUTH-SESSION-2', 'SVC-2'],
    ground: 'AUTH-SESSION-2',
  }),
  service({
    id: 'SESSION-MUTATION-PROPERTY',
    area: 'session',
    level: 'must',
    title: 'Random mutations of a valid session token are refused with 401 invalid_token',
    clauses: ['AUTH-SESSION-1', 'AUTH-SESSION-2', 'CTL-SESSION-JWT'],
    ground: 'CTL-SESSION-JWT',
  }),
  service({
    id: 'SESSION-PROVIDER-CHANGED',
    area: 'session',
    level: 'must',
    title:
      "The workspace's identity provider set again (another issuer, audience and JWKS): tokens of the new one accepted, the old one's refused (its issuer, its audience, its keys) within 60 s",
    clauses: ['AUTH-SESSION-2', 'CTL-SESSION-JWT'],
    ground: 'CTL-SESSION-JWT',
    accepts: 'the change taking effect within 60 s (recorded)',
  }),
  service({
    id: 'SESSION-MEMBER-RESCOPED',
    area: 'session',
    level: 'should',
    title:
      'A member added again with other scopes holds the new scopes, not the old ones (or the second addition is refused)',
    clauses: ['AUTH-SESSION-2', 'CTL-SESSION-JWT'],
    accepts: 'the second addition refused with any 4xx; the new scopes taking effect within 60 s (recorded)',
  }),
  service({
    id: 'SESSION-KEY-ROTATION',
    area: 'session',
    level: 'should',
    title: 'A newly added signing key is accepted and a removed one refused within 60 s',
    clauses: ['AUTH-SESSION-2'],
  }),

  // --- Session token attacks: the published catalog (jwt_tool, PortSwigger's write-ups, advisories) ---
  service({
    id: 'SESSION-EMBEDDED-JWK',
    area: 'session-attacks',
    level: 'must',
    title: 'A session token that brings its own key (a jwk or x5c header, CVE-2018-0114) is refused',
    clauses: ['AUTH-SESSION-1', 'AUTH-SESSION-2', 'ERR-CODE-INVALID-TOKEN', 'CTL-SESSION-JWT'],
    ground: 'CTL-SESSION-JWT',
  }),
  service({
    id: 'SESSION-JKU-INJECTION',
    area: 'session-attacks',
    level: 'must',
    title:
      'A session token that names its own key URL (jku or x5u) is refused; whether the target fetched the URL is recorded',
    clauses: ['AUTH-SESSION-2', 'ERR-CODE-INVALID-TOKEN', 'CTL-SESSION-JWT'],
    ground: 'CTL-SESSION-JWT',
  }),
  service({
    id: 'SESSION-KID-INJECTION',
    area: 'session-attacks',
    level: 'must',
    title:
      'A session token whose kid is a file path or an SQL fragment, HMAC-signed with what that lookup would yield, is refused',
    clauses: ['AUTH-SESSION-2', 'ERR-CODE-INVALID-TOKEN', 'CTL-SESSION-JWT'],
    ground: 'CTL-SESSION-JWT',
  }),
  service({
    id: 'SESSION-PSYCHIC-SIGNATURE',
    area: 'session-attacks',
    level: 'must',
    title: 'An ES256 session token whose signature is out of range (r = s = 0, CVE-2022-21449; r = s = n) is refused',
    clauses: ['AUTH-SESSION-1', 'AUTH-SESSION-2', 'ERR-CODE-INVALID-TOKEN', 'CTL-SESSION-JWT'],
    ground: 'CTL-SESSION-JWT',
    source: 'FIPS 186-5, ECDSA signature verification (r and s in [1, n-1])',
  }),
  // Signed by a key of the JWKS with good claims: the contract's rule holds for the first,
  // and does not say which of a repeated claim's values it reads for the second. Only an
  // RFC refuses them.
  service({
    id: 'SESSION-CRIT-UNKNOWN',
    area: 'session-attacks',
    level: 'should',
    title: 'A session token whose crit header names an extension the service cannot understand is refused',
    clauses: ['AUTH-SESSION-2', 'ERR-CODE-INVALID-TOKEN'],
    source: 'RFC 7515, 4.1.11',
  }),
  service({
    id: 'SESSION-DUPLICATE-CLAIMS',
    area: 'session-attacks',
    level: 'should',
    title:
      'A session token that repeats a claim is judged by the last value or refused: a repeat ending in a wrong sub, exp, aud or iss is refused',
    clauses: ['AUTH-SESSION-2', 'ERR-CODE-INVALID-TOKEN'],
    source: 'RFC 7519, 4 (a repeated claim name: refused, or its lexically last value)',
  }),
  service({
    id: 'SESSION-NO-EXP',
    area: 'session-attacks',
    level: 'should',
    title: 'A session token without exp is refused: it would never expire, and session tokens live 60 s',
    clauses: ['AUTH-SESSION-2', 'LIMIT-SESSION-LIFETIME', 'ERR-CODE-INVALID-TOKEN'],
  }),

  // --- Webhook registration ------------------------------------------------------------------
  service({
    id: 'HOOK-REG-HTTPS-ONLY',
    area: 'webhook-registration',
    level: 'must',
    title: 'An endpoint URL that is not HTTPS is refused, its scheme written in any case (http://, HTTP://, Http://)',
    clauses: ['REG-1', 'CTL-HOOK-REFUSED'],
    ground: 'REG-1',
    accepts: 'any 4xx and any error body from the control interface',
  }),
  service({
    id: 'HOOK-WILDCARD-READ-BACK',
    area: 'webhook-registration',
    level: 'should',
    title: 'An endpoint registered with events ["*"] reads back as ["*"], not as the list of types known today',
    clauses: ['REG-3', 'CTL-HOOK-SECRET'],
  }),
  service({
    id: 'HOOK-REG-SCHEME-CASE',
    area: 'webhook-registration',
    level: 'should',
    title: 'An HTTPS endpoint URL whose scheme is written in capitals (HTTPS://) is accepted',
    clauses: ['REG-1'],
    source: 'RFC 3986, 3.1: schemes are case-insensitive',
  }),
  service({
    id: 'HOOK-REG-LOCALHOST',
    area: 'webhook-registration',
    level: 'must',
    title:
      'An endpoint URL on localhost (in capitals, or fully qualified as localhost.) is refused; one whose path and query only name localhost is not',
    clauses: ['REG-1', 'CTL-HOOK-REFUSED'],
    ground: 'CTL-HOOK-REFUSED',
    accepts: 'any 4xx and any error body from the control interface',
  }),
  service({
    id: 'HOOK-REG-LIMIT-25',
    area: 'webhook-registration',
    level: 'must',
    title: "25 active endpoints are accepted and a 26th refused; another workspace's first is accepted meanwhile",
    clauses: ['REG-4', 'LIMIT-ENDPOINTS', 'CTL-HOOK-REFUSED'],
    ground: 'CTL-HOOK-REFUSED',
    accepts: 'the 26th refused with any 4xx',
  }),
  service({
    id: 'HOOK-OWN-SECRET',
    area: 'webhook-registration',
    level: 'must',
    title: "Each endpoint's deliveries are signed with its own secret",
    clauses: ['REG-2', 'CTL-HOOK-SECRET'],
    ground: 'REG-2',
  }),
  service({
    id: 'HOOK-SAME-URL-EACH-ENDPOINT',
    area: 'webhook-registration',
    level: 'must',
    title:
      'Two endpoints of one workspace at one URL, both subscribed, each get an event, each delivery signed with its own secret; a type only the first subscribed to reaches it',
    clauses: ['REG-2', 'REG-3', 'CTL-HOOK-SECRET'],
    ground: 'REG-3',
    accepts: 'the second endpoint at the same URL refused with any 4xx (recorded; nothing to judge)',
  }),
  service({
    id: 'HOOK-RECREATED-OWN-SECRET',
    area: 'webhook-registration',
    level: 'must',
    title: "A deleted endpoint's URL registered again gets a new signing secret, not the deleted endpoint's",
    clauses: ['REG-2'],
    ground: 'REG-2',
    accepts: 'the same endpoint id or a new one (recorded)',
  }),
  service({
    id: 'HOOK-DELETE-ONE-ENDPOINT',
    area: 'webhook-registration',
    level: 'should',
    title: 'Deleting one of two endpoints at the same URL leaves the other receiving',
    clauses: ['REG-2', 'REG-3'],
    accepts: 'a second endpoint at the same URL refused with any 4xx (recorded; nothing to judge)',
  }),
  service({
    id: 'HOOK-ENABLE-ACTIVE-UNCHANGED',
    area: 'webhook-registration',
    level: 'should',
    title: 'Re-enabling an endpoint that is active leaves it active, receiving, and signing with its own secret',
    clauses: ['STATE-ENDPOINT-REENABLE', 'REG-2'],
    accepts: 'the re-enable of an active endpoint answered 2xx or refused with any 4xx (recorded)',
  }),
  service({
    id: 'HOOK-URL-QUERY-KEPT',
    area: 'webhook-registration',
    level: 'should',
    title: "A delivery goes to the endpoint's URL as registered, its query string included",
    clauses: ['EP-RECEIVER'],
    accepts: 'a URL with a query refused at registration with any 4xx (recorded; nothing to judge)',
  }),
  service({
    id: 'HOOK-SECRETS-DISTINCT-CONCURRENT',
    area: 'webhook-registration',
    level: 'must',
    title:
      'Endpoints created at once each get a signing secret of their own, and each delivery verifies with its own only',
    clauses: ['REG-2', 'CTL-HOOK-SECRET'],
    ground: 'REG-2',
  }),
  service({
    id: 'HOOK-REG-LIMIT-CONCURRENT',
    area: 'webhook-registration',
    level: 'must',
    title: 'With 24 active endpoints, concurrent creations leave at most 25 active, read back once all have answered',
    clauses: ['REG-4', 'LIMIT-ENDPOINTS', 'STATE-ENDPOINT-LIMIT', 'CTL-HOOK-REFUSED'],
    ground: 'REG-4',
    accepts: 'one creation granted and the others refused with any 4xx, or all refused (recorded)',
  }),
  service({
    id: 'HOOK-REG-UNKNOWN-EVENT-TYPE',
    area: 'webhook-registration',
    level: 'observe',
    title: 'What endpoint creation does with an event type that is not one',
    clauses: ['REG-3', 'RES-ENDPOINT'],
    accepts: 'refused with any 4xx, or created (recorded with its events as read back)',
  }),
  service({
    id: 'HOOK-REG-EMPTY-EVENTS',
    area: 'webhook-registration',
    level: 'must',
    title: 'An endpoint created with an empty event list is refused, or receives no event',
    clauses: ['REG-3', 'RES-ENDPOINT'],
    ground: 'REG-3',
    accepts:
      "the creation refused with any 4xx, or an endpoint that is sent nothing (four fired types and a placed call's events, watched until a * endpoint of the same workspace has them all, and 1 s more)",
  }),

  // --- Webhook envelope and events -----------------------------------------------------------
  service({
    id: 'HOOK-ENVELOPE',
    area: 'webhook-envelope',
    level: 'must',
    title: 'Every one of the eight event types arrives in the specified envelope',
    clauses: ['EP-RECEIVER', ...ENVELOPE, ...EVENT_TYPES],
    ground: 'EP-RECEIVER',
    accepts: 'extra envelope fields; created_at with Z or +00:00 and any fraction of a second; deliveries in any order',
  }),
  service({
    id: 'HOOK-CALL-COMPLETED-FIELDS',
    area: 'webhook-envelope',
    level: 'must',
    title: 'voice.call.completed carries every call field with its type',
    clauses: [...CALL_FIELDS, 'TYPE-VOICE-CALL-COMPLETED'],
    ground: 'TYPE-VOICE-CALL-COMPLETED',
  }),
  service({
    id: 'HOOK-CALL-FIELDS-PRESENT',
    area: 'webhook-envelope',
    level: 'must',
    title:
      'voice.call.completed of a call placed without metadata carries every call field, metadata as the empty object',
    clauses: [...CALL_FIELDS, 'TYPE-VOICE-CALL-COMPLETED'],
    ground: 'TYPE-VOICE-CALL-COMPLETED',
    accepts: 'extra fields beside the listed ones',
  }),
  service({
    id: 'CALL-PLACE-CONCURRENT',
    area: 'webhook-envelope',
    level: 'must',
    title:
      'Calls placed at once (one workspace, one agent) get distinct call ids, and each its own queued, started and completed events with its own metadata',
    clauses: ['RES-CALL', 'CALL-FIELD-CALL-ID', 'EP-CALLS', 'CTL-OPEN-CALL-ID', 'CTL-WS-CALL-PROGRESS', 'ENV-ID'],
    ground: 'RES-CALL',
    accepts: 'any 2xx to each placement; deliveries in any order',
  }),
  service({
    id: 'EVENT-FIRE-CONCURRENT',
    area: 'webhook-envelope',
    level: 'must',
    title:
      'Events fired at once get distinct evt_ ids, and each is delivered once, with its own data, to each subscribed endpoint',
    clauses: ['ENV-ID', 'RES-EVENT', 'EVT-DELIVERY', 'REG-3'],
    ground: 'ENV-ID',
    accepts: 'deliveries in any order (each acknowledged, so none is retried)',
  }),
  service({
    id: 'HOOK-METADATA-ROUNDTRIP',
    area: 'webhook-envelope',
    level: 'must',
    title:
      "The caller's string-valued metadata comes back in voice.call.completed, every key as given, and keys named like call fields (outcome, to, …) leave the call's own fields alone",
    clauses: ['CALL-FIELD-METADATA', 'CTL-OPEN-METADATA'],
    ground: 'CTL-OPEN-METADATA',
    accepts: 'any keys; only string values are required to round-trip',
  }),
  service({
    id: 'HOOK-METADATA-LONG-VALUE',
    area: 'webhook-envelope',
    level: 'must',
    title: 'A metadata string of about 1,100 characters is refused at placement, or comes back whole',
    clauses: ['CALL-FIELD-METADATA', 'CTL-OPEN-METADATA'],
    ground: 'CTL-OPEN-METADATA',
    accepts: 'the placement refused with any 4xx (a length limit is a choice; cutting the value is not)',
  }),
  service({
    id: 'HOOK-CREATED-AT-WHEN-HAPPENED',
    area: 'webhook-envelope',
    level: 'should',
    title:
      "A manual call moved to started 2.5 s after its queued event arrived: the started event's created_at is at least 1 s after the queued one's",
    clauses: ['ENV-CREATED-AT', 'CTL-WS-CALL-PROGRESS'],
    accepts:
      'a should: the spec calls created_at an "ISO 8601 UTC timestamp" and does not say of what; 1.5 s of the 2.5 s allowed for whole-second timestamps; skipped when a created_at does not parse',
  }),
  service({
    id: 'HOOK-METADATA-NESTED',
    area: 'webhook-envelope',
    level: 'should',
    title:
      'Metadata values other than strings (objects, arrays, numbers, booleans, null) are refused, or returned as sent: never accepted and changed',
    clauses: ['CALL-FIELD-METADATA', 'CTL-OPEN-METADATA'],
    accepts: 'refusing values other than strings with any 4xx (only string values are required to round-trip)',
  }),
  service({
    id: 'HOOK-TRANSCRIPT-URL',
    area: 'webhook-envelope',
    level: 'must',
    title:
      'transcript_url has the specified form, names its own call (of two placed one after the other) and answers with the transcript',
    clauses: ['CALL-FIELD-TRANSCRIPT-URL', 'EP-TRANSCRIPT'],
    ground: 'CALL-FIELD-TRANSCRIPT-URL',
    accepts:
      "GET, or POST where GET answers 405 with Allow: POST (recorded); an origin other than SVC_BASE_URL's (a proxy or tunnel; recorded) with the specified path",
  }),
  service({
    id: 'HOOK-LIFECYCLE-COMPLETED',
    area: 'webhook-envelope',
    level: 'must',
    title: 'A completed call emits queued, started and completed',
    clauses: [
      'STATE-CALL',
      'TYPE-VOICE-CALL-QUEUED',
      'TYPE-VOICE-CALL-STARTED',
      'TYPE-VOICE-CALL-COMPLETED',
      'CTL-WS-CALL-PROGRESS',
    ],
    ground: 'CTL-WS-CALL-PROGRESS',
    accepts: 'deliveries in any order; equal created_at values',
  }),
  service({
    id: 'CALL-AUTO-PROGRESS-2S',
    area: 'webhook-envelope',
    level: 'must',
    title:
      'Under call_progress auto, a call goes from voice.call.queued to voice.call.completed within 2 s, by their created_at, and completes with outcome answered',
    clauses: ['CTL-WS-CALL-PROGRESS'],
    ground: 'CTL-WS-CALL-PROGRESS',
    accepts: 'created_at in whole seconds (then only 3 s or more apart fails)',
  }),
  service({
    id: 'HOOK-TRANSCRIPT-URL-AS-GIVEN',
    area: 'webhook-envelope',
    level: 'should',
    title:
      "transcript_url works as given: fetched at its own origin, path and query, with the workspace's token, it answers with the transcript",
    clauses: ['CALL-FIELD-TRANSCRIPT-URL', 'EP-TRANSCRIPT'],
    accepts: 'any origin that answers (a proxy or tunnel); GET, or POST where GET answers 405 with Allow: POST',
  }),
  service({
    id: 'HOOK-TRANSCRIPT-URL-LASTS',
    area: 'webhook-envelope',
    level: 'should',
    title:
      'transcript_url still answers with the transcript 10 s after its first read, two more calls placed in between: a URL handed out keeps working',
    clauses: ['CALL-FIELD-TRANSCRIPT-URL', 'EP-TRANSCRIPT'],
    accepts: 'any lifetime beyond 10 s and two later calls (the spec gives none)',
  }),
  service({
    id: 'HOOK-COMPLETED-AS-REPORTED',
    area: 'webhook-envelope',
    level: 'must',
    title:
      "voice.call.completed carries the duration and outcome the call was completed with (manual progress), 0 s and over two hours included, not figures of the service's own, and the number this call was placed to (one agent's calls, each to its own number)",
    clauses: ['CALL-FIELD-DURATION-SECONDS', 'CALL-FIELD-OUTCOME', 'CTL-WS-CALL-PROGRESS'],
    ground: 'CALL-FIELD-DURATION-SECONDS',
    accepts: 'an outcome other than answered refused with any 4xx (recorded)',
  }),
  service({
    id: 'HOOK-PROGRESS-ONE-CALL',
    area: 'webhook-envelope',
    level: 'must',
    title:
      'Moving one call (manual progress) moves that call only: another call of the workspace stays queued until moved itself',
    clauses: ['CTL-WS-CALL-PROGRESS', 'STATE-CALL'],
    ground: 'CTL-WS-CALL-PROGRESS',
  }),
  service({
    id: 'HOOK-CALL-STATES-ONCE',
    area: 'webhook-envelope',
    level: 'should',
    title:
      'A call reaches each state once: moved to started again, then to completed or failed after it completed, it emits no second voice.call.started or end event; a failed call moved to started or completed emits neither',
    clauses: ['TYPE-VOICE-CALL-COMPLETED', 'STATE-CALL', 'CTL-WS-CALL-PROGRESS', 'ENV-ID'],
    accepts:
      'each repeated move refused with any 4xx, or accepted with nothing emitted (which transitions exist is not shown)',
  }),
  service({
    id: 'HOOK-LIFECYCLE-FAILED',
    area: 'webhook-envelope',
    level: 'must',
    title: 'A failed call emits voice.call.failed and never completed',
    clauses: ['TYPE-VOICE-CALL-FAILED'],
    ground: 'TYPE-VOICE-CALL-FAILED',
    accepts: 'a failed call moved from queued; whether started → failed is allowed is left open',
  }),
  service({
    id: 'HOOK-SUBSCRIPTION-FILTER',
    area: 'webhook-envelope',
    level: 'must',
    title: 'An endpoint receives exactly the event types it subscribed to',
    clauses: ['REG-3'],
    ground: 'REG-3',
  }),
  service({
    id: 'HOOK-SUBSCRIPTION-WILDCARD',
    area: 'webhook-envelope',
    level: 'must',
    title: 'An endpoint subscribed to * receives every event type',
    clauses: ['REG-3'],
    ground: 'REG-3',
  }),
  service({
    id: 'HOOK-FIRED-DATA',
    area: 'webhook-envelope',
    level: 'must',
    title:
      'Each firing is an event of its own (two alike get two ids), delivered with the data it was fired with: every key and value as given (text, nesting, a 14-digit number); one fired with no data member is delivered with a data object',
    clauses: ['CTL-EVENT-FIRE', 'ENV-DATA'],
    ground: 'CTL-EVENT-FIRE',
    accepts:
      'keys the service adds beside the given ones (recorded); a firing without a data member refused with any 4xx (recorded)',
  }),
  service({
    id: 'HOOK-ONE-DELIVERY-PER-EVENT',
    area: 'webhook-envelope',
    level: 'should',
    title:
      'An endpoint whose subscription names an event type twice (* and the type, or the type twice) gets each acknowledged event once',
    clauses: ['REG-3', 'EP-RECEIVER-ACK', 'ENV-ID'],
    accepts: 'either subscription refused with any 4xx (a check of the other one), both refused (skipped)',
  }),
  service({
    id: 'HOOK-DELIVERY-POST',
    area: 'webhook-envelope',
    level: 'must',
    title: 'Deliveries are HTTP POST requests, a retry too',
    clauses: ['EP-RECEIVER', 'EVT-DELIVERY'],
    ground: 'EVT-DELIVERY',
  }),
  service({
    id: 'HOOK-CONTENT-TYPE',
    area: 'webhook-envelope',
    level: 'should',
    title: 'Deliveries are sent with a JSON content type, a retry too',
    clauses: ['EP-RECEIVER'],
    accepts: 'application/json or any +json type, with parameters such as charset',
  }),

  // --- Signatures and timestamps -------------------------------------------------------------
  service({
    id: 'HOOK-SIGNATURE-RAW-BODY',
    area: 'webhook-signature',
    level: 'must',
    title: 'X-Service-Signature is the lowercase hex HMAC-SHA256 of the raw body',
    clauses: ['SIG-1', 'SIG-5', 'CTL-HOOK-SECRET'],
    ground: 'SIG-1',
    accepts: 'any serialisation of the body (whitespace, key order, escapes): the HMAC is of the bytes sent',
  }),
  service({
    id: 'HOOK-TIMESTAMP-DELIVERY-TIME',
    area: 'webhook-signature',
    level: 'must',
    title: 'X-Service-Timestamp is the delivery time in Unix seconds',
    clauses: ['SIG-2', 'SIG-3'],
    ground: 'SIG-2',
  }),
  service({
    id: 'HOOK-TIMESTAMP-CLOCK-OFFSET',
    area: 'webhook-signature',
    level: 'must',
    title:
      "Every timestamp is within 300 s of the harness's clock at arrival, so a receiver with a correct clock accepts it",
    clauses: ['SIG-2', 'SIG-3', 'LIMIT-TIMESTAMP-TOLERANCE'],
    ground: 'SIG-2',
    tolerance: {
      seconds: 300,
      clause: 'LIMIT-TIMESTAMP-TOLERANCE',
      allowance: 'judged on the raw timestamp against the harness clock (named in the report), as a receiver judges it',
    },
  }),
  service({
    id: 'HOOK-TIMESTAMP-CLOCK-SYNC',
    area: 'webhook-signature',
    level: 'should',
    title: "The service's clock, read from its timestamps, is within 5 s of the harness's",
    clauses: ['SIG-2'],
    accepts:
      "up to 5 s either way (median over the tour, recorded); more warns, since every second of it eats into the receivers' 300 s",
  }),
  service({
    id: 'HOOK-TIMESTAMP-NOT-SIGNED',
    area: 'webhook-signature',
    level: 'must',
    title: 'The timestamp is not part of the signed content',
    clauses: ['SIG-3'],
    ground: 'SIG-3',
  }),
  service({
    id: 'HOOK-TIMESTAMP-PER-ATTEMPT',
    area: 'webhook-signature',
    level: 'must',
    title: 'Each retry carries its own fresh timestamp',
    clauses: ['SIG-2', 'RETRY-2'],
    ground: 'SIG-2',
    accepts:
      'two attempts whose timestamps are as far apart as their arrivals within 1.5 s (timestamps in whole seconds); an interval off by more is measured once more on a fresh endpoint and fails only if off both times',
  }),

  // --- Delivery outcomes ---------------------------------------------------------------------
  service({
    id: 'HOOK-ACK-ANY-2XX',
    area: 'webhook-delivery',
    level: 'must',
    title:
      'Any 2xx (200, 201, 202, 204, the unusual 206 and 299, and 200s with a text, HTML, "error": null or 16 KiB JSON body) acknowledges a delivery: no retry',
    clauses: ['EP-RECEIVER-ACK'],
    ground: 'EP-RECEIVER-ACK',
    accepts: 'any 2xx body',
  }),
  service({
    id: 'HOOK-RETRY-TARGET',
    area: 'webhook-delivery',
    level: 'should',
    title:
      "A failed delivery is retried to its own endpoint only, whatever other endpoints did: another endpoint subscribed to the event, which acknowledged it, gets it once, and the failing endpoint's retry still comes after another endpoint acknowledged the event and was deleted",
    clauses: ['RETRY-1', 'RETRY-2', 'EVT-DELIVERY'],
    accepts:
      'watched until the retry to the failing endpoint has been answered, and 1.5 s more; the retry awaited as long as HOOK-RETRY-ON-5XX awaits it',
  }),
  service({
    id: 'HOOK-RETRY-ACK-ENDS',
    area: 'webhook-delivery',
    level: 'must',
    title:
      'A retry answered with a 2xx acknowledges the delivery: no attempt follows when the next delays of the schedule fall due',
    clauses: ['EP-RECEIVER-ACK', 'RETRY-1', 'RETRY-2'],
    ground: 'EP-RECEIVER-ACK',
    accepts: 'watched through the 5 and 30 minute delays (scaled) after the retry was answered 204, and 1.5 s more',
  }),
  service({
    id: 'HOOK-RETRY-SAME-EVENT',
    area: 'webhook-delivery',
    level: 'should',
    title:
      "A retry of each of the eight event types carries its first attempt's envelope: id, type, created_at, workspace_id, api_version and data (a call's metadata included) equal",
    clauses: ['RETRY-2', 'ENV-ID', 'ENV-CREATED-AT'],
    accepts:
      'a should: the spec says a replay keeps its id and gets a fresh signature and timestamp, and says nothing of a retry beyond its schedule; the envelopes are compared parsed, not as bytes; an event whose retry does not come in time is left to HOOK-RETRY-ON-5XX (recorded), and the check skips when none comes',
  }),
  service({
    id: 'HOOK-RETRY-AFTER-IGNORED',
    area: 'webhook-delivery',
    level: 'should',
    title: 'A failure answered 503 with Retry-After: 0 is retried on the schedule (1 minute, scaled), not at once',
    clauses: ['RETRY-1', 'RETRY-2'],
    tolerance: RETRY_SCHEDULE,
    accepts: 'a should: the spec names the delays and not Retry-After, which some senders honour',
  }),
  service({
    id: 'HOOK-UNLISTED-TYPE',
    area: 'webhook-delivery',
    level: 'should',
    title:
      'An event type the spec does not list, fired through the control interface, is refused or reaches no endpoint on *',
    clauses: ['ENV-TYPE', 'CTL-EVENT-FIRE'],
    accepts:
      'a should: the contract fires "that event" without naming what happens to a type it does not list; the firing refused with any 4xx, or accepted and delivered nowhere',
  }),
  service({
    id: 'HOOK-RETRY-ON-3XX',
    area: 'webhook-delivery',
    level: 'must',
    title:
      'A 3xx answer is a failure, retried 1 minute (scaled) later, not at once, though its Location acknowledges; a 300, the first status past 2xx, is retried too',
    clauses: ['RETRY-1', 'RETRY-2'],
    ground: 'RETRY-1',
    tolerance: RETRY_SCHEDULE,
  }),
  service({
    id: 'HOOK-RETRY-ON-4XX',
    area: 'webhook-delivery',
    level: 'must',
    title:
      'A 4xx answer is a failure, retried 1 minute (scaled) later, not at once; a 401, 403, 404, 410 or 422 is retried too and leaves the endpoint active',
    clauses: ['RETRY-1', 'RETRY-2', 'RETRY-3'],
    ground: 'RETRY-1',
    tolerance: RETRY_SCHEDULE,
  }),
  service({
    id: 'HOOK-RETRY-ON-429',
    area: 'webhook-delivery',
    level: 'must',
    title:
      'A 429 answer without Retry-After is a failure like any non-2xx: retried on the schedule, 1 minute (scaled) later, not sooner',
    clauses: ['RETRY-1', 'RETRY-2'],
    ground: 'RETRY-2',
    tolerance: RETRY_SCHEDULE,
  }),
  service({
    id: 'HOOK-RETRY-ON-5XX',
    area: 'webhook-delivery',
    level: 'must',
    title: 'A 5xx answer is a failure, retried 1 minute (scaled) later, not at once',
    clauses: ['RETRY-1', 'RETRY-2'],
    ground: 'RETRY-1',
    tolerance: RETRY_SCHEDULE,
  }),
  service({
    id: 'HOOK-RETRY-ON-RESET',
    area: 'webhook-delivery',
    level: 'must',
    title:
      'An attempt the receiver resets without an HTTP answer is a failure, retried 1 minute (scaled) later, not at once: it gets no 2xx, and no answer within 30 s',
    clauses: ['RETRY-1', 'RETRY-2', 'EP-RECEIVER-ACK'],
    ground: 'RETRY-1',
    tolerance: RETRY_SCHEDULE,
    accepts: 'the retry timed from the reset, as from any answered failure; whatever error the service logs for it',
  }),
  service({
    id: 'HOOK-RETRY-ON-TIMEOUT',
    area: 'webhook-delivery',
    level: 'must',
    title: 'A receiver slower than the delivery time-out is a failure and is retried',
    clauses: ['RETRY-1', 'LIMIT-RECEIVER-TIMEOUT'],
    ...RECEIVER_TIMEOUT,
    ground: 'RETRY-1',
  }),
  service({
    id: 'HOOK-SLOW-ACK-OK',
    area: 'webhook-delivery',
    level: 'must',
    title: 'A 2xx slower than usual but within the time-out acknowledges',
    clauses: ['RETRY-1', 'LIMIT-RECEIVER-TIMEOUT'],
    ...RECEIVER_TIMEOUT,
    ground: 'RETRY-1',
  }),
  service({
    id: 'HOOK-ACK-BODY-LATE',
    area: 'webhook-delivery',
    level: 'observe',
    title: 'What the service does with a 2xx whose body ends only after the delivery time-out',
    clauses: ['RETRY-1', 'LIMIT-RECEIVER-TIMEOUT'],
    accepts: 'acknowledged at its status line, or failed as a read time-out and retried (recorded)',
  }),
  service({
    id: 'HOOK-TIMEOUT-30S',
    area: 'webhook-delivery',
    level: 'must',
    title: 'The real time-out: a 2xx after 25 s acknowledges, no answer in 35 s is retried',
    clauses: ['LIMIT-RECEIVER-TIMEOUT'],
    ground: 'LIMIT-RECEIVER-TIMEOUT',
    tier: 'full',
    tolerance: {
      seconds: 30,
      clause: 'LIMIT-RECEIVER-TIMEOUT',
      allowance:
        '±5 s: a 2xx 25 s after arrival acknowledges, no answer within 35 s is retried; skipped where the target declares a shorter time-out',
    },
  }),

  // --- Retries, drop, disable ----------------------------------------------------------------
  service({
    id: 'HOOK-RETRY-EARLY-SCHEDULE',
    area: 'webhook-retry',
    level: 'must',
    title:
      'The first retry delays (1 min, 5 min, 30 min, 2 h), each timed on its own at a time scale where it lasts 5 s, are as scheduled',
    clauses: ['RETRY-2'],
    ground: 'RETRY-2',
    tolerance: RETRY_SCHEDULE,
  }),
  service({
    id: 'HOOK-RETRY-FULL-SCHEDULE',
    area: 'webhook-retry',
    level: 'must',
    title: 'All retries arrive on the 1m, 5m, 30m, 2h, 12h, 24h schedule (scaled), then no more',
    clauses: ['RETRY-2', 'LIMIT-DELIVERY-ATTEMPTS'],
    ground: 'RETRY-2',
    tolerance: RETRY_SCHEDULE,
    accepts: '7 attempts in all, or 6 when the drop still waits the 24 h delay',
  }),
  service({
    id: 'HOOK-DROP-AND-FLAG',
    area: 'webhook-retry',
    level: 'must',
    title: 'After the last attempt the delivery is dropped and the endpoint flagged, still active',
    clauses: ['STATE-ENDPOINT-FLAG', 'RETRY-2'],
    ground: 'STATE-ENDPOINT-FLAG',
    accepts: '7 attempts in all, or 6 when the drop still waits the 24 h delay',
  }),
  service({
    id: 'HOOK-AUTO-DISABLE',
    area: 'webhook-retry',
    level: 'must',
    title: '24 h (scaled) of consecutive failures disable the endpoint',
    clauses: ['STATE-ENDPOINT-DISABLE', 'RETRY-3'],
    ground: 'RETRY-3',
    accepts: 'disabling on a 24 h timer, or at the first failure after 24 h',
  }),
  service({
    id: 'HOOK-DISABLED-SILENT',
    area: 'webhook-retry',
    level: 'must',
    title: 'A disabled endpoint receives no deliveries',
    clauses: ['STATE-ENDPOINT-DISABLE'],
    ground: 'STATE-ENDPOINT-DISABLE',
    accepts:
      "an attempt in flight at the transition: one arriving within 500 ms (plus this process's own stall) of the poll that read disabled, or one already due by then (a retry by the schedule, or the first attempt of an event fired before)",
  }),
  service({
    id: 'HOOK-REENABLE',
    area: 'webhook-retry',
    level: 'must',
    title: 'A re-enabled endpoint is active and receives deliveries again',
    clauses: ['STATE-ENDPOINT-REENABLE'],
    ground: 'STATE-ENDPOINT-REENABLE',
  }),
  service({
    id: 'HOOK-REENABLE-KEEPS-ATTRIBUTES',
    area: 'webhook-retry',
    level: 'must',
    title:
      'A re-enabled endpoint is the endpoint it was: an event of a type it did not subscribe to does not reach it, its deliveries are signed with its own secret, and the control interface reads back its URL and event types',
    clauses: ['STATE-ENDPOINT-REENABLE', 'REG-3', 'REG-2'],
    ground: 'REG-3',
    accepts:
      'event types read back in any order; the URL read back in any equivalent form (as the WHATWG URL parser normalises it)',
  }),
  // The spec has no deleted state and no rule for it; every user expects a deleted endpoint to stay gone.
  service({
    id: 'HOOK-DELETED-SILENT',
    area: 'webhook-retry',
    level: 'should',
    title:
      'A deleted endpoint gets nothing more and stays gone: no event fired after the deletion, no retry that falls due after it (nor of an attempt it was deleted during), no replay naming it, and reading it is refused',
    clauses: ['RES-ENDPOINT', 'EVT-DELIVERY', 'RETRY-2', 'RETRY-4'],
    accepts:
      'the replay refused with any 4xx, or accepted and not sent (watched 3 s after the retry fell due); a retry arriving before the replay was asked for, where the deletion was answered less than 500 ms before that retry could be sent (it may have left first)',
  }),
  service({
    id: 'HOOK-AUTO-DISABLE-FROM-FIRST-FAILURE',
    area: 'webhook-retry',
    level: 'must',
    title:
      'The 24 h (scaled) before auto-disable count from the first failure of the streak: an endpoint acknowledged, quiet 12 h, then failing, is still active 18 h after that failure',
    clauses: ['RETRY-3', 'STATE-ENDPOINT-DISABLE'],
    ground: 'RETRY-3',
    accepts: 'any disable time from 18 h of failures on (HOOK-AUTO-DISABLE judges its edge)',
  }),
  service({
    id: 'HOOK-REENABLE-FRESH-STREAK',
    area: 'webhook-retry',
    level: 'should',
    title: 'A re-enabled endpoint starts a new 24 h: a delivery that fails right after the re-enable leaves it active',
    clauses: ['STATE-ENDPOINT-REENABLE', 'RETRY-3'],
    accepts: 'its state read 2 s (about 2 h scaled at 3600) after that failure',
  }),
  service({
    id: 'HOOK-AUTO-DISABLE-NO-ANSWER',
    area: 'webhook-retry',
    level: 'must',
    title:
      '24 h (scaled) of attempts that get no HTTP answer (every connection reset by the receiver, or refused) disable the endpoint: such an attempt gets no 2xx and no answer within 30 s, so it is a failure',
    clauses: ['RETRY-3', 'RETRY-1', 'STATE-ENDPOINT-DISABLE', 'EP-RECEIVER-ACK'],
    ground: 'RETRY-3',
    accepts:
      'disabling on a 24 h timer, or at the first failure after 24 h; for the refused endpoint, whose attempts the receiver cannot see, the 24 h counted from when the first event was fired',
  }),
  service({
    id: 'HOOK-RETRY-REAL-TIME',
    area: 'webhook-retry',
    level: 'must',
    title: 'Un-scaled: the first retry arrives 1 minute after the failure',
    clauses: ['RETRY-2'],
    ground: 'RETRY-2',
    tier: 'full',
  }),

  // --- Replay --------------------------------------------------------------------------------
  service({
    id: 'HOOK-REPLAY-SAME-ID',
    area: 'webhook-replay',
    level: 'must',
    title: 'A replayed delivery carries the same event id and envelope',
    clauses: ['RETRY-4', 'ENV-ID'],
    ground: 'RETRY-4',
  }),
  service({
    id: 'HOOK-REPLAY-CALL-EVENT',
    area: 'webhook-replay',
    level: 'must',
    title:
      'A call event the service emitted by itself (voice.call.queued and voice.call.completed of one call, with metadata) can be replayed, and arrives again with its id and envelope',
    clauses: ['RETRY-4'],
    ground: 'RETRY-4',
  }),
  service({
    id: 'HOOK-REPLAY-OTHER-ENDPOINT-SIGNED',
    area: 'webhook-replay',
    level: 'must',
    title: "A replay to an endpoint that never had the event is signed with that endpoint's own secret",
    clauses: ['RETRY-4', 'SIG-1', 'REG-2'],
    ground: 'RETRY-4',
    accepts: 'the replay refused with any 4xx (recorded; nothing delivered to judge)',
  }),
  service({
    id: 'HOOK-REPLAY-FRESH',
    area: 'webhook-replay',
    level: 'must',
    title: 'A replay carries a fresh timestamp and a valid fresh signature',
    clauses: ['RETRY-4'],
    ground: 'RETRY-4',
  }),
  service({
    id: 'HOOK-REPLAY-ONE-ENDPOINT',
    area: 'webhook-replay',
    level: 'should',
    title:
      'A replay reaches the endpoint it names only: another endpoint of the workspace subscribed to the event gets no second delivery',
    clauses: ['RETRY-4', 'REG-3'],
  }),
  service({
    id: 'HOOK-FIRED-EVENT-ID',
    area: 'webhook-replay',
    level: 'should',
    title:
      'The event id the dashboard answers for a fired event is the id its delivery carries, and a replay of it is sent',
    clauses: ['ENV-ID', 'RETRY-4'],
    accepts: 'the replay sent within 10 s with any answer of the control interface but a refusal',
  }),
  service({
    id: 'HOOK-REPLAY-DISABLED',
    area: 'webhook-replay',
    level: 'must',
    title: 'A replay to an auto-disabled endpoint is not delivered while it stays disabled',
    clauses: ['STATE-ENDPOINT-DISABLE', 'RETRY-4'],
    ground: 'STATE-ENDPOINT-DISABLE',
    accepts:
      'the replay refused with any 4xx, or accepted and not sent while the endpoint is disabled (watched 5 s); whether an accepted replay arrives after re-enable is recorded, not judged',
  }),

  // --- The service as a model: a fixed sequence per rule, then generated ones ----------------
  service({
    id: 'MODEL-TOKENS-SUSPENSION',
    area: 'state-model',
    level: 'must',
    title:
      'A fixed sequence per rule, then generated sequences, of token creation (all scopes or narrowed), revocation and use, suspension and reinstatement keep the token, scope and suspension rules',
    clauses: [
      'STATE-TOKEN-LIMIT',
      'STATE-TOKEN-REVOKE',
      'ERR-RULE-2',
      'ERR-CODE-WORKSPACE-DISABLED',
      'LIMIT-REVOCATION',
      'AUTH-TOKEN-4',
      'AUTH-SCOPE-VOICE-READ',
      'EP-AGENTS',
      'ERR-CODE-MISSING-SCOPE',
    ],
    ground: 'STATE-TOKEN-REVOKE',
    tolerance: {
      seconds: 60,
      clause: 'LIMIT-REVOCATION',
      allowance:
        'a revoked token may answer 200 until it is first refused, within 60 s; suspension and reinstatement are waited for up to 60 s',
    },
    accepts:
      "creating or revoking a token while suspended: done or refused with a 4xx; on a suspended workspace a revoked or narrowed token's own refusal (invalid_token, missing_scope) or workspace_disabled; missing_scope with any 4xx",
  }),

  service({
    id: 'MODEL-ENDPOINTS',
    area: 'state-model',
    level: 'must',
    title:
      'A fixed sequence per rule, then generated sequences, of endpoint creation up to the limit (one at a time and several at once), deletion and events keep the 25-endpoint limit and reach every active endpoint',
    clauses: ['REG-4', 'STATE-ENDPOINT-LIMIT', 'LIMIT-ENDPOINTS', 'REG-3'],
    ground: 'REG-4',
    accepts:
      "a refusal at the limit with any 4xx; of creations sent at once, any number up to the free slots granted, the others refused with any 4xx; deleting a deleted endpoint again: done or refused; a deleted endpoint's deliveries are not judged here (HOOK-DELETED-SILENT)",
  }),

  service({
    id: 'MODEL-ENDPOINT-HEALTH',
    area: 'state-model',
    level: 'must',
    title:
      'A fixed sequence per rule, then generated sequences, on workspaces with auto-disabled endpoints (creation, deletion, re-enable, events): a disabled endpoint holds no active slot and gets nothing; a re-enabled one is active and gets exactly the event types it subscribed to',
    clauses: [
      'STATE-ENDPOINT-DISABLE',
      'STATE-ENDPOINT-REENABLE',
      'STATE-ENDPOINT-LIMIT',
      'LIMIT-ENDPOINTS',
      'RETRY-3',
      'REG-3',
    ],
    ground: 'STATE-ENDPOINT-DISABLE',
    accepts:
      'everything MODEL-ENDPOINTS accepts; re-enabling with 25 active is not generated (the spec does not say whether it is refused)',
  }),

  // --- Receiver: valid deliveries are acknowledged -------------------------------------------
  receiver({
    id: 'RCV-ACCEPT-EVENT-TYPES',
    area: 'receiver-acceptance',
    level: 'must',
    title: 'A valid delivery of each of the eight event types is acknowledged with a 2xx within the time-out',
    clauses: [...EVENT_TYPES, 'SIG-4', 'EP-RECEIVER-ACK', 'RETRY-1', 'LIMIT-RECEIVER-TIMEOUT'],
    ...RECEIVER_TIMEOUT,
    ground: 'SIG-4',
  }),
  receiver({
    id: 'RCV-ACCEPT-RAW-BODIES',
    area: 'receiver-acceptance',
    level: 'must',
    title:
      'Validly signed bodies that re-serialization would change (whitespace, key order, escapes, non-ASCII, large numbers) are acknowledged',
    clauses: ['SIG-1', 'SIG-5'],
    ground: 'SIG-5',
  }),

  // --- Receiver: bad signatures are rejected (non-2xx) ---------------------------------------
  receiver({
    id: 'RCV-REJECT-WRONG-SIGNATURE',
    area: 'receiver-signature',
    level: 'must',
    title: 'A well-formed but wrong signature (64 lowercase hex) is rejected',
    clauses: ['SIG-4'],
    ground: 'SIG-4',
  }),
  receiver({
    id: 'RCV-REJECT-OTHER-SECRET',
    area: 'receiver-signature',
    level: 'must',
    title: 'A signature of the body made with another secret is rejected',
    clauses: ['SIG-1', 'SIG-4'],
    ground: 'SIG-4',
  }),
  receiver({
    id: 'RCV-REJECT-TAMPERED-BODY',
    area: 'receiver-signature',
    level: 'must',
    title: 'The right signature sent with a body changed after signing is rejected',
    clauses: ['SIG-1', 'SIG-4'],
    ground: 'SIG-4',
  }),
  receiver({
    id: 'RCV-REJECT-UPPERCASE-HEX',
    area: 'receiver-signature',
    level: 'should',
    title: 'The right signature in upper-case hex is rejected',
    clauses: ['SIG-1', 'SIG-4'],
  }),
  receiver({
    id: 'RCV-REJECT-BASE64',
    area: 'receiver-signature',
    level: 'should',
    title: 'The right HMAC in base64 instead of hex is rejected',
    clauses: ['SIG-1', 'SIG-4'],
  }),
  receiver({
    id: 'RCV-REJECT-TRUNCATED',
    area: 'receiver-signature',
    level: 'must',
    title: 'A truncated signature (the right one cut to 63 and to 32 hex characters) is rejected',
    clauses: ['SIG-4'],
    ground: 'SIG-4',
  }),
  receiver({
    id: 'RCV-REJECT-OVERLONG',
    area: 'receiver-signature',
    level: 'must',
    title: 'An over-long signature (the right one plus one character, the right one twice) is rejected',
    clauses: ['SIG-4'],
    ground: 'SIG-4',
  }),
  receiver({
    id: 'RCV-REJECT-EMPTY-SIGNATURE',
    area: 'receiver-signature',
    level: 'must',
    title: 'An empty X-Service-Signature header is rejected',
    clauses: ['SIG-4'],
    ground: 'SIG-4',
  }),
  receiver({
    id: 'RCV-REJECT-MISSING-SIGNATURE',
    area: 'receiver-signature',
    level: 'must',
    title: 'A delivery without X-Service-Signature is rejected',
    clauses: ['EP-RECEIVER', 'SIG-4'],
    ground: 'SIG-4',
  }),
  receiver({
    id: 'RCV-REJECT-RESERIALIZED-SIGNATURE',
    area: 'receiver-signature',
    level: 'must',
    title:
      'A signature over the re-serialized body (JavaScript and Python styles) instead of the raw bytes is rejected',
    clauses: ['SIG-5'],
    ground: 'SIG-5',
  }),
  receiver({
    id: 'RCV-REJECT-TIMESTAMP-DOT-BODY',
    area: 'receiver-signature',
    level: 'must',
    title: 'A signature over `timestamp.body` instead of the body is rejected',
    clauses: ['SIG-1', 'SIG-3'],
    ground: 'SIG-3',
  }),

  // --- Receiver: timestamps ------------------------------------------------------------------
  receiver({
    id: 'RCV-CLOCK-OFFSET',
    area: 'receiver-timestamp',
    level: 'observe',
    title: "The receiver's clock offset, measured from its Date headers (used by the ±299/±301 s checks)",
    clauses: ['SIG-3'],
  }),
  receiver({
    id: 'RCV-REJECT-TIMESTAMP-PAST-301',
    area: 'receiver-timestamp',
    level: 'must',
    title: "A timestamp 301 s behind the receiver's clock is rejected",
    clauses: ['SIG-3', 'LIMIT-TIMESTAMP-TOLERANCE'],
    ...TIMESTAMP_WINDOW,
    ground: 'SIG-3',
  }),
  receiver({
    id: 'RCV-REJECT-TIMESTAMP-FUTURE-301',
    area: 'receiver-timestamp',
    level: 'must',
    title: "A timestamp 301 s ahead of the receiver's clock is rejected",
    clauses: ['SIG-3', 'LIMIT-TIMESTAMP-TOLERANCE'],
    ...TIMESTAMP_WINDOW,
    ground: 'SIG-3',
  }),
  receiver({
    id: 'RCV-ACCEPT-TIMESTAMP-PAST-299',
    area: 'receiver-timestamp',
    level: 'must',
    title: "A timestamp 299 s behind the receiver's clock is acknowledged",
    clauses: ['SIG-3', 'LIMIT-TIMESTAMP-TOLERANCE'],
    ...TIMESTAMP_WINDOW,
    ground: 'LIMIT-TIMESTAMP-TOLERANCE',
  }),
  receiver({
    id: 'RCV-ACCEPT-TIMESTAMP-FUTURE-299',
    area: 'receiver-timestamp',
    level: 'must',
    title: "A timestamp 299 s ahead of the receiver's clock is acknowledged",
    clauses: ['SIG-3', 'LIMIT-TIMESTAMP-TOLERANCE'],
    ...TIMESTAMP_WINDOW,
    ground: 'LIMIT-TIMESTAMP-TOLERANCE',
  }),
  // No time to hold within 300 s: accepting it leaves no replay protection, which SIG-3 names as the rule's purpose.
  receiver({
    id: 'RCV-REJECT-TIMESTAMP-MISSING',
    area: 'receiver-timestamp',
    level: 'must',
    title: 'A delivery without X-Service-Timestamp (or with it empty) is rejected',
    clauses: ['SIG-2', 'SIG-3'],
    ground: 'SIG-3',
  }),
  receiver({
    id: 'RCV-REJECT-TIMESTAMP-NON-NUMERIC',
    area: 'receiver-timestamp',
    level: 'must',
    title: 'A timestamp that holds no time at all (text) is rejected',
    clauses: ['SIG-2', 'SIG-3'],
    ground: 'SIG-3',
  }),
  receiver({
    id: 'RCV-REJECT-TIMESTAMP-LENIENT',
    area: 'receiver-timestamp',
    level: 'should',
    title: 'The current time in another form than Unix seconds (an ISO 8601 date, digits followed by text) is rejected',
    clauses: ['SIG-2', 'SIG-3'],
    accepts: 'accepting them warns only: a lenient parser still reads a fresh time',
  }),
  receiver({
    id: 'RCV-REJECT-TIMESTAMP-MILLISECONDS',
    area: 'receiver-timestamp',
    level: 'must',
    title: 'The current time in Unix milliseconds (about 55 years ahead in seconds) is rejected',
    clauses: ['SIG-2', 'SIG-3'],
    ground: 'SIG-3',
  }),

  // --- Receiver: replay ----------------------------------------------------------------------
  receiver({
    id: 'RCV-REPLAY-ACKNOWLEDGED',
    area: 'receiver-replay',
    level: 'must',
    title: 'A replay (same id, fresh signature and timestamp) is acknowledged with a 2xx',
    clauses: ['RETRY-4'],
    ground: 'RETRY-4',
  }),
  receiver({
    id: 'RCV-REPLAY-PROCESSED-ONCE',
    area: 'receiver-replay',
    level: 'must',
    title: 'A replayed id is processed once (needs the count convention; skip without it)',
    clauses: ['RETRY-4', 'ENV-ID'],
    ground: 'RETRY-4',
  }),
  receiver({
    id: 'RCV-REPLAY-OBSERVED',
    area: 'receiver-replay',
    level: 'observe',
    title: 'What the receiver shows of a replay from outside: statuses, times, count',
    clauses: ['RETRY-4'],
  }),

  // --- Receiver: constant time ---------------------------------------------------------------
  receiver({
    id: 'RCV-TIMING-CONSTANT-TIME',
    area: 'receiver-timing',
    level: 'observe',
    title: 'Timing probe: rejections do not take longer as a wrong signature shares a longer prefix with the right one',
    clauses: ['SIG-4'],
  }),

  // --- Receiver: status codes and latency (read from every exchange before them) -------------
  receiver({
    id: 'RCV-STATUS-REJECT-401',
    area: 'receiver-status',
    level: 'observe',
    title: 'Whether deliveries that must be rejected are answered 401, as the reference receiver does',
    clauses: ['SIG-4'],
    accepts: 'any non-2xx rejection (the 401 is what the reference does, not a rule)',
  }),
  receiver({
    id: 'RCV-STATUS-SUCCESS-204',
    area: 'receiver-status',
    level: 'observe',
    title: 'Whether valid deliveries are acknowledged with 204, as the reference receiver does',
    clauses: ['SIG-4'],
    accepts: 'any 2xx acknowledgement (the 204 is what the reference does, not a rule)',
  }),
  receiver({
    id: 'RCV-STATUS-CODES',
    area: 'receiver-status',
    level: 'observe',
    title: 'Status codes the receiver uses for acknowledgements and rejections',
    clauses: ['SIG-4', 'EP-RECEIVER-ACK'],
  }),
  receiver({
    id: 'RCV-ACK-LATENCY',
    area: 'receiver-status',
    level: 'observe',
    title: 'Acknowledgement times of valid deliveries',
    clauses: ['RETRY-1', 'LIMIT-RECEIVER-TIMEOUT'],
    ...RECEIVER_TIMEOUT,
  }),
];

const byId = new Map<string, CatalogEntry>();
for (const entry of CATALOG) {
  if (byId.has(entry.id)) throw new CatalogError(`check id ${entry.id} is in the catalog twice`);
  byId.set(entry.id, entry);
}

/** The service's checks, in catalog order. */
export const CHECKS: readonly CheckSpec[] = CATALOG.filter((entry): entry is CheckSpec => entry.subject === 'service');

/** The receiver certification's checks, in run order. */
export const RECEIVER_CHECKS: readonly ReceiverCheckSpec[] = CATALOG.filter(
  (entry): entry is ReceiverCheckSpec => entry.subject === 'receiver',
);

/** A check of either subject, or undefined. */
export function catalogEntry(id: string): CatalogEntry | undefined {
  return byId.get(id);
}

export function getCheck(id: string): CheckSpec {
  const check = byId.get(id);
  if (check?.subject !== 'service')
    throw new CatalogError(`unknown check id ${id}: add it to src/catalog/checks.ts first`);
  return check;
}

export function checksOfArea(area: Area): CheckSpec[] {
  return CHECKS.filter((check) => check.area === area);
}

/** The reverse map, generated: for every clause, the checks of either subject that cite it (none: the clause's note says why). */
export const CHECKS_BY_CLAUSE: ReadonlyMap<ClauseId, readonly CatalogEntry[]> = new Map(
  CLAUSE_IDS.map((id) => [id, CATALOG.filter((entry) => entry.clauses.includes(id))]),
);
