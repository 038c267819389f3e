import type { Clock } from '../clock.js';
import type { FaultSet } from '../faults.js';
import type { Call } from './call.js';
import type { Agent, Store, Workspace } from '../store.js';
import type { Dispatcher } from '../webhooks/dispatcher.js';
import { REFERENCE_PERSONALITY, type Personality } from '../personality.js';

// Placing calls and moving them through queued → started → completed | failed,
// emitting the matching events. In `auto` mode the call moves by itself (staging
// dials nobody); in `manual` mode the control interface moves it.

/** call_progress auto: queued → started after this long… */
export const AUTO_START_AFTER_MS = 200;
/** …and started → completed this long after that. */
export const AUTO_COMPLETE_AFTER_MS = 400;
/** Fault auto-progress-slow: a simulated ring time, then talk time (2.8 s in all). */
const SLOW_RING_MS = 1_200;
const SLOW_TALK_MS = 1_600;
/** Fault duration-capped-3600: the longest call an agent is configured for, s. */
const MAX_CALL_SECONDS = 3_600;

export type ProgressRequest =
  | { state: 'started' }
  | { state: 'completed'; outcome: string; durationSeconds: number }
  | { state: 'failed' };

export type ProgressResult = { ok: true } | { ok: false; status: number; code: string; message: string };

export class CallService {
  /** Fault transcript-url-previous-call: the last call placed per workspace, and each call's predecessor. */
  private readonly lastPlaced = new Map<string, string>();
  /** Fault call-metadata-shared-default: the default metadata object every call shares. */
  private readonly sharedMetadata: Record<string, unknown> = {};
  /** Fault duration-from-timestamps: when each call started. */
  private readonly startedAt = new WeakMap<Call, number>();
  /** Fault duration-cached-per-agent: the duration first reported for each agent, memoised by agent id. */
  private readonly durationByAgent = new Map<string, number>();
  /** Fault completed-call-id-of-agent-current-call: the call last placed with each agent. */
  private readonly currentCallOfAgent = new Map<string, string>();
  /** Fault to-cached-per-agent: the number first called by each agent, memoised by agent id. */
  private readonly toByAgent = new Map<string, string>();
  private readonly previousCall = new WeakMap<Call, string>();

  constructor(
    private readonly store: Store,
    private readonly dispatcher: Dispatcher,
    private readonly clock: Clock,
    /** The public base URL (no /v1); transcript URLs are built from it. */
    private readonly publicBaseUrl: () => string,
    private readonly personality: Personality = REFERENCE_PERSONALITY,
    /** The internal listener's base URL (fault transcript-url-other-port). */
    // Stryker disable next-line StringLiteral: equivalent: only the fault transcript-url-other-port reads it
    private readonly internalBaseUrl: () => string = () => '',
  ) {}

  /** @param id the call's id when the caller numbered it (fault call-id-sequence-race) */
  place(workspace: Workspace, agent: Agent, to: string, given: Record<string, unknown>, id?: string): Call {
    // Fault call-metadata-shared-default: Object.assign into the one default object, not a fresh one.
    const metadata = workspace.faults.has('call-metadata-shared-default')
      ? Object.assign(this.sharedMetadata, given)
      : given;
    const call: Call = {
      id: id ?? this.personality.newId('call_'),
      workspaceId: workspace.id,
      agentId: agent.id,
      to,
      metadata,
      state: 'queued',
      outcome: null,
      durationSeconds: null,
      createdAt: this.clock.now(),
      timers: [],
    };
    this.store.addCall(workspace, call);
    if (workspace.faults.has('completed-call-id-of-agent-current-call')) this.currentCallOfAgent.set(agent.id, call.id);
    if (workspace.faults.has('transcript-url-previous-call')) {
      // Fault: the id a stale variable holds, the workspace's previous call's (this one's for the first).
      this.previousCall.set(call, this.lastPlaced.get(workspace.id) ?? call.id);
      this.lastPlaced.set(workspace.id, call.id);
    }
    // Fault queued-emitted-at-dial-out: queued is announced by the dialler when it picks the call up (at its start).
    if (!workspace.faults.has('queued-emitted-at-dial-out'))
      this.emit(workspace, call, 'voice.call.queued', () => this.callSummary(call, workspace.faults));
    if (workspace.callProgress === 'auto') {
      const slow = workspace.faults.has('auto-progress-slow');
      // The completion is timed once the call has started, never set beside it: two timers
      // set at once fire out of order when the event loop lags (under fan-out load, calls
      // completed before they started, and lost their voice.call.started).
      call.timers.push(
        this.clock.setTimer(slow ? SLOW_RING_MS : AUTO_START_AFTER_MS, () => {
          const started = this.progress(workspace, call.id, { state: 'started' });
          if (!started.ok) return;
          call.timers = [
            this.clock.setTimer(slow ? SLOW_TALK_MS : AUTO_COMPLETE_AFTER_MS, () => {
              call.timers = [];
              this.progress(workspace, call.id, {
                state: 'completed',
                // Fault auto-outcome-state-name: the simulated dialler reports its state's name as the outcome.
                outcome: workspace.faults.has('auto-outcome-state-name') ? 'completed' : 'answered',
                durationSeconds: 5 + Math.floor(Math.random() * 175),
              });
            }),
          ];
        }),
      );
    }
    return call;
  }

