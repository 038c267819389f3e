/**
 * The cells of the fault matrix (matrix.ts reads them): the reasons shared by groups of cells,
 * which classes apply to which kind of clause, and one row per clause of the spec and the
 * control contract. Edit here; `npm run docs` regenerates docs/fault-matrix.md.
 */
import type { ClauseId } from './spec-clauses.js';
import type { FaultClassId } from './fault-classes.js';
import type { Cell, ClauseKind, Reason, ReasonKind, Row } from './matrix.js';

// --- Building blocks ---------------------------------------------------------------------------

const checked = (...checks: string[]): Cell => ({ checks });
/** A cell no check covers yet. */
const reason = (kind: ReasonKind, text: string): Reason => ({ kind, text });
const because = (r: Reason): Cell => ({ reason: r });
const na = (text: string): Cell => because(reason('not-applicable', text));
const noRule = (text: string): Cell => because(reason('no-rule', text));
const see = (clauses: readonly ClauseId[], text: string): Reason => ({ kind: 'elsewhere', text, see: clauses });
const seeRow = (clauses: readonly ClauseId[], text: string): Cell => because(see(clauses, text));

// --- Reasons shared by many cells ------------------------------------------------------------

const NOT_SHOWN = reason(
  'no-rule',
  'Not shown by the spec: there is no behaviour for a class to vary (an `observe` check records what is seen where a user would look).',
);
const INFORMATIVE = reason(
  'not-applicable',
  'Describes the product; the clauses it points to carry the rules, and the classes are applied there.',
);
const OUTSIDE = reason(
  'not-observable',
  "Outside what a harness can cause or see through the API: an operator's choice, another host, or a rule for the harness itself.",
);
const NO_PATH = reason(
  'not-observable',
  'No shown path exercises it (mailer and webhook-management operations), so no class can be tried on it.',
);
const SERVICE_MADE =
  'Made by the service (after failures over time), not by a caller: nothing to send twice or at once.';
const NO_ENDPOINT_UPDATE =
  "The contract has no operation that changes an endpoint's URL, event types or secret after creation; re-enable is the only change (Transition keeps attributes).";
const CONTROL_ERRORS =
  'Refused by the control interface, whose errors the contract reads as information only ("any 4xx"); the spec\'s error shape binds the public API.';

/** Where a class does not apply to a kind, the reason it does not: one per class, for any kind. */
export const CLASS_REASONS: Record<FaultClassId, Reason> = {
  'near-miss': reason('not-applicable', 'The service compares no input of a caller here.'),
  concurrent: reason('not-applicable', 'Names no write whose copies at once could break a uniqueness or a limit.'),
  'other-state': reason('not-applicable', 'Its outcome does not depend on the state of a resource.'),
  empty: reason('not-applicable', 'No optional or list-valued input, and no listed output field.'),
  transition: reason('not-applicable', 'Names no state transition, so no attribute to carry across one.'),
  connection: reason(
    'not-applicable',
    'No rule whose effect on a credential must show within a time bound: nothing a kept-alive connection could hold stale.',
  ),
  'setting-changed': reason('not-applicable', 'Names no setting a caller can change after first use.'),
  target: reason('not-applicable', 'Names no operation that addresses one resource among several.'),
  'handed-out': reason('not-applicable', 'Hands out no value a client then uses elsewhere.'),
  'receiver-answers': reason('not-applicable', 'Not a delivery: no answer of a receiver decides it.'),
  'duration-edges': reason('not-applicable', 'States no duration.'),
  'error-shape': reason('not-applicable', 'Not an error path of the public API.'),
  'every-operation': reason('not-applicable', 'Not a rule stated for requests in general.'),
  repeated: reason('not-applicable', 'Names no write a caller could repeat.'),
  'cached-past-validity': reason(
    'not-applicable',
    'Names no validity that ends (an expiry, a revocation, a removal), so nothing accepted before could be remembered past it.',
  ),
};

/** Per kind, a reason more exact than the class's own where the class does not apply. */
export const KIND_REASONS: Partial<Record<ClauseKind, Partial<Record<FaultClassId, Reason>>>> = {
  identifier: {
    'near-miss': see(
      ['EP-TRANSCRIPT', 'EP-CALLS'],
      'An id is compared where an operation looks it up: the operation rows hold its near misses.',
    ),
    target: see(
      ['EP-TRANSCRIPT', 'EP-CALLS', 'SVC-2'],
      'An id addresses a target through an operation: the operation rows hold it.',
    ),
    empty: reason(
      'not-applicable',
      'An id is always present where it is shown; presence of the field that carries it is on the field and event rows.',
    ),
    'other-state': see(
      ['STATE-TOKEN-REVOKE', 'CTL-WS-SUSPEND', 'STATE-ENDPOINT-DISABLE'],
      "An id keeps its shape whatever the state of what it names; operations on it in other states are on the transitions' rows.",
    ),
  },
  field: {
    'near-miss': reason('not-applicable', 'An output of the service: the service compares nothing here.'),
    concurrent: see(
      ['RES-CALL', 'ENV-ID'],
      'Written by the service per call or event; uniqueness under concurrency is on the id rows.',
    ),
    target: see(
      ['REG-3', 'EVT-DELIVERY'],
      'Carried in a delivery; which endpoints a delivery reaches is on the delivery and registration rows.',
    ),
  },
  operation: {
    transition: see(
      ['STATE-TOKEN-REVOKE', 'CTL-WS-SUSPEND', 'CTL-WS-REINSTATE'],
      "The transitions' rows hold what an operation sees across them.",
    ),
    connection: see(
      ['STATE-TOKEN-REVOKE', 'CTL-WS-SUSPEND', 'CTL-SESSION-JWT'],
      'An operation holds no time bound itself; the rules that change what a credential may do hold the connection cells.',
    ),
    repeated: reason(
      'not-applicable',
      'Reads are repeatable by nature; placing a call twice places two calls (each its own id: the concurrent cell).',
    ),
  },
  credential: {
    concurrent: reason(
      'not-applicable',
      'Presenting a credential writes nothing; tokens created or revoked at once are on the limit and revocation rows.',
    ),
    repeated: reason('not-applicable', 'Presenting a credential writes nothing.'),
    'duration-edges': see(
      ['LIMIT-SESSION-LIFETIME', 'LIMIT-REVOCATION'],
      'The durations of credentials have their own rows.',
    ),
    empty: see(
      ['EP-AUTH-HEADER', 'AUTH-TOKEN-4'],
      "An absent credential is on EP-AUTH-HEADER's row; empty scope lists on AUTH-TOKEN-4's.",
    ),
    'other-state': see(
      ['STATE-TOKEN-REVOKE', 'CTL-WS-SUSPEND'],
      "A credential of a revoked token or of a suspended workspace: the transitions' rows.",
    ),
    'handed-out': see(['RES-TOKEN'], "Tokens handed out work as given: RES-TOKEN's row."),
  },
  scope: {
    'near-miss': see(
      ['CTL-SESSION-JWT', 'ERR-CODE-INVALID-TOKEN'],
      "A scope is held, not compared with a caller's input at request time; near misses of the credential that holds it are on the credential rows.",
    ),
    'other-state': see(
      ['STATE-TOKEN-REVOKE', 'CTL-WS-SUSPEND'],
      'A revoked token or a suspended workspace is refused before any scope is weighed: those rows.',
    ),
    connection: see(
      ['STATE-TOKEN-REVOKE', 'CTL-SESSION-JWT'],
      'Scopes never change on a live token; the connection cells are on the rows that change what a credential may do.',
    ),
    'error-shape': see(['ERR-CODE-MISSING-SCOPE'], 'The refusal is missing_scope: its row.'),
  },
  registration: {
    'other-state': see(
      ['REG-4', 'CTL-WS-SUSPEND'],
      "Creating an endpoint beside disabled or deleted ones is the limit row; a suspended workspace's control operations are not stated.",
    ),
    'setting-changed': reason('not-applicable', NO_ENDPOINT_UPDATE),
    'error-shape': reason('not-applicable', CONTROL_ERRORS),
    repeated: reason(
      'not-applicable',
      'Registering the same URL twice makes two endpoints; neither the spec nor the contract makes a URL unique.',
    ),
  },
  limit: {
    'error-shape': reason('not-applicable', CONTROL_ERRORS),
    transition: see(
      ['STATE-ENDPOINT-DISABLE', 'STATE-TOKEN-REVOKE'],
      "What frees or takes a slot is held by the limit's other-state cell and the transitions' rows.",
    ),
  },
  transition: {
    'near-miss': reason(
      'not-applicable',
      'Caused by the control interface or by the service over time; the caller names nothing the service compares.',
    ),
    'error-shape': see(['ERR-SHAPE'], 'The refusals a transition leads to are on the error rows.'),
  },
  duration: {
    connection: see(
      ['STATE-TOKEN-REVOKE', 'CTL-SESSION-JWT'],
      "A duration bounds a rule; the rule's row holds the connection cell.",
    ),
    'other-state': see(
      ['STATE-ENDPOINT-DISABLE', 'STATE-TOKEN-REVOKE', 'CTL-SESSION-JWT'],
      'The state a duration leads to (disabled, revoked, expired) is on the transition and credential rows.',
    ),
    'cached-past-validity': see(
      ['CTL-SESSION-JWT', 'STATE-TOKEN-REVOKE', 'STATE-ENDPOINT-DISABLE'],
      'What was accepted before a duration ran out, presented after it: the rows of the rule it bounds.',
    ),
  },
  delivery: {
    'error-shape': reason('not-applicable', 'The service sends deliveries; errors of the receiver are its own.'),
    connection: reason(
      'not-applicable',
      'The service opens the connections to a receiver; no credential of a caller travels on them.',
    ),
    'duration-edges': see(
      ['LIMIT-RECEIVER-TIMEOUT', 'RETRY-2'],
      'The time-out and the retry delays have their own rows.',
    ),
  },
  'event-type': {
    'near-miss': see(['REG-3'], "Event types are compared in subscriptions: REG-3's row."),
    target: see(['REG-3'], "An event reaches the endpoints subscribed to its type: REG-3's row."),
    concurrent: see(['ENV-ID'], "Events fired at once must keep distinct ids: ENV-ID's row."),
    'other-state': see(
      ['STATE-ENDPOINT-DISABLE', 'EVT-DELIVERY'],
      'Delivery to a disabled or deleted endpoint does not depend on the type: those rows.',
    ),
    'receiver-answers': see(
      ['RETRY-1', 'EP-RECEIVER-ACK'],
      'Acknowledgement and retry do not depend on the type: those rows.',
    ),
    empty: reason('no-rule', 'Its data is not shown: no listed field to be present.'),
    transition: see(
      ['CTL-WS-CALL-PROGRESS'],
      "The call lifecycle the voice events name, and what a call keeps across it: CTL-WS-CALL-PROGRESS's row; the other types name no transition of a resource the API shows.",
    ),
  },
  signature: {
    concurrent: see(['REG-2'], "Secrets of endpoints created at once are on REG-2's row."),
    empty: reason(
      'not-applicable',
      "The service always computes it; a missing or empty signature is a receiver's input (SIG-4's row).",
    ),
  },
  receiver: {
    target: reason('not-applicable', 'Binds a receiver judging one delivery.'),
    'receiver-answers': see(['SIG-4'], "The statuses a receiver answers with: SIG-4's row."),
  },
  error: {
    'near-miss': see(
      ['ERR-CODE-INVALID-TOKEN', 'CTL-SESSION-JWT'],
      'The near misses that lead to an error are on the credential rows.',
    ),
    'other-state': see(
      ['STATE-TOKEN-REVOKE', 'CTL-WS-SUSPEND'],
      "The states that lead to an error are on the transitions' rows.",
    ),
    transition: see(
      ['STATE-TOKEN-REVOKE', 'CTL-WS-SUSPEND'],
      'The transitions that lead to an error have their own rows.',
    ),
    connection: see(
      ['STATE-TOKEN-REVOKE', 'CTL-WS-SUSPEND'],
      'Whether an error shows on a kept-alive connection as on a fresh one: the rows of the rules that lead to it.',
    ),
    'cached-past-validity': see(
      ['STATE-TOKEN-REVOKE', 'CTL-WS-SUSPEND', 'CTL-SESSION-JWT'],
      'A credential accepted before the error was due: the rows of the rules that lead to it.',
    ),
  },
};

