/**
 * The classes of fault every clause is crossed with (matrix.ts; docs/fault-matrix.md;
 * docs/method.md has a section per class). A class names a way implementations go wrong that
 * no single clause describes: a fault found by hand is one instance of it, and the next fault
 * is another. Classes 1 to 11 are issue 45's; the ones after them were found while filling the
 * matrix, each from faults the earlier classes did not name (15 from the red team's first
 * round: a session token cached by its text outlived its exp, and no class asked for it).
 *
 * Ids are stable (the matrix and the method's headings name them); reword a title freely.
 */

export interface FaultClass {
  /** Its number in docs/method.md and the matrix's column order. */
  number: number;
  /** A column heading: a few words. */
  short: string;
  /** What the class varies, and what must hold however it is varied. */
  means: string;
  /** The kinds of clause it applies to, in words (the matrix holds the exact cells). */
  appliesTo: string;
}

const CLASS_DATA = {
  'near-miss': {
    number: 1,
    short: 'Near-miss input',
    means:
      'Every comparison the service makes (credentials, claims iss/aud/sub/kid, signatures, event types, ids, host names) is given inputs one step from a match: another case, a prefix, a suffix, one character more, less or changed, a superstring, surrounding white space, another encoding. Each is refused (or, where the rule says the comparison ignores the difference, accepted).',
    appliesTo: 'comparisons: credentials and claims, subscriptions, URL rules, ids the service looks up',
  },
  concurrent: {
    number: 2,
    short: 'Several at once',
    means:
      'Every write the harness can make is also sent several times at once; once all have answered, what must stay unique is unique and every limit holds, however the requests interleaved.',
    appliesTo: 'limits, and every write that hands out an id or a secret',
  },
  'other-state': {
    number: 3,
    short: 'Other state',
    means:
      'Every operation is tried against the resource in each state the spec or the contract names other than the usual one: an endpoint disabled or deleted, a workspace suspended, a token revoked.',
    appliesTo: 'operations of the public API, deliveries and replays, control operations with a stated effect',
  },
  empty: {
    number: 4,
    short: 'Absent or empty',
    means:
      'Every optional input is tried absent and every list-valued one empty; every listed output field is present even when its value is empty. An empty list is a choice of nothing, never the default.',
    appliesTo: 'optional inputs (scopes, event lists, metadata) and listed output fields',
  },
  transition: {
    number: 5,
    short: 'Transition keeps attributes',
    means:
      'A state transition changes the state it names and nothing else: every attribute the resource had before it (URL, event types, secret, scopes) is there after it, under both credential schemes.',
    appliesTo: 'the transitions: disable and re-enable, suspend and reinstate, revoke, the call lifecycle',
  },
  connection: {
    number: 6,
    short: 'Kept-alive and fresh',
    means:
      'Every rule whose effect must show within a time bound holds on a reused (kept-alive) connection as on a fresh one: no state is remembered per connection.',
    appliesTo: 'rules that change what a credential may do (revocation, suspension, expiry, key rotation)',
  },
  'setting-changed': {
    number: 7,
    short: 'Setting changed',
    means: 'Every setting is changed after its first use: the new value holds, and the old one no longer does.',
    appliesTo: 'settings of a workspace the contract lets a caller change: identity provider, members, endpoint state',
  },
  target: {
    number: 8,
    short: 'Reaches its target only',
    means:
      'Every operation that names a target (an endpoint, a workspace, a call, a token) reaches it and nothing else.',
    appliesTo: 'operations on one resource among several: deliveries, replays, revocations, suspensions, transcripts',
  },
  'handed-out': {
    number: 9,
    short: 'Values work as given',
    means:
      'Every value the service hands out works where a client will use it, exactly as given: URLs at their own origin, secrets as keys, ids in paths, tokens as credentials.',
    appliesTo: 'ids, URLs, secrets and tokens the service or its control interface returns',
  },
  'receiver-answers': {
    number: 10,
    short: 'Every receiver answer',
    means:
      'Every class of answer a receiver can give (each 2xx, 3xx, 4xx, 5xx, a reset, none), with usual and unusual members, is treated as the rule says: only a 2xx acknowledges.',
    appliesTo: 'deliveries and their retries, drops and disables',
  },
  'duration-edges': {
    number: 11,
    short: 'Both edges of a duration',
    means: 'Every duration is tried at both edges of its tolerance: just inside holds, just outside does not.',
    appliesTo: 'time bounds: lifetimes, time-outs, tolerances, retry delays, propagation',
  },
  'error-shape': {
    number: 12,
    short: 'Every error keeps the shape',
    means:
      'Every answer an error path can give keeps the error shape (error.code, error.message, error.request_id req_), whatever led to it: each code, each status, each path.',
    appliesTo: 'the error codes and the body shape',
  },
  'every-operation': {
    number: 13,
    short: 'Every operation and scheme',
    means:
      'A rule stated for every request (a revoked token, a suspended workspace, a scope) holds on every shown operation (whoami, agents, calls, transcript) and under both credential schemes, not only where it was first tried.',
    appliesTo: 'rules about requests in general, and the scopes',
  },
  repeated: {
    number: 14,
    short: 'Done twice',
    means:
      'Every write is also done twice in a row: the second has no further effect on a limit or a state (a revocation frees one slot, a deletion one, a replay keeps the id).',
    appliesTo: 'revocation, deletion, replay, suspension, re-enable',
  },
  'cached-past-validity': {
    number: 15,
    short: 'Used, then past its validity',
    means:
      'Every credential, subscriber or state the service may cache is used while valid and presented again once its validity has ended (expired, revoked, removed, suspended, deleted): what was accepted before must not be remembered past it.',
    appliesTo:
      'credentials and the transitions that end a validity (expiry, revocation, key removal, suspension, disable, deletion)',
  },
} as const satisfies Record<string, FaultClass>;

export type FaultClassId = keyof typeof CLASS_DATA;

export const FAULT_CLASSES: Readonly<Record<FaultClassId, FaultClass>> = CLASS_DATA;

/** In column order. */
export const FAULT_CLASS_IDS: readonly FaultClassId[] = (Object.keys(CLASS_DATA) as FaultClassId[]).sort(
  (a, b) => CLASS_DATA[a].number - CLASS_DATA[b].number,
);