  // Stryker disable next-line BooleanLiteral: equivalent: only the fault progress-moves-every-call passes or reads alongside
  progress(workspace: Workspace, callId: string, request: ProgressRequest, alongside = false): ProgressResult {
    const result = this.progressOne(workspace, callId, request);
    // Fault progress-moves-every-call: the update's WHERE names the workspace, not the call.
    if (
      result.ok &&
      !alongside &&
      workspace.faults.has('progress-moves-every-call') &&
      workspace.callProgress === 'manual'
    ) {
      for (const other of [...workspace.calls.values()])
        if (other.id !== callId) this.progress(workspace, other.id, request, true);
    }
    return result;
  }

  private progressOne(workspace: Workspace, callId: string, request: ProgressRequest): ProgressResult {
    // Fault progress-call-any-workspace: the call is found by its id alone, in whichever workspace holds it.
    const elsewhere =
      // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent: the search finds only workspaces under the same fault
      !workspace.calls.get(callId) && workspace.faults.has('progress-call-any-workspace')
        ? [...this.store.workspaces.values()].find(
            (other) => other.faults.has('progress-call-any-workspace') && other.calls.get(callId) !== undefined,
          )
        : undefined;
    if (elsewhere) return this.progressOne(elsewhere, callId, request);
    const call = workspace.calls.get(callId);
    // Stryker disable next-line StringLiteral: no stated rule: the control interface's error code and message are information only (control contract, conventions)
    if (!call) return { ok: false, status: 404, code: 'call_not_found', message: 'no such call in this workspace' };
    // Fault progress-repeat-reemits: a repeated completion is taken as an update, and its event fired anew.
    if (
      call.state === 'completed' &&
      request.state === 'completed' &&
      workspace.faults.has('progress-repeat-reemits')
    ) {
      this.emit(workspace, call, 'voice.call.completed', () => this.completedData(workspace, call, workspace.faults));
      return { ok: true };
    }
    // Fault failed-call-moves-again: the finished test reads completed only, so a failed call can still complete.
    if (call.state === 'completed' || (call.state === 'failed' && !workspace.faults.has('failed-call-moves-again'))) {
      // Stryker disable next-line StringLiteral: no stated rule: the control interface's error code and message are information only (control contract, conventions)
      return { ok: false, status: 409, code: 'call_finished', message: `the call is already ${call.state}` };
    }
    // Fault progress-started-reemits: a started call moved to started again is taken as news, and its event fired anew.
    if (call.state === 'started' && request.state === 'started' && workspace.faults.has('progress-started-reemits')) {
      this.emit(workspace, call, 'voice.call.started', () => this.callSummary(call, workspace.faults));
      return { ok: true };
    }
    if (request.state === 'started' && call.state !== 'queued') {
      // Stryker disable StringLiteral: no stated rule: the control interface's error code and message are information only (control contract, conventions)
      return {
        ok: false,
        status: 409,
        code: 'invalid_transition',
        message: `a ${call.state} call cannot become started`,
      };
      // Stryker restore StringLiteral
    }
    // Stryker disable all: no stated rule: whether a started call may fail is the personalities' open choice (call states, "Transitions between them: not shown")
    if (request.state === 'failed' && call.state !== 'queued' && !this.personality.failedFromStarted) {
      // Alternate personality: failed means "did not connect", which a started call did.
      return {
        ok: false,
        status: 409,
        code: 'invalid_transition',
        message: `a ${call.state} call cannot become failed`,
      };
    }
    // Stryker restore all
    const faults = workspace.faults;
    switch (request.state) {
      case 'started':
        call.state = 'started';
        // Stryker disable next-line all: equivalent: only the fault duration-from-timestamps reads when a call started
        this.startedAt.set(call, this.clock.now());
        if (!faults.has('lifecycle-no-started'))
          this.emit(workspace, call, 'voice.call.started', () => this.callSummary(call, faults));
        if (faults.has('queued-emitted-at-dial-out'))
          this.emit(workspace, call, 'voice.call.queued', () => this.callSummary(call, faults));
        break;
      case 'completed':
        call.state = 'completed';
        // Fault outcome-forced-answered: the clean-end path writes the example outcome.
        call.outcome = faults.has('outcome-forced-answered') ? 'answered' : request.outcome;
        // Fault outcome-lowercased: the outcome normalised as an enum value.
        if (faults.has('outcome-lowercased') && typeof call.outcome === 'string')
          call.outcome = call.outcome.toLowerCase();
        // Fault duration-zero-defaulted: the duration is read with || 1, meant for a missing one, so 0 becomes 1.
        call.durationSeconds =
          faults.has('duration-zero-defaulted') && !request.durationSeconds ? 1 : request.durationSeconds;
        // Fault duration-fencepost-plus-one: the length counted inclusively, first and last second both (end - start + 1).
        if (faults.has('duration-fencepost-plus-one')) call.durationSeconds += 1;
        // Fault duration-billed-minutes: the billed length (whole minutes, rounded up) stored as the duration.
        if (faults.has('duration-billed-minutes')) call.durationSeconds = Math.ceil(call.durationSeconds / 60) * 60;
        // Fault duration-capped-3600: the duration is clamped to the agent's maximum call length.
        if (faults.has('duration-capped-3600')) call.durationSeconds = Math.min(call.durationSeconds, MAX_CALL_SECONDS);
        // Fault duration-cached-per-agent: a memo meant for the agent's average keeps its first call's duration.
        if (faults.has('duration-cached-per-agent')) {
          const first = this.durationByAgent.get(call.agentId);
          if (first === undefined) this.durationByAgent.set(call.agentId, call.durationSeconds);
          else call.durationSeconds = first;
        }
        // Fault duration-from-timestamps: the length measured by the service's clock, from started (or placed).
        if (faults.has('duration-from-timestamps'))
          call.durationSeconds = Math.round((this.clock.now() - (this.startedAt.get(call) ?? call.createdAt)) / 1000);
        this.emit(workspace, call, 'voice.call.completed', () => this.completedData(workspace, call, faults));
        break;
      case 'failed':
        call.state = 'failed';
        // Stryker disable next-line StringLiteral: no stated rule: voice.call.failed's data is "not shown" (event types)
        call.outcome = 'failed';
        if (faults.has('failed-reported-completed')) {
          call.durationSeconds = 0;
          this.emit(workspace, call, 'voice.call.completed', () => this.completedData(workspace, call, faults));
        } else {
          this.emit(workspace, call, 'voice.call.failed', () => ({
            ...this.callSummary(call, faults),
            // Stryker disable next-line StringLiteral: no stated rule: voice.call.failed's data is "not shown" (event types)
            reason: 'no_answer',
          }));
        }
        break;
    }
    // Stryker disable all: equivalent: a finished call's timers only try to move it, which is refused
    if (request.state !== 'started') {
      if (faults.has('transcript-gone-after-completion')) call.finishedAt = this.clock.now();
      for (const timer of call.timers) timer.cancel();
      call.timers = [];
    }
    // Stryker restore all
    return { ok: true };
  }