/** The classes that apply to each kind: every clause of the kind gives these cells itself. */
export const APPLIES: Record<ClauseKind, readonly FaultClassId[]> = {
  informative: [],
  'not-shown': [],
  outside: [],
  'no-path': [],
  restated: [],
  identifier: ['concurrent', 'handed-out'],
  field: ['empty'],
  operation: ['near-miss', 'concurrent', 'other-state', 'empty', 'target', 'every-operation', 'error-shape'],
  credential: [
    'near-miss',
    'connection',
    'setting-changed',
    'target',
    'every-operation',
    'error-shape',
    'transition',
    'cached-past-validity',
  ],
  scope: ['empty', 'transition', 'every-operation'],
  registration: ['near-miss', 'concurrent', 'empty', 'transition', 'target', 'handed-out'],
  limit: ['concurrent', 'repeated', 'other-state', 'target'],
  transition: [
    'other-state',
    'transition',
    'connection',
    'repeated',
    'target',
    'every-operation',
    'concurrent',
    'cached-past-validity',
  ],
  duration: ['duration-edges'],
  delivery: ['receiver-answers', 'other-state', 'target'],
  'event-type': [],
  signature: ['near-miss', 'handed-out', 'target', 'transition'],
  receiver: ['near-miss', 'duration-edges', 'empty'],
  error: ['error-shape', 'every-operation'],
};

// --- The rows ------------------------------------------------------------------------------------

const restated = (...clauses: ClauseId[]): Row => ({ kind: 'restated', restates: clauses });
const whole = (kind: 'informative' | 'not-shown' | 'outside' | 'no-path', rest: Reason, cells?: Row['cells']): Row => ({
  kind,
  rest,
  ...(cells ? { cells } : {}),
});