  transcriptUrl(workspace: Workspace, call: Call, faults: FaultSet): string {
    // Fault transcript-url-other-port: built from the address of the internal listener (health, metrics) that produced the event.
    const origin =
      faults.has('transcript-url-other-port') && this.internalBaseUrl() ? this.internalBaseUrl() : this.publicBaseUrl();
    const base = origin + workspace.faultPrefix;
    const callId = this.previousCall.get(call) ?? call.id;
    const url = faults.has('transcript-url-wrong')
      ? `${base}/v1/calls/${callId}/transcript`
      : `${base}/v1/voice/calls/${callId}/transcript`;
    // Fault transcript-url-lowercased: the URL goes through a path helper that lower-cases it.
    return faults.has('transcript-url-lowercased') ? url.toLowerCase() : url;
  }

  private callSummary(call: Call, faults: FaultSet): Record<string, unknown> {
    return { call_id: call.id, agent_id: call.agentId, to: call.to, metadata: eventMetadata(call, faults) };
  }

  /** Every call field of the spec. */
  private completedData(workspace: Workspace, call: Call, faults: FaultSet): Record<string, unknown> {
    const duration = call.durationSeconds ?? 0;
    // Fault to-cached-per-agent: a lookup of the agent's dialled number, memoised by agent id, keeps its first call's number.
    let to = call.to;
    if (faults.has('to-cached-per-agent')) {
      const first = this.toByAgent.get(call.agentId);
      if (first === undefined) this.toByAgent.set(call.agentId, to);
      else to = first;
    }
    const data: Record<string, unknown> = {
      // Fault completed-call-id-of-agent-current-call: the id read from the agent's current call.
      call_id: faults.has('completed-call-id-of-agent-current-call')
        ? (this.currentCallOfAgent.get(call.agentId) ?? call.id)
        : call.id,
      // Fault completed-agent-first: the agent read from the workspace's first agent, not the call.
      agent_id: faults.has('completed-agent-first')
        ? (workspace.agents.values().next().value?.id ?? call.agentId)
        : call.agentId,
      // Fault to-plus-stripped: the number is carried in the carrier's digits-only form.
      to: faults.has('to-plus-stripped')
        ? to.replace(/^\+/, '')
        : // Fault to-truncated-12: the number comes back from a varchar(12) column.
          faults.has('to-truncated-12')
          ? to.slice(0, 12)
          : to,
      duration_seconds: faults.has('duration-string') ? String(duration) : duration,
      // Stryker disable next-line StringLiteral: no stated rule: the outcome of a call completed without one; outcome's "full set of values not shown"
      outcome: call.outcome ?? 'answered',
      transcript_url: this.transcriptUrl(workspace, call, faults),
      metadata: faults.has('metadata-dropped') ? {} : eventMetadata(call, faults),
    };
    if (faults.has('metadata-omitted-when-empty') && Object.keys(call.metadata).length === 0) delete data['metadata'];
    if (faults.has('duration-zero-omitted') && duration === 0) delete data['duration_seconds'];
    // Fault completed-metadata-over-fields: the payload is {...fields, ...metadata, metadata}, so a metadata key
    // named like a call field overwrites it.
    if (faults.has('completed-metadata-over-fields')) {
      const { metadata } = data;
      return { ...data, ...(metadata as Record<string, unknown>), metadata };
    }
    return data;
  }

  private emit(
    workspace: Workspace,
    call: Call,
    type: Parameters<Dispatcher['publish']>[1],
    data: () => Record<string, unknown>,
  ): void {
    // Fault call-event-id-from-call: the event id derived from the call's, the type left out of the key.
    const id = workspace.faults.has('call-event-id-from-call') ? `evt_${call.id.slice('call_'.length)}` : undefined;
    // Fault call-events-created-at-placement: the event's time is read from the call row, its created_at.
    const createdAt = workspace.faults.has('call-events-created-at-placement') ? call.createdAt : undefined;
    this.dispatcher.publishIfReceived(workspace, type, data, id, createdAt);
  }
}

/** The metadata a call's events carry: the caller's, as given. */
function eventMetadata(call: Call, faults: FaultSet): Record<string, unknown> {
  // Fault metadata-numeric-strings-coerced: a loosely typed key/value store gives back numeric-looking strings as numbers.
  if (faults.has('metadata-numeric-strings-coerced'))
    return Object.fromEntries(
      Object.entries(call.metadata).map(([key, value]) => [
        key,
        typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value,
      ]),
    );
  // Fault metadata-values-stringified: the metadata went through a string-valued key/value table.
  if (faults.has('metadata-values-stringified'))
    return Object.fromEntries(
      Object.entries(call.metadata).map(([key, value]) => [
        key,
        typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value),
      ]),
    );
  // Fault metadata-keys-snake-cased: the payload's keys, metadata's too, go through a snake_case transform.
  if (faults.has('metadata-keys-snake-cased'))
    return Object.fromEntries(
      Object.entries(call.metadata).map(([key, value]) => [
        key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase(),
        value,
      ]),
    );
  // Fault metadata-nested-flattened: the metadata is stored as a flat key/value map with dotted keys.
  if (faults.has('metadata-nested-flattened')) return flattened(call.metadata);
  // Fault metadata-dotted-keys-nested: the metadata is written key by key through a path setter (lodash's set).
  if (faults.has('metadata-dotted-keys-nested')) return dottedKeysNested(call.metadata);
  // Fault metadata-lead-id-only: the metadata schema was written from the spec's example, a lead_id entry.
  if (faults.has('metadata-lead-id-only')) return 'lead_id' in call.metadata ? { lead_id: call.metadata.lead_id } : {};
  // Fault metadata-arrays-objectified: the metadata deep-merged into {}, arrays walked as objects.
  if (faults.has('metadata-arrays-objectified')) return mergedInto({}, call.metadata);
  // Fault metadata-strings-truncated-255: the metadata values come back from a varchar(255) column.
  if (faults.has('metadata-strings-truncated-255'))
    return Object.fromEntries(
      Object.entries(call.metadata).map(([key, value]) => [
        key,
        typeof value === 'string' ? value.slice(0, 255) : value,
      ]),
    );
  // Fault metadata-dollar-keys-dropped: the request body went through a NoSQL-injection sanitiser that drops $ keys.
  if (faults.has('metadata-dollar-keys-dropped'))
    return Object.fromEntries(Object.entries(call.metadata).filter(([key]) => !key.startsWith('$')));
  // Fault metadata-floats-truncated: the metadata's numbers come back from an integer column.
  if (faults.has('metadata-floats-truncated'))
    return Object.fromEntries(
      Object.entries(call.metadata).map(([key, value]) => [key, typeof value === 'number' ? Math.trunc(value) : value]),
    );
  if (!faults.has('metadata-empty-values-dropped')) return call.metadata;
  // Fault metadata-empty-values-dropped: the event builder's compact() strips empty values, metadata's included.
  return Object.fromEntries(Object.entries(call.metadata).filter(([, value]) => value !== '' && value !== null));
}