export const ROWS: Readonly<Record<ClauseId, Row>> = {
  // --- What the service does -------------------------------------------------------------------
  'SVC-1': whole('informative', INFORMATIVE),
  'SVC-2': {
    kind: 'credential',
    cells: {
      'near-miss': seeRow(
        ['ERR-CODE-INVALID-TOKEN', 'CTL-SESSION-JWT'],
        'A caller never names its workspace: it follows from the credential, whose near misses are on the credential rows.',
      ),
      connection: checked('TENANT-KEPT-ALIVE'),
      'setting-changed': seeRow(
        ['CTL-SESSION-JWT'],
        "A workspace's settings a caller changes are its identity provider and members: CTL-SESSION-JWT's row.",
      ),
      target: checked(
        'TENANT-TRANSCRIPT',
        'TENANT-AGENTS',
        'TENANT-REPLAY',
        'TENANT-CONTROL-IDS',
        'SESSION-OTHER-WORKSPACE',
        // One subject, a member of two workspaces (red team round 7).
        'SESSION-SAME-SUBJECT',
        // Another workspace's endpoint read, or its call moved, by id (round 16).
        'TENANT-CONTROL-READS',
        'REVOKE-ONE-TOKEN',
        'WS-SUSPEND-ONE-WORKSPACE',
        'HOOK-ENVELOPE',
      ),
      'every-operation': checked('TENANT-AGENTS', 'TENANT-TRANSCRIPT', 'TENANT-REPLAY', 'SESSION-OTHER-WORKSPACE'),
      'error-shape': noRule(
        "Refusing another workspace's agent or transcript is not an authentication failure: its error shape is not shown (ERR-RULE-3, whose row records what is seen).",
      ),
      transition: seeRow(['CTL-WS-SUSPEND', 'STATE-TOKEN-REVOKE'], "The workspace's transitions have their own rows."),
      // The binding ends with the workspace: the red team's round 3 delete-workspace-token-alive kept the tokens working.
      'cached-past-validity': checked('WS-DELETED-TOKENS'),
    },
  },
  'SVC-3': whole(
    'outside',
    reason(
      'not-observable',
      "HTTPS is the operator's choice of SVC_BASE_URL; that the API is JSON under /v1 is held where it is seen (AUTH-ERROR-JSON, INPUT-UNKNOWN-PATH).",
    ),
  ),
  'SVC-4': whole('informative', INFORMATIVE),
  'SVC-5': whole(
    'outside',
    reason(
      'not-observable',
      'Isolated data and the absence of real-world side effects cannot be seen from the API; calls use reserved fictional numbers.',
    ),
  ),
  'SVC-6': whole('not-shown', NOT_SHOWN),

  // --- Resources -------------------------------------------------------------------------------
  'RES-WORKSPACE': {
    kind: 'identifier',
    cells: {
      concurrent: na(
        "Workspaces are made by the control interface, the harness's seam; no rule of the public API hands out workspace ids.",
      ),
      'handed-out': checked('HOOK-ENVELOPE'),
    },
  },
  'RES-AGENT': {
    kind: 'identifier',
    cells: {
      concurrent: na('No interface creates agents.'),
      'handed-out': checked('INPUT-CALL-AGENTS-LIST', 'INPUT-CALL-PLACED'),
      'near-miss': checked('CALL-AGENT-NEAR-MISS'),
    },
  },
  'RES-CALL': {
    kind: 'identifier',
    cells: {
      concurrent: checked('CALL-PLACE-CONCURRENT'),
      'handed-out': checked('SCOPE-TRANSCRIPT-READ', 'HOOK-TRANSCRIPT-URL', 'HOOK-LIFECYCLE-COMPLETED'),
    },
  },
  'RES-LEAD': whole('no-path', NO_PATH),
  'RES-EVENT': restated('ENV-ID'),
  'RES-REQUEST': {
    kind: 'identifier',
    cells: {
      concurrent: checked('AUTH-REQUEST-ID-UNIQUE'),
      'handed-out': na("A request id correlates an error with the operator's logs; no operation of the API takes it."),
      'error-shape': seeRow(['ERR-FIELD-REQUEST-ID'], "The id in every error body: ERR-FIELD-REQUEST-ID's row."),
    },
  },
  'RES-TOKEN': {
    kind: 'identifier',
    cells: {
      concurrent: checked('TOKEN-LIMIT-CONCURRENT'),
      // The label too, "free text chosen at creation", as the creation's answer names it (red team round 8).
      'handed-out': checked(
        'AUTH-WHOAMI-ACCEPTED',
        'TOKEN-STAGING-PREFIX',
        'ROTATION-BOTH-ACTIVE',
        'TOKEN-LABEL-AS-GIVEN',
      ),
    },
  },
  'RES-ENDPOINT': restated('REG-1', 'REG-2', 'REG-3'),
  'RES-NOT-SHOWN': whole('not-shown', NOT_SHOWN),
  'CALL-FIELD-CALL-ID': restated('RES-CALL'),
  'CALL-FIELD-AGENT-ID': restated('RES-AGENT'),
  'CALL-FIELD-TO': {
    kind: 'field',
    cells: { empty: na('Required to place a call (EP-CALLS): a completed call always has one.') },
  },
  'CALL-FIELD-DURATION-SECONDS': {
    kind: 'field',
    cells: {
      // HOOK-CALL-FIELDS-PRESENT's call lasts what the automatic progress gives it; HOOK-COMPLETED-AS-REPORTED completes one with 0, the value a falsy test drops.
      empty: checked('HOOK-CALL-COMPLETED-FIELDS', 'HOOK-CALL-FIELDS-PRESENT', 'HOOK-COMPLETED-AS-REPORTED'),
      // The red team's round 2 duration-from-timestamps (the service's own clock, not the call's report) passed every check then.
      'handed-out': checked('HOOK-COMPLETED-AS-REPORTED'),
    },
  },
  'CALL-FIELD-OUTCOME': {
    kind: 'field',
    cells: { empty: checked('HOOK-CALL-COMPLETED-FIELDS') },
  },
  'CALL-FIELD-TRANSCRIPT-URL': {
    kind: 'field',
    cells: {
      empty: checked('HOOK-CALL-COMPLETED-FIELDS'),
      // HOOK-TRANSCRIPT-URL fetches the path through SVC_BASE_URL (a tunnel or proxy may announce another origin); -AS-GIVEN fetches the URL itself.
      // HOOK-TRANSCRIPT-URL places two calls one after the other: each URL names its own call.
      'handed-out': checked('HOOK-TRANSCRIPT-URL', 'HOOK-TRANSCRIPT-URL-AS-GIVEN', 'HOOK-TRANSCRIPT-URL-LASTS'),
    },
  },
  'CALL-FIELD-METADATA': {
    kind: 'field',
    cells: {
      empty: checked('HOOK-CALL-FIELDS-PRESENT', 'HOOK-CALL-COMPLETED-FIELDS', 'HOOK-METADATA-ROUNDTRIP'),
      // A value past 255 characters, kept whole or refused (round 18).
      'handed-out': checked('HOOK-METADATA-ROUNDTRIP', 'HOOK-METADATA-NESTED', 'HOOK-METADATA-LONG-VALUE'),
    },
  },

  // --- States and transitions ------------------------------------------------------------------
  'STATE-ENDPOINT-DISABLE': {
    kind: 'transition',
    cells: {
      'other-state': checked('HOOK-DISABLED-SILENT', 'HOOK-REPLAY-DISABLED', 'MODEL-ENDPOINT-HEALTH'),
      transition: checked('HOOK-REENABLE-KEEPS-ATTRIBUTES', 'MODEL-ENDPOINT-HEALTH'),
      connection: na('The service opens the connections to a receiver; no credential of a caller travels on them.'),
      repeated: na(SERVICE_MADE),
      target: checked('MODEL-ENDPOINT-HEALTH'),
      'every-operation': checked('HOOK-DISABLED-SILENT', 'HOOK-REPLAY-DISABLED'),
      concurrent: na(SERVICE_MADE),
      'receiver-answers': seeRow(['RETRY-3'], "Which answers count toward the disable: RETRY-3's row."),
      'duration-edges': seeRow(['RETRY-3'], "The 24 h: RETRY-3's row."),
      'cached-past-validity': checked('HOOK-DISABLED-SILENT', 'MODEL-ENDPOINT-HEALTH'),
    },
  },
  'STATE-ENDPOINT-REENABLE': {
    kind: 'transition',
    cells: {
      'other-state': checked('HOOK-REENABLE', 'MODEL-ENDPOINT-HEALTH'),
      // The red team's round 2 enable-keeps-failure-streak passed every check then: none let a re-enabled endpoint fail once.
      transition: checked('HOOK-REENABLE-KEEPS-ATTRIBUTES', 'MODEL-ENDPOINT-HEALTH', 'HOOK-REENABLE-FRESH-STREAK'),
      connection: na('The service opens the connections to a receiver; no credential of a caller travels on them.'),
      // A re-enable that finds the endpoint active changes nothing: no toggle, no new secret.
      repeated: checked('HOOK-ENABLE-ACTIVE-UNCHANGED'),
      target: checked('MODEL-ENDPOINT-HEALTH'),
      'every-operation': checked('HOOK-REENABLE', 'MODEL-ENDPOINT-HEALTH'),
      concurrent: noRule(
        'Whether re-enabling with 25 active is refused is not stated, so re-enables at once have no limit of their own to break (docs/method.md).',
      ),
      'cached-past-validity': checked('HOOK-REENABLE'),
    },
  },
  'STATE-ENDPOINT-FLAG': {
    kind: 'transition',
    cells: {
      'other-state': checked('HOOK-DROP-AND-FLAG'),
      transition: checked('HOOK-DROP-AND-FLAG'),
      connection: na('The service opens the connections to a receiver; no credential of a caller travels on them.'),
      repeated: na(SERVICE_MADE),
      target: na(
        "No caller names a target: the service flags the endpoint whose own attempts it counted, and HOOK-DROP-AND-FLAG reads that endpoint's flag.",
      ),
      'every-operation': na('The flag is read through the control interface only.'),
      'cached-past-validity': na('The endpoint stays active: nothing of it stops being valid.'),
      concurrent: na(SERVICE_MADE),
      'receiver-answers': because(
        reason(
          'elsewhere',
          "Each failing answer is retried on RETRY-1's row; a drop after attempts without an answer is left out (the disable's counter, and a second full schedule: docs/method.md).",
        ),
      ),
    },
  },
  'STATE-ENDPOINT-LIMIT': restated('REG-4'),
  'STATE-TOKEN-LIMIT': {
    kind: 'limit',
    cells: {
      concurrent: checked('TOKEN-LIMIT-CONCURRENT', 'TOKEN-REVOKE-CONCURRENT', 'MODEL-TOKENS-SUSPENSION'),
      repeated: checked('MODEL-TOKENS-SUSPENSION'),
      'other-state': checked('MODEL-TOKENS-SUSPENSION', 'TOKEN-LIMIT-TWO'),
      // Another workspace takes its first token while one is full (TOKEN-LIMIT-TWO); its first endpoint, HOOK-REG-LIMIT-25.
      target: checked('TOKEN-LIMIT-TWO'),
      // The refusal's status, as the contract names it (red team round 11).
      'error-shape': checked('TOKEN-LIMIT-409'),
    },
  },
  'STATE-TOKEN-REVOKE': {
    kind: 'transition',
    cells: {
      // A revoked token of a workspace suspended afterwards: still invalid_token (red team round 12).
      'other-state': checked('REVOKE-STAYS-REVOKED', 'MODEL-TOKENS-SUSPENSION', 'REVOKE-SUSPENDED-STILL-INVALID'),
      transition: checked('ROTATION-NO-DOWNTIME', 'MODEL-TOKENS-SUSPENSION'),
      connection: checked('REVOKE-PROPAGATION', 'REVOKE-STAYS-REVOKED'),
      repeated: checked('MODEL-TOKENS-SUSPENSION'),
      target: checked('REVOKE-ONE-TOKEN', 'TENANT-CONTROL-IDS', 'ROTATION-NO-DOWNTIME', 'MODEL-TOKENS-SUSPENSION'),
      'every-operation': checked('REVOKE-STAYS-REVOKED'),
      concurrent: checked('TOKEN-REVOKE-CONCURRENT', 'TOKEN-REVOKE-BOTH-AT-ONCE'),
      'error-shape': checked('REVOKE-PROPAGATION', 'REVOKE-STAYS-REVOKED'),
      'duration-edges': seeRow(['LIMIT-REVOCATION'], "The propagation bound: LIMIT-REVOCATION's row."),
      // Every backend is warmed with the token before it is revoked.
      'cached-past-validity': checked('REVOKE-PROPAGATION', 'REVOKE-STAYS-REVOKED'),
    },
  },
  'STATE-CALL': {
    kind: 'transition',
    rest: see(
      ['CTL-WS-CALL-PROGRESS'],
      "The moves between call states are not shown; the contract's call progress carries the classes (CTL-WS-CALL-PROGRESS).",
    ),
    // An ended call moved again ends no second time (red team round 7).
    cells: { 'other-state': checked('HOOK-LIFECYCLE-FAILED'), repeated: checked('HOOK-CALL-STATES-ONCE') },
  },
  'STATE-CAMPAIGN': whole('no-path', NO_PATH),

  // --- Endpoints -------------------------------------------------------------------------------
  'EP-AUTH-HEADER': {
    kind: 'credential',
    cells: {
      'near-miss': checked('AUTH-WRONG-SCHEME', 'AUTH-MALFORMED-PROPERTY', 'AUTH-MALFORMED-HEADER'),
      empty: checked('AUTH-MISSING-HEADER', 'AUTH-NO-CREDENTIAL-401'),
      connection: na("States the header's form, not a change over time."),
      'setting-changed': na("States the header's form; no setting."),
      target: na("States the header's form; no target."),
      'every-operation': checked('AUTH-MISSING-HEADER', 'REVOKE-STAYS-REVOKED', 'SCOPE-SUBSET-PROPERTY'),
      'error-shape': checked('AUTH-MISSING-HEADER', 'AUTH-MALFORMED-PROPERTY'),
      transition: na("States the header's form; no transition."),
      'cached-past-validity': na("States the header's form; the credentials it carries have their rows."),
    },
  },
  'EP-JSON': {
    kind: 'operation',
    cells: {
      'near-miss': checked('INPUT-LENIENT-PARSING'),
      concurrent: na("States the body's form; the writes are on EP-CALLS's row."),
      'other-state': na("States the body's form, whatever the state."),
      empty: checked('INPUT-MALFORMED-REQUEST', 'INPUT-MALFORMED-4XX'),
      target: na("States the body's form; no target."),
      'every-operation': na('Only POST /v1/voice/calls takes a body.'),
      'error-shape': checked('INPUT-MALFORMED-4XX', 'INPUT-ERROR-SHAPE'),
    },
  },
  'EP-AGENTS': {
    kind: 'operation',
    cells: {
      'near-miss': na('Takes no input but the credential (credential rows).'),
      concurrent: na('A read.'),
      'other-state': checked('WS-SUSPENDED-CODE', 'REVOKE-STAYS-REVOKED', 'MODEL-TOKENS-SUSPENSION'),
      empty: na('Takes no input; a workspace has at least one agent (the contract).'),
      target: checked('TENANT-AGENTS'),
      'handed-out': seeRow(['RES-AGENT'], "The agent ids it lists: RES-AGENT's row."),
      'every-operation': checked('SCOPE-AGENTS-READ', 'SCOPE-SUBSET-PROPERTY', 'SESSION-SCOPES-MATCH'),
      'error-shape': checked('SCOPE-MISSING-CODE', 'REVOKE-STAYS-REVOKED'),
    },
  },
  'EP-CALLS': {
    kind: 'operation',
    cells: {
      // INPUT-CALL-INVALID refuses an unknown agent; a loose lookup lets a near miss of a real one through, and places a real call from a typo.
      // The valid edge too: a 15-digit destination, the longest E.164 allows (red team round 10).
      'near-miss': checked('INPUT-CALL-INVALID', 'CALL-AGENT-NEAR-MISS', 'INPUT-CALL-LONGEST-NUMBER'),
      concurrent: checked('CALL-PLACE-CONCURRENT'),
      'other-state': checked('WS-SUSPENDED-CODE', 'SESSION-SUSPENDED-CODE', 'REVOKE-STAYS-REVOKED'),
      empty: checked('INPUT-CALL-INVALID', 'INPUT-MALFORMED-REQUEST'),
      target: checked('TENANT-AGENTS'),
      'handed-out': seeRow(['RES-CALL'], "The call id it hands out: RES-CALL's row."),
      'every-operation': checked('SCOPE-CALLS-WRITE', 'SCOPE-SUBSET-PROPERTY', 'SESSION-SCOPES-MATCH'),
      'error-shape': checked('SCOPE-MISSING-CODE', 'INPUT-ERROR-SHAPE'),
    },
  },
  'EP-WHOAMI': {
    kind: 'operation',
    cells: {
      'near-miss': na('Takes no input but the credential (credential rows).'),
      concurrent: na('A read.'),
      'other-state': checked('WS-SUSPENDED-CODE', 'REVOKE-PROPAGATION', 'WS-REINSTATED'),
      empty: na('Takes no input.'),
      target: na("Addresses nothing but the caller's own credential."),
      'every-operation': checked('SCOPE-WHOAMI-ANY', 'SESSION-VALID', 'AUTH-WHOAMI-ACCEPTED'),
      'error-shape': checked('AUTH-ERROR-SHAPE'),
    },
  },
  'EP-TRANSCRIPT': {
    kind: 'operation',
    cells: {
      'near-miss': noRule(
        "A near miss of a long random call id names no other call unless the lookup is loose, and a loose lookup reads only a transcript the caller may read anyway (its workspace: SVC-2's row; docs/method.md, near-miss inputs, left out).",
      ),
      concurrent: na('A read.'),
      'other-state': checked('REVOKE-STAYS-REVOKED', 'WS-SUSPENDED-CODE', 'SESSION-SUSPENDED-CODE'),
      empty: na('Takes no input but the call id in its path.'),
      target: checked('TENANT-TRANSCRIPT'),
      'every-operation': checked('SCOPE-TRANSCRIPT-READ'),
      'error-shape': checked('SCOPE-MISSING-CODE', 'REVOKE-STAYS-REVOKED'),
    },
  },
  'EP-STAGING': whole(
    'outside',
    reason('not-observable', 'A run targets one host; comparing it with production needs a production target.'),
  ),
  'EP-RECEIVER': restated('EVT-DELIVERY'),
  'EP-RECEIVER-ACK': {
    kind: 'delivery',
    cells: {
      // A retry's 2xx acknowledges too (red team round 15).
      'receiver-answers': checked(
        'HOOK-ACK-ANY-2XX',
        'HOOK-RETRY-ACK-ENDS',
        'HOOK-RETRY-ON-3XX',
        'HOOK-RETRY-ON-4XX',
        'HOOK-RETRY-ON-5XX',
        'HOOK-RETRY-ON-RESET',
        'HOOK-RETRY-ON-TIMEOUT',
      ),
      'other-state': seeRow(['STATE-ENDPOINT-DISABLE'], 'A disabled endpoint gets nothing to acknowledge.'),
      target: seeRow(['REG-3'], "Which endpoint a delivery reaches: REG-3's row."),
    },
  },
  'EP-NOT-SHOWN-RESPONSES': whole('not-shown', NOT_SHOWN, { 'handed-out': checked('INPUT-RESPONSE-SHAPES') }),
  'EP-NOT-SHOWN-TRANSCRIPT': whole('not-shown', NOT_SHOWN),
  'EP-NOT-SHOWN-MAILER': whole('not-shown', NOT_SHOWN),
  'EP-NOT-SHOWN-LISTS': whole('not-shown', NOT_SHOWN),

  // --- Authentication ----------------------------------------------------------------------------
  'AUTH-SCHEMES': {
    kind: 'credential',
    cells: {
      'near-miss': checked('AUTH-WRONG-SCHEME'),
      connection: seeRow(['STATE-TOKEN-REVOKE', 'CTL-SESSION-JWT'], "Each scheme's connection cell is on its row."),
      'setting-changed': seeRow(['CTL-SESSION-JWT'], "The identity provider settings: CTL-SESSION-JWT's row."),
      target: seeRow(['SVC-2'], "Workspace isolation under both schemes: SVC-2's row."),
      'every-operation': checked('SESSION-SCOPES-MATCH', 'SESSION-SUSPENDED-CODE', 'SESSION-CALL-AS-BEARER'),
      'error-shape': seeRow(['ERR-SHAPE'], 'Refusals under either scheme: the error rows.'),
      transition: checked('SESSION-SUSPENDED-CODE'),
      'cached-past-validity': seeRow(
        ['STATE-TOKEN-REVOKE', 'CTL-SESSION-JWT'],
        "Each scheme's end of validity (revocation, expiry) is on its row.",
      ),
    },
  },
  'AUTH-SCHEME-BEARER': whole('outside', OUTSIDE),
  'AUTH-SCHEME-SESSION': restated('LIMIT-SESSION-LIFETIME'),
  'AUTH-TOKEN-1': restated('SVC-2'),
  'AUTH-TOKEN-2': restated('RES-TOKEN'),
  'AUTH-TOKEN-3': whole(
    'outside',
    reason('not-observable', 'Happens once a day against public code hosting, outside the API.'),
  ),
  'AUTH-TOKEN-4': {
    kind: 'scope',
    cells: {
      'near-miss': noRule(
        'What token creation does with a name that is not one of the five scopes (refused, dropped, read loosely) is not stated; read loosely, it grants only a scope the caller could have asked for.',
      ),
      empty: checked('TOKEN-DEFAULT-SCOPES', 'TOKEN-EMPTY-SCOPES'),
      // A scope asked for that the workspace is not licensed for (red team round 15), for a token and
      // for a member (the auth module's mutation run).
      target: checked('TOKEN-UNLICENSED-SCOPE', 'SESSION-UNLICENSED-SCOPE'),
      transition: checked('MODEL-TOKENS-SUSPENSION'),
      'every-operation': checked('SCOPE-SUBSET-PROPERTY'),
    },
  },
  'AUTH-SCOPE-VOICE-READ': {
    kind: 'scope',
    cells: {
      empty: seeRow(['AUTH-TOKEN-4'], "Empty and absent scope lists: AUTH-TOKEN-4's row."),
      transition: seeRow(['AUTH-TOKEN-4'], "Scopes across suspension: AUTH-TOKEN-4's row."),
      'every-operation': checked('SCOPE-AGENTS-READ', 'SCOPE-TRANSCRIPT-READ', 'SESSION-SCOPES-MATCH'),
      // Two tokens on one kept-alive connection: a scope check remembered by the connection (red team round 6).
      connection: checked('SCOPE-KEPT-ALIVE'),
    },
  },
  'AUTH-SCOPE-VOICE-WRITE': {
    kind: 'scope',
    cells: {
      empty: seeRow(['AUTH-TOKEN-4'], "Empty and absent scope lists: AUTH-TOKEN-4's row."),
      transition: seeRow(['AUTH-TOKEN-4'], "Scopes across suspension: AUTH-TOKEN-4's row."),
      'every-operation': checked('SCOPE-CALLS-WRITE', 'SESSION-SCOPES-MATCH'),
    },
  },
  'AUTH-SCOPE-MAILER-READ': whole('no-path', NO_PATH),
  'AUTH-SCOPE-MAILER-WRITE': whole('no-path', NO_PATH),
  'AUTH-SCOPE-WEBHOOKS-WRITE': whole('no-path', NO_PATH),
  'AUTH-SESSION-1': restated('CTL-SESSION-JWT'),
  'AUTH-SESSION-2': restated('CTL-SESSION-JWT'),
  'AUTH-SESSION-3': whole('not-shown', NOT_SHOWN),
  'AUTH-ROT-1': restated('STATE-TOKEN-LIMIT'),
  'AUTH-ROT-2': {
    kind: 'transition',
    cells: {
      'other-state': seeRow(['STATE-TOKEN-REVOKE'], "The old token after the procedure: STATE-TOKEN-REVOKE's row."),
      transition: checked('ROTATION-NO-DOWNTIME', 'ROTATION-DEPLOY-PHASE'),
      connection: checked('ROTATION-BOTH-ACTIVE', 'ROTATION-DEPLOY-PHASE', 'ROTATION-NO-DOWNTIME'),
      repeated: na('A procedure of three steps, each on its own row.'),
      target: checked('ROTATION-NO-DOWNTIME'),
      'every-operation': checked('ROTATION-DEPLOY-PHASE', 'ROTATION-NO-DOWNTIME'),
      concurrent: seeRow(['STATE-TOKEN-LIMIT'], "Creations at once: STATE-TOKEN-LIMIT's row."),
      'cached-past-validity': seeRow(
        ['STATE-TOKEN-REVOKE'],
        "The old token after its revocation: STATE-TOKEN-REVOKE's row.",
      ),
    },
  },
  'AUTH-ROT-3': restated('STATE-TOKEN-REVOKE'),

  // --- Events --------------------------------------------------------------------------------------
  'EVT-DELIVERY': {
    kind: 'delivery',
    cells: {
      'receiver-answers': seeRow(['EP-RECEIVER-ACK', 'RETRY-1'], 'What each answer does: those rows.'),
      'other-state': checked('HOOK-DISABLED-SILENT', 'HOOK-DELETED-SILENT', 'WS-DELETED-NO-DELIVERIES'),
      // The red team's endpoint-deleted-still-delivered: a subscriber list that outlives the deletion;
      // round 12's retry timers that outlive a workspace's deletion.
      'cached-past-validity': checked('HOOK-DELETED-SILENT', 'HOOK-DISABLED-SILENT', 'WS-DELETED-NO-DELIVERIES'),
      concurrent: checked('EVENT-FIRE-CONCURRENT'),
      target: checked('HOOK-SUBSCRIPTION-FILTER', 'HOOK-OWN-SECRET', 'MODEL-ENDPOINTS'),
      'handed-out': checked('HOOK-DELIVERY-POST', 'HOOK-CONTENT-TYPE', 'HOOK-URL-QUERY-KEPT'),
    },
  },
  'REG-1': {
    kind: 'registration',
    cells: {
      // The accepting side of a near miss too: HTTPS:// in capitals (red team round 11).
      'near-miss': checked('HOOK-REG-LOCALHOST', 'HOOK-REG-HTTPS-ONLY', 'HOOK-REG-SCHEME-CASE'),
      concurrent: na('A rule on each URL alone: nothing shared between creations.'),
      empty: na('A URL is the endpoint: without one there is nothing to register (refused or not, no rule states it).'),
      transition: checked('HOOK-REENABLE-KEEPS-ATTRIBUTES'),
      target: na('Refusing a URL addresses no other endpoint.'),
      'handed-out': na("The URL is the caller's, not handed out."),
    },
  },
  'REG-2': {
    kind: 'registration',
    cells: {
      'near-miss': seeRow(['SIG-1', 'SIG-4'], 'Receivers compare signatures: the signature rows.'),
      concurrent: checked('HOOK-SECRETS-DISTINCT-CONCURRENT'),
      // A deleted endpoint's URL registered again: a new endpoint, with a secret of its own.
      repeated: checked('HOOK-RECREATED-OWN-SECRET'),
      'other-state': checked('HOOK-RECREATED-OWN-SECRET'),
      empty: na('The service makes the secret; the caller gives none.'),
      transition: checked('HOOK-REENABLE-KEEPS-ATTRIBUTES'),
      // A deletion by id leaves another endpoint at the same URL (red team round 5); another
      // workspace's endpoint at the same URL signs with its own secret (round 10); two of one
      // workspace at one URL each get the event (round 18).
      target: checked(
        'HOOK-OWN-SECRET',
        'HOOK-DELETE-ONE-ENDPOINT',
        'TENANT-SAME-URL-OWN-SECRET',
        'HOOK-SAME-URL-EACH-ENDPOINT',
      ),
      'handed-out': checked('HOOK-OWN-SECRET', 'HOOK-SIGNATURE-RAW-BODY'),
    },
  },
  'REG-3': {
    kind: 'registration',
    cells: {
      // A near-miss type name at registration is no event type: refused, or read loosely as a type the caller could have named (docs/method.md); the family match is the near miss that reaches deliveries.
      // HOOK-REG-UNKNOWN-EVENT-TYPE records which (the endpoints module's mutation run).
      'near-miss': checked('HOOK-SUBSCRIPTION-FILTER', 'HOOK-REG-UNKNOWN-EVENT-TYPE'),
      concurrent: na("A subscription is each endpoint's own: nothing unique across creations."),
      empty: checked('HOOK-REG-EMPTY-EVENTS'),
      transition: checked('HOOK-REENABLE-KEEPS-ATTRIBUTES', 'MODEL-ENDPOINT-HEALTH'),
      target: checked('HOOK-SUBSCRIPTION-FILTER', 'HOOK-SUBSCRIPTION-WILDCARD', 'MODEL-ENDPOINTS'),
      // A type named twice in one subscription (* and the type): one delivery per event (red team round 7).
      repeated: checked('HOOK-ONE-DELIVERY-PER-EVENT'),
      // The wildcard read back as given, not expanded (red team round 14).
      'handed-out': checked('HOOK-REENABLE-KEEPS-ATTRIBUTES', 'HOOK-WILDCARD-READ-BACK'),
    },
  },
  'REG-4': {
    kind: 'limit',
    cells: {
      concurrent: checked('HOOK-REG-LIMIT-CONCURRENT', 'MODEL-ENDPOINTS'),
      repeated: checked('MODEL-ENDPOINTS'),
      'other-state': checked('MODEL-ENDPOINT-HEALTH', 'MODEL-ENDPOINTS', 'HOOK-REG-LIMIT-25'),
      target: checked('HOOK-REG-LIMIT-25'),
    },
  },
  'ENV-ID': {
    kind: 'identifier',
    cells: {
      concurrent: checked('EVENT-FIRE-CONCURRENT', 'CALL-PLACE-CONCURRENT'),
      'handed-out': checked('HOOK-FIRED-EVENT-ID', 'HOOK-REPLAY-SAME-ID', 'HOOK-ENVELOPE'),
      repeated: seeRow(['RETRY-4'], "Unchanged on replay: RETRY-4's row."),
    },
  },
  // A type the spec does not list, fired through the control interface (round 16).
  'ENV-TYPE': { kind: 'field', cells: { empty: checked('HOOK-ENVELOPE'), 'near-miss': checked('HOOK-UNLISTED-TYPE') } },
  // Each call event's own time, not the call's placement (round 18).
  'ENV-CREATED-AT': {
    kind: 'field',
    cells: { empty: checked('HOOK-ENVELOPE'), 'handed-out': checked('HOOK-CREATED-AT-WHEN-HAPPENED') },
  },
  'ENV-WORKSPACE-ID': restated('RES-WORKSPACE'),
  'ENV-API-VERSION': { kind: 'field', cells: { empty: checked('HOOK-ENVELOPE') } },
  'ENV-DATA': { kind: 'field', cells: { empty: checked('HOOK-ENVELOPE') } },
  'TYPE-VOICE-CALL-QUEUED': { kind: 'event-type' },
  'TYPE-VOICE-CALL-STARTED': { kind: 'event-type' },
  'TYPE-VOICE-CALL-COMPLETED': {
    kind: 'event-type',
    cells: { empty: checked('HOOK-CALL-FIELDS-PRESENT', 'HOOK-CALL-COMPLETED-FIELDS') },
  },
  'TYPE-VOICE-CALL-FAILED': { kind: 'event-type' },
  'TYPE-MAILER-EMAIL-SENT': { kind: 'event-type' },
  'TYPE-MAILER-REPLY-RECEIVED': { kind: 'event-type' },
  'TYPE-MAILER-CAMPAIGN-COMPLETED': { kind: 'event-type' },
  'TYPE-WORKSPACE-PLAN-UPGRADED': { kind: 'event-type' },
  'SIG-1': {
    kind: 'signature',
    cells: {
      'near-miss': checked(
        'RCV-REJECT-UPPERCASE-HEX',
        'RCV-REJECT-BASE64',
        'RCV-REJECT-TRUNCATED',
        'RCV-REJECT-OVERLONG',
        'RCV-REJECT-OTHER-SECRET',
        'RCV-REJECT-TAMPERED-BODY',
      ),
      'handed-out': checked('HOOK-SIGNATURE-RAW-BODY'),
      target: checked('HOOK-OWN-SECRET'),
      transition: checked('HOOK-REENABLE-KEEPS-ATTRIBUTES'),
      repeated: checked('HOOK-REPLAY-FRESH'),
    },
  },
  'SIG-2': {
    kind: 'signature',
    cells: {
      'near-miss': seeRow(['SIG-3'], "Receivers read the timestamp: SIG-3's row."),
      'handed-out': checked('HOOK-TIMESTAMP-DELIVERY-TIME', 'HOOK-TIMESTAMP-CLOCK-OFFSET', 'HOOK-TIMESTAMP-CLOCK-SYNC'),
      target: na("Each delivery's own time."),
      transition: na('The delivery time, not an attribute of the endpoint.'),
      repeated: checked('HOOK-TIMESTAMP-PER-ATTEMPT', 'HOOK-REPLAY-FRESH'),
      'duration-edges': seeRow(['SIG-3'], "The 300 s window: SIG-3's row."),
    },
  },
  'SIG-3': {
    kind: 'receiver',
    cells: {
      'near-miss': checked(
        'RCV-REJECT-TIMESTAMP-LENIENT',
        'RCV-REJECT-TIMESTAMP-MILLISECONDS',
        'RCV-REJECT-TIMESTAMP-NON-NUMERIC',
        'RCV-REJECT-TIMESTAMP-DOT-BODY',
      ),
      'duration-edges': checked(
        'RCV-REJECT-TIMESTAMP-PAST-301',
        'RCV-REJECT-TIMESTAMP-FUTURE-301',
        'RCV-ACCEPT-TIMESTAMP-PAST-299',
        'RCV-ACCEPT-TIMESTAMP-FUTURE-299',
        'HOOK-TIMESTAMP-CLOCK-OFFSET',
      ),
      empty: checked('RCV-REJECT-TIMESTAMP-MISSING'),
      'handed-out': checked('HOOK-TIMESTAMP-NOT-SIGNED'),
    },
  },
  'SIG-4': {
    kind: 'receiver',
    cells: {
      'near-miss': checked(
        'RCV-REJECT-WRONG-SIGNATURE',
        'RCV-REJECT-TRUNCATED',
        'RCV-REJECT-OVERLONG',
        'RCV-REJECT-UPPERCASE-HEX',
        'RCV-REJECT-BASE64',
        'RCV-TIMING-CONSTANT-TIME',
      ),
      'duration-edges': na("States no duration (the timing probe is the near-miss cell's)."),
      empty: checked('RCV-REJECT-EMPTY-SIGNATURE', 'RCV-REJECT-MISSING-SIGNATURE'),
      'receiver-answers': checked('RCV-STATUS-CODES', 'RCV-STATUS-REJECT-401', 'RCV-STATUS-SUCCESS-204'),
    },
  },
  'SIG-5': {
    kind: 'signature',
    cells: {
      'near-miss': checked('RCV-REJECT-RESERIALIZED-SIGNATURE', 'RCV-ACCEPT-RAW-BODIES'),
      'handed-out': checked('HOOK-SIGNATURE-RAW-BODY'),
      target: na('The body of each delivery.'),
      transition: na('The body of each delivery.'),
    },
  },
  'RETRY-1': {
    kind: 'delivery',
    cells: {
      'receiver-answers': checked(
        'HOOK-ACK-ANY-2XX',
        'HOOK-RETRY-ON-3XX',
        'HOOK-RETRY-ON-4XX',
        'HOOK-RETRY-ON-429',
        'HOOK-RETRY-ON-5XX',
        'HOOK-RETRY-ON-RESET',
        'HOOK-RETRY-ON-TIMEOUT',
        'HOOK-SLOW-ACK-OK',
      ),
      'other-state': seeRow(
        ['STATE-ENDPOINT-DISABLE', 'EVT-DELIVERY'],
        'Retries to a disabled or deleted endpoint: those rows.',
      ),
      target: checked('HOOK-RETRY-TARGET'),
      'duration-edges': seeRow(['LIMIT-RECEIVER-TIMEOUT'], "The 30 s: LIMIT-RECEIVER-TIMEOUT's row."),
    },
  },
  'RETRY-2': {
    kind: 'duration',
    cells: {
      'duration-edges': checked(
        'HOOK-RETRY-EARLY-SCHEDULE',
        'HOOK-RETRY-FULL-SCHEDULE',
        'HOOK-RETRY-REAL-TIME',
        'HOOK-DROP-AND-FLAG',
      ),
      // A 429 without Retry-After retried on the schedule, not sooner (red team round 10); a 503 with
      // Retry-After: 0 too (round 16).
      'receiver-answers': checked(
        'HOOK-RETRY-ON-3XX',
        'HOOK-RETRY-ON-4XX',
        'HOOK-RETRY-ON-429',
        'HOOK-RETRY-ON-5XX',
        'HOOK-RETRY-ON-RESET',
        'HOOK-RETRY-AFTER-IGNORED',
      ),
      // A retry is the same event again: its envelope unchanged, created_at included (round 16).
      repeated: checked('HOOK-RETRY-SAME-EVENT'),
      target: seeRow(['RETRY-1'], "Which endpoint a retry reaches: RETRY-1's row."),
    },
  },
  'RETRY-3': {
    kind: 'duration',
    cells: {
      // HOOK-AUTO-DISABLE-FROM-FIRST-FAILURE: the period's start, after a quiet 12 h (round 3's auto-disable-from-last-success).
      'duration-edges': checked(
        'HOOK-AUTO-DISABLE',
        'HOOK-AUTO-DISABLE-NO-ANSWER',
        'HOOK-AUTO-DISABLE-FROM-FIRST-FAILURE',
      ),
      // A success ends the streak: the full schedule's acknowledged fillers keep its endpoint active.
      'receiver-answers': checked('HOOK-AUTO-DISABLE', 'HOOK-AUTO-DISABLE-NO-ANSWER', 'HOOK-RETRY-FULL-SCHEDULE'),
    },
  },
  'RETRY-4': {
    kind: 'delivery',
    cells: {
      'receiver-answers': noRule(
        "Whether a replay that fails is retried is not stated: the dashboard's replay is one more delivery of a dropped one.",
      ),
      'other-state': checked('HOOK-REPLAY-DISABLED', 'HOOK-DELETED-SILENT'),
      target: checked('HOOK-REPLAY-ONE-ENDPOINT', 'TENANT-REPLAY', 'HOOK-REPLAY-OTHER-ENDPOINT-SIGNED'),
      'handed-out': checked(
        'HOOK-REPLAY-SAME-ID',
        'HOOK-REPLAY-FRESH',
        'RCV-REPLAY-ACKNOWLEDGED',
        'RCV-REPLAY-PROCESSED-ONCE',
      ),
      // Replayed twice: the second accepted replay is sent too (red team round 7).
      repeated: checked('HOOK-REPLAY-SAME-ID', 'HOOK-REPLAY-FRESH', 'RCV-REPLAY-PROCESSED-ONCE'),
      // Every delivery, the call events the service emits by itself included (red team round 5).
      'every-operation': checked('HOOK-REPLAY-CALL-EVENT'),
      concurrent: noRule(
        'Each replay is a delivery of the same id; receivers are idempotent on it and no bound on replays is stated (docs/method.md).',
      ),
    },
  },
  'RETRY-5': whole('not-shown', NOT_SHOWN),

  // --- Errors ----------------------------------------------------------------------------------------
  'ERR-SHAPE': {
    kind: 'error',
    cells: {
      'error-shape': checked(
        'AUTH-ERROR-SHAPE',
        'AUTH-MISSING-HEADER',
        'AUTH-MALFORMED-PROPERTY',
        'AUTH-ERROR-JSON',
        'SCOPE-MISSING-CODE',
        'WS-SUSPENDED-CODE',
        'REVOKE-PROPAGATION',
        'SESSION-MUTATION-PROPERTY',
        // The refused token not handed back in the answer (round 17).
        'AUTH-ERROR-NO-TOKEN-ECHO',
      ),
      'every-operation': checked('REVOKE-STAYS-REVOKED', 'SCOPE-SUBSET-PROPERTY'),
    },
  },
  'ERR-FIELD-CODE': {
    kind: 'error',
    cells: {
      'error-shape': checked('AUTH-ERROR-SHAPE'),
      'every-operation': seeRow(['ERR-SHAPE'], "The shape on every operation: ERR-SHAPE's row."),
    },
  },
  'ERR-FIELD-MESSAGE': {
    kind: 'error',
    cells: {
      'error-shape': checked('AUTH-ERROR-SHAPE', 'AUTH-ERROR-MESSAGE'),
      'every-operation': seeRow(['ERR-SHAPE'], "The shape on every operation: ERR-SHAPE's row."),
    },
  },
  'ERR-FIELD-REQUEST-ID': {
    kind: 'error',
    cells: {
      'error-shape': checked('AUTH-ERROR-SHAPE', 'AUTH-REQUEST-ID-UNIQUE'),
      'every-operation': seeRow(['ERR-SHAPE'], "The shape on every operation: ERR-SHAPE's row."),
      concurrent: seeRow(['RES-REQUEST'], "Distinct request ids: RES-REQUEST's row."),
    },
  },
  'ERR-CODE-INVALID-TOKEN': {
    kind: 'credential',
    cells: {
      'near-miss': checked(
        'AUTH-NEAR-MISS-TOKEN',
        'AUTH-UNKNOWN-TOKEN',
        'AUTH-MALFORMED-HEADER',
        'AUTH-MALFORMED-PROPERTY',
        'AUTH-LONG-TOKEN',
      ),
      connection: checked('REVOKE-PROPAGATION', 'REVOKE-STAYS-REVOKED'),
      'setting-changed': seeRow(
        ['CTL-SESSION-JWT'],
        "A bearer token has no setting; the identity provider's: CTL-SESSION-JWT's row.",
      ),
      target: seeRow(['SVC-2'], "Another workspace's credential: SVC-2's row."),
      'every-operation': checked('REVOKE-STAYS-REVOKED'),
      'error-shape': checked('AUTH-ERROR-SHAPE', 'AUTH-MALFORMED-PROPERTY', 'AUTH-UNKNOWN-TOKEN'),
      transition: seeRow(['STATE-TOKEN-REVOKE'], "Revocation: STATE-TOKEN-REVOKE's row."),
      'cached-past-validity': seeRow(
        ['STATE-TOKEN-REVOKE', 'CTL-SESSION-JWT'],
        '"Expired or revoked": the revocation and session rows.',
      ),
    },
  },
  'ERR-CODE-MISSING-SCOPE': {
    kind: 'error',
    cells: {
      'error-shape': checked('SCOPE-MISSING-CODE', 'SCOPE-MISSING-STATUS'),
      'every-operation': checked(
        'SCOPE-SUBSET-PROPERTY',
        'SCOPE-MISSING-CODE',
        'SESSION-SCOPES-MATCH',
        'TOKEN-EMPTY-SCOPES',
        'SESSION-MEMBER-EMPTY-SCOPES',
      ),
    },
  },
  'ERR-CODE-WORKSPACE-DISABLED': {
    kind: 'error',
    cells: {
      'error-shape': checked('WS-SUSPENDED-CODE', 'WS-DISABLED-STATUS'),
      'every-operation': checked('WS-SUSPENDED-CODE', 'SESSION-SUSPENDED-CODE', 'MODEL-TOKENS-SUSPENSION'),
    },
  },
  'ERR-RULE-1': whole(
    'outside',
    reason(
      'not-observable',
      "A rule for the harness itself: no check relies on error.message's words; AUTH-ERROR-MESSAGE asks only that it has some, AUTH-ERROR-NO-TOKEN-ECHO that it carries no token.",
    ),
  ),
  'ERR-RULE-2': restated('STATE-TOKEN-REVOKE'),
  'ERR-RULE-3': whole('not-shown', NOT_SHOWN, { 'error-shape': checked('INPUT-ERROR-SHAPE') }),

  // --- Limits --------------------------------------------------------------------------------------
  'LIMIT-ENDPOINTS': restated('REG-4'),
  'LIMIT-TOKENS': restated('STATE-TOKEN-LIMIT'),
  'LIMIT-ROTATION': whole(
    'outside',
    reason('not-observable', 'A recommendation to operators; nothing the service does shows it.'),
  ),
  'LIMIT-SESSION-LIFETIME': {
    kind: 'duration',
    cells: {
      'duration-edges': checked(
        'SESSION-VALIDITY-EDGES',
        'SESSION-EXPIRED',
        'SESSION-LIFETIME-61S',
        'SESSION-NO-EXP',
        'SESSION-NBF-FUTURE',
      ),
    },
  },
  'LIMIT-RECEIVER-TIMEOUT': {
    kind: 'duration',
    cells: {
      'duration-edges': checked('HOOK-TIMEOUT-30S', 'HOOK-SLOW-ACK-OK', 'HOOK-RETRY-ON-TIMEOUT'),
      // A 2xx whose body ends after the time-out: read either way (HOOK-ACK-BODY-LATE records it).
      'receiver-answers': checked(
        'HOOK-RETRY-ON-TIMEOUT',
        'HOOK-RETRY-ON-RESET',
        'RCV-ACK-LATENCY',
        'HOOK-ACK-BODY-LATE',
      ),
    },
  },
  'LIMIT-TIMESTAMP-TOLERANCE': restated('SIG-3'),
  'LIMIT-DELIVERY-ATTEMPTS': restated('RETRY-2'),
  'LIMIT-AUTO-DISABLE': restated('RETRY-3'),
  'LIMIT-REVOCATION': {
    kind: 'duration',
    cells: {
      'duration-edges': checked('REVOKE-PROPAGATION', 'MODEL-TOKENS-SUSPENSION'),
      connection: checked('REVOKE-PROPAGATION'),
    },
  },
  'LIMIT-NOT-SHOWN': whole('not-shown', NOT_SHOWN, {
    empty: checked('INPUT-LENIENT-PARSING', 'INPUT-MALFORMED-REQUEST'),
  }),

  // --- Versioning ------------------------------------------------------------------------------------
  'VER-1': restated('SVC-3'),
  'VER-2': restated('ENV-API-VERSION'),
  'VER-3': whole(
    'outside',
    reason('not-observable', 'Stability across versions needs two versions; report:diff of two runs shows a change.'),
  ),
  'VER-4': whole('not-shown', NOT_SHOWN),

  // --- The control contract --------------------------------------------------------------------------
  'CTL-AUTH': {
    kind: 'credential',
    cells: {
      'near-miss': checked('AUTH-CONTROL-NEAR-MISS'),
      empty: checked('AUTH-CONTROL-NEAR-MISS'),
      connection: na('The control token is fixed for the run: nothing about it changes over time.'),
      'setting-changed': na("The control token is the operator's, fixed for the run (SVC_CONTROL_TOKEN)."),
      target: na('One token for the whole control interface: no target to tell apart.'),
      // /capabilities alone is tried; a route that skips the check lets anyone mint tokens and endpoints.
      'every-operation': checked('AUTH-CONTROL-NEAR-MISS'),
      'error-shape': na('The contract asks only for the 401; its error body is information only.'),
      transition: na('The control token has no states.'),
      'cached-past-validity': na('The control token never stops being valid during a run.'),
    },
  },
  'CTL-WS-SUSPEND': {
    kind: 'transition',
    cells: {
      // The dashboard's other operations on a suspended workspace leave it suspended (round 20).
      'other-state': checked('WS-SUSPENDED-CODE', 'MODEL-TOKENS-SUSPENSION', 'WS-SUSPENSION-HOLDS'),
      transition: checked('MODEL-TOKENS-SUSPENSION', 'SESSION-SUSPENDED-CODE'),
      connection: checked('MODEL-TOKENS-SUSPENSION', 'SESSION-SUSPENDED-CODE'),
      repeated: checked('MODEL-TOKENS-SUSPENSION'),
      target: checked('WS-SUSPEND-ONE-WORKSPACE'),
      // A narrowed token's request it lacks the scope for: workspace_disabled still (red team round 13).
      'every-operation': checked(
        'WS-SUSPENDED-CODE',
        'SESSION-SUSPENDED-CODE',
        'MODEL-TOKENS-SUSPENSION',
        'WS-SUSPENDED-BEFORE-SCOPE',
      ),
      concurrent: noRule(
        'A suspension hands out nothing and counts against no limit; the same suspension at once has nothing to keep unique.',
      ),
      'cached-past-validity': checked('SESSION-SUSPENDED-CODE', 'MODEL-TOKENS-SUSPENSION'),
    },
  },
  'CTL-WS-REINSTATE': {
    kind: 'transition',
    cells: {
      'other-state': checked('WS-REINSTATED', 'MODEL-TOKENS-SUSPENSION'),
      transition: checked('MODEL-TOKENS-SUSPENSION', 'SESSION-SUSPENDED-CODE', 'WS-REINSTATED-KEEPS-SETTINGS'),
      connection: checked('MODEL-TOKENS-SUSPENSION'),
      // A reinstatement that finds the workspace active leaves it active.
      repeated: checked('WS-REINSTATED'),
      target: checked('WS-SUSPEND-ONE-WORKSPACE'),
      // Every control operation's success status, as the contract names it.
      'every-operation': checked('WS-REINSTATED', 'CTL-SUCCESS-STATUSES'),
      concurrent: noRule('A reinstatement hands out nothing and counts against no limit.'),
      'cached-past-validity': checked('WS-REINSTATED', 'MODEL-TOKENS-SUSPENSION'),
    },
  },
  'CTL-WS-CALL-PROGRESS': {
    kind: 'transition',
    cells: {
      'other-state': checked('HOOK-LIFECYCLE-FAILED'),
      transition: checked('HOOK-LIFECYCLE-COMPLETED', 'HOOK-CALL-COMPLETED-FIELDS', 'HOOK-METADATA-ROUNDTRIP'),
      connection: na('Moves calls; no credential involved.'),
      // A should: which moves exist is not shown (STATE-CALL), but a state is reached once.
      repeated: checked('HOOK-CALL-STATES-ONCE'),
      target: checked('HOOK-PROGRESS-ONE-CALL'),
      'every-operation': na('One operation (progress) beside the automatic mode.'),
      concurrent: checked('CALL-PLACE-CONCURRENT'),
      'duration-edges': checked('CALL-AUTO-PROGRESS-2S'),
      'cached-past-validity': na('Moves a call; no credential or subscription stops being valid.'),
    },
  },
  'CTL-TOKEN-LIMIT': restated('STATE-TOKEN-LIMIT'),
  'CTL-TOKEN-REVOKE': restated('STATE-TOKEN-REVOKE'),
  'CTL-SESSION-JWT': {
    kind: 'credential',
    cells: {
      'near-miss': checked(
        'SESSION-WRONG-ISSUER',
        'SESSION-WRONG-AUDIENCE',
        'SESSION-NOT-MEMBER',
        'SESSION-UNKNOWN-KID',
        'SESSION-MUTATION-PROPERTY',
        'SESSION-KID-INJECTION',
        // Forged tokens that pass for the real thing with a verifier that trusts the token's own header.
        'SESSION-TAMPERED',
        'SESSION-FOREIGN-KEY',
        'SESSION-ALG-NONE',
        'SESSION-HS256-CONFUSION',
        'SESSION-EMBEDDED-JWK',
        'SESSION-JKU-INJECTION',
        'SESSION-PSYCHIC-SIGNATURE',
        'SESSION-CRIT-UNKNOWN',
        'SESSION-DUPLICATE-CLAIMS',
        // A claim that is none of the conditions (iat ahead): no reason to refuse (red team round 9);
        // a lifetime past 60 s, still within exp (round 11); dates with fractions (round 15); no typ
        // in the header (round 18).
        'SESSION-IAT-AHEAD',
        'SESSION-LONG-LIFETIME',
        'SESSION-FRACTIONAL-DATES',
        'SESSION-TYP-OPTIONAL',
      ),
      // The used token is presented again past its exp on a kept-alive and on a fresh connection.
      connection: checked('SESSION-EXPIRES-AFTER-USE'),
      'setting-changed': checked('SESSION-PROVIDER-CHANGED', 'SESSION-MEMBER-RESCOPED', 'SESSION-KEY-ROTATION'),
      target: checked('SESSION-OTHER-WORKSPACE', 'SESSION-SAME-SUBJECT'),
      // Members added at once (red team round 5: a lost update keeps one).
      concurrent: checked('SESSION-MEMBERS-AT-ONCE'),
      // The scopes come from the member record on every operation, whatever scope claim the JWT carries.
      // SESSION-ES256: every signature algorithm the provider may use, not only RS256.
      'every-operation': checked(
        'SESSION-SCOPES-MATCH',
        'SESSION-SUSPENDED-CODE',
        'SESSION-SCOPE-CLAIM-IGNORED',
        'SESSION-ES256',
      ),
      'error-shape': checked('SESSION-MUTATION-PROPERTY', 'SESSION-WRONG-ISSUER', 'SESSION-EXPIRED'),
      transition: checked('SESSION-SUSPENDED-CODE'),
      // SESSION-JWKS-UNAVAILABLE: no key set to be had (a 404, a page that is not a JWKS).
      // SESSION-NO-IAT: a claim that is none of the conditions, absent (red team round 11).
      // A header parameter that only helps find the key, absent: SESSION-NO-KID (round 12), and with
      // several keys of the algorithm listed (the auth module's mutation run).
      empty: checked(
        'SESSION-MEMBER-EMPTY-SCOPES',
        'SESSION-NO-EXP',
        'SESSION-JWKS-UNAVAILABLE',
        'SESSION-NO-IAT',
        'SESSION-NO-KID',
        'SESSION-NO-KID-SEVERAL-KEYS',
      ),
      'cached-past-validity': checked(
        'SESSION-EXPIRES-AFTER-USE',
        'SESSION-KEY-ROTATION',
        'SESSION-PROVIDER-CHANGED',
        'SESSION-LIFETIME-61S',
      ),
    },
  },
  // The read-back of an endpoint: every field the contract shows, flagged false as well as true (round 16).
  // The creation's answer read as sent: its scopes are the token's (round 18 answered the licensed
  // ones), its token_id a string (round 21 answered a number).
  'CTL-TOKEN-CREATE': {
    kind: 'field',
    cells: { empty: checked('TOKEN-ANSWER-SCOPES', 'CTL-CREATE-ANSWER-FIELDS') },
  },
  // The creation answers read as sent, every field of the contract's shape (round 21).
  'CTL-HOOK-CREATE': { kind: 'field', cells: { empty: checked('CTL-CREATE-ANSWER-FIELDS') } },
  'CTL-SESSION-MEMBER': { kind: 'field', cells: { empty: checked('CTL-CREATE-ANSWER-FIELDS') } },
  'CTL-HOOK-READ': {
    kind: 'field',
    cells: { empty: checked('CTL-ENDPOINT-READ-FIELDS') },
  },
  'CTL-HOOK-SECRET': {
    kind: 'signature',
    cells: {
      'near-miss': seeRow(['SIG-1'], "Receivers compare signatures: SIG-1's row."),
      'handed-out': checked('HOOK-SIGNATURE-RAW-BODY', 'HOOK-OWN-SECRET'),
      target: checked('HOOK-OWN-SECRET'),
      transition: checked('HOOK-REENABLE-KEEPS-ATTRIBUTES'),
    },
  },
  'CTL-HOOK-REFUSED': restated('REG-1', 'REG-4'),
  'CTL-HOOK-LOOPBACK': whole(
    'outside',
    reason(
      'not-observable',
      'A precondition of every delivery check: a target that cannot reach the receiver fails the probe delivery before any check.',
    ),
  ),
  'CTL-OPEN-CALL-ID': restated('RES-CALL'),
  'CTL-EVENT-FIRE': {
    kind: 'field',
    cells: {
      // The event fired is the event delivered: its type to the endpoints subscribed, its data as given.
      'handed-out': checked('HOOK-FIRED-DATA', 'HOOK-FIRED-EVENT-ID'),
      // Fired with `{}`: delivered with a data object all the same.
      empty: checked('HOOK-FIRED-DATA'),
      target: seeRow(['REG-3'], "Which endpoints a fired event reaches: REG-3's row."),
    },
  },
  'CTL-OPEN-METADATA': restated('CALL-FIELD-METADATA'),
};