/** Fault metadata-arrays-objectified: a deep merge that copies every object, arrays too, into a plain object. */
function mergedInto(target: Record<string, unknown>, source: Record<string, unknown>): Record<string, unknown> {
  for (const [key, value] of Object.entries(source))
    target[key] =
      typeof value === 'object' && value !== null ? mergedInto({}, value as Record<string, unknown>) : value;
  return target;
}

/** Fault metadata-dotted-keys-nested: each key read as a dotted path, so "crm.id" lands at crm → id. */
function dottedKeysNested(value: Record<string, unknown>): Record<string, unknown> {
  const nested: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const path = key.split('.');
    let target = nested;
    for (const segment of path.slice(0, -1)) {
      const next = target[segment];
      target = (typeof next === 'object' && next !== null ? next : (target[segment] = {})) as Record<string, unknown>;
    }
    target[path[path.length - 1]!] = inner;
  }
  return nested;
}

/** Fault metadata-nested-flattened: nested objects turned into dotted keys. */
function flattened(value: Record<string, unknown>, prefix = ''): Record<string, unknown> {
  const flat: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (typeof inner === 'object' && inner !== null && !Array.isArray(inner))
      Object.assign(flat, flattened(inner as Record<string, unknown>, `${prefix}${key}.`));
    else flat[prefix + key] = inner;
  }
  return flat;
}

/** A synthetic transcript: staging dials nobody, so the conversation is canned. */
// Stryker disable all: no stated rule: "Transcript retrieval method and response shape: not shown"
export function transcriptText(call: Call): string {
  switch (call.state) {
    case 'queued':
      return '[call queued: no conversation yet]';
    case 'failed':
      return '[call did not connect]';
    case 'started':
      return 'Agent: Hello, this is the automated assistant calling.\nCallee: Hello?';
    case 'completed':
      return 'Agent: Hello, this is the automated assistant calling.\nCallee: Hello?\nAgent: Thank you for your time. Goodbye.';
  }
}
// Stryker restore all
