import { newId } from '../ids.js';
import type { Clock } from '../clock.js';
import type { FaultSet } from '../faults.js';
import { signingSecretByUrl, type Endpoint, type EndpointRegistry, type EndpointWorkspace } from './endpoints.js';
import { eventBodies, type StoredEvent } from './envelope.js';
import type { EventType } from './event-types.js';
import { EventStore } from './event-store.js';
import { classifyOutcome, nextRetryDelayMs } from './retry-policy.js';
import { signatureFor, timestampFor } from './signing.js';
import type { DeliverySender, SendOutcome } from './transport.js';

// The event pipeline: an event is stored (a call's only when some endpoint takes it), then
// one delivery per subscribed endpoint runs on its own (attempts are independent promises,
// never a shared queue), each signed afresh per attempt and retried on the policy's schedule.

/** Fault deliveries-delayed-5s: how long a backlog holds each first attempt. */
const BACKLOG_DELAY_MS = 5_000;
/** Fault retry-429-after-1s: the fixed back-off after a 429. */
const THROTTLE_BACKOFF_MS = 1_000;

/** Fault retry-scale-of-latest-workspace: the time scale the last workspace was created with, process-wide. */
export const latestTimeScale = { value: 1 };

interface Delivery {
  event: StoredEvent;
  endpoint: Endpoint;
  failedAttempts: number;
  /** Fault retry-signature-header-appended: the signatures of the attempts so far. */
  signatures?: string[];
  /** Fault replay-signed-with-first-delivery: the recorded signature a replay re-sends. */
  resentSignature?: string;
  /** Fault replay-not-retried: a replay, sent once whatever its answer. */
  once?: boolean;
  /** Fault replay-timestamp-ms: the delivery is a dashboard replay. */
  replay?: boolean;
  /** Fault replay-signed-with-first-receiver-secret: the key a replay is signed with. */
  signingSecret?: string;
  /** Fault replay-stamp-cached-per-endpoint: the replay's timestamp and signature come from the event's cache. */
  replayStampCached?: boolean;
  /** Fault fanout-stops-at-failure: the next endpoint's delivery, started once this one's first attempt succeeds. */
  next?: () => void;
  /** Fault retry-sent-to-last-endpoint: the endpoint the fan-out loop's variable held last, where retries go. */
  retryTo?: Endpoint;
  /** Fault replay-cancels-pending-retries: the delivery is a dashboard replay, which owns the delivery row. */
  fromReplay?: boolean;
}

export interface AttemptRecord {
  eventId: string;
  endpointId: string;
  attempt: number;
  at: number;
  success: boolean;
}

export interface DispatcherOptions {
  clock: Clock;
  sender: DeliverySender;
  endpoints: EndpointRegistry;
  deliveryTimeoutMs: number;
  /** Observes every finished attempt (tests, benchmarks). */
  onAttempt?: (record: AttemptRecord) => void;
  /** Mints event ids (default `evt_` + 20 base62). */
  newId?: (prefix: string) => string;
  /** Fraction each retry delay is moved by (see nextRetryDelayMs); 0 by default. */
  retryJitter?: number;
}

export type ReplayResult = 'accepted' | 'unknown_event' | 'unknown_endpoint' | 'endpoint_disabled';

export class Dispatcher {
  readonly events = new EventStore();
  /** Fault retry-body-of-latest-event: the body last sent to each endpoint (its outbox row). */
  private readonly lastSentBodies = new WeakMap<Endpoint, { sent: string; signed: string }>();
  /** Fault ack-cancels-other-retries: the events some endpoint acknowledged (the flag is on the event row). */
  private readonly acknowledgedEvents = new WeakSet<StoredEvent>();
  /** Fault replay-cancels-pending-retries: per event, the endpoints whose delivery row a replay took over. */
  private readonly replayTookOver = new WeakMap<StoredEvent, Set<string>>();
  /** Fault event-id-workspace-sequence: each workspace's event count, the number its next event id carries. */
  private readonly eventCountOf = new Map<string, number>();
  private readonly inFlight = new Set<Promise<void>>();
  private closed = false;

  private readonly mintId: (prefix: string) => string;

  constructor(private readonly options: DispatcherOptions) {
    this.mintId = options.newId ?? ((prefix) => newId(prefix));
  }

  /**
   * Records the event and starts its deliveries; returns the stored event.
   * @param id the event's id when the caller numbered it (fault event-id-sequence-race)
   */
  publish(workspace: EndpointWorkspace, type: EventType, data: Record<string, unknown>, id?: string): StoredEvent {
    return this.deliver(workspace, type, data, this.receivers(workspace, type), id);
  }

  /**
   * An event the public API caused, recorded only when some endpoint takes it. Such an
   * event's id is seen nowhere but in its deliveries, so one no endpoint took can never be
   * named for a replay: recording it would only cost a placement its id, its Map entry and
   * the heap it holds (a load run placing calls in a workspace without endpoints).
   */
  publishIfReceived(
    workspace: EndpointWorkspace,
    type: EventType,
    data: () => Record<string, unknown>,
    id?: string,
    createdAt?: number,
  ): void {
    const receivers = this.receivers(workspace, type);
    if (receivers.length > 0) this.deliver(workspace, type, data(), receivers, id, createdAt);
  }

  /** The endpoints an event of `type` goes to now. */
  private receivers(workspace: EndpointWorkspace, type: EventType): Endpoint[] {
    const subscribers = this.options.endpoints.subscribers(workspace, type);
    // Fault events-to-every-workspace: the endpoint query lost its workspace condition.
    if (workspace.faults.has('events-to-every-workspace'))
      subscribers.push(...this.options.endpoints.foreignSubscribers(workspace, type));
    return subscribers.filter((endpoint) => endpoint.health.acceptsDeliveries());
  }

  /** Stores the event and starts one delivery to each of `receivers`. */
  private deliver(
    workspace: EndpointWorkspace,
    type: EventType,
    data: Record<string, unknown>,
    receivers: readonly Endpoint[],
    id?: string,
    createdAt?: number,
  ): StoredEvent {
    const event: StoredEvent = {
      id:
        id ??
        (workspace.faults.has('event-id-workspace-sequence') ? this.sequencedId(workspace.id) : this.mintId('evt_')),
      type,
      createdAt: createdAt ?? this.options.clock.now(),
      workspaceId: workspace.id,
      data,
      bodies: null,
      firstTimestamp: null,
      faults: workspace.faults,
    };
    this.events.add(event);
    // Fault fanout-stops-at-failure: the endpoints are sent to one after another, each once the one before took it.
    if (workspace.faults.has('fanout-stops-at-failure')) {
      let next: (() => void) | undefined;
      for (const endpoint of [...receivers].reverse()) {
        const delivery: Delivery = { event, endpoint, failedAttempts: 0, ...(next ? { next } : {}) };
        next = () => this.attempt(delivery);
      }
      next?.();
      return event;
    }
    /** Fault fanout-deduped-by-url: the fan-out's outbox is keyed by the receiver URL. */
    const urlsSent = new Set<string>();
    for (const [index, endpoint] of receivers.entries()) {
      if (workspace.faults.has('event-dedupe-type-second') && this.seenInOutbox(endpoint, event)) continue;
      if (workspace.faults.has('fanout-deduped-by-url')) {
        if (urlsSent.has(endpoint.urlText)) continue;
        urlsSent.add(endpoint.urlText);
      }
      // Fault event-id-per-endpoint: each endpoint's copy of the event is minted its own id.
      const copy = index > 0 && workspace.faults.has('event-id-per-endpoint') ? this.copyWithNewId(event) : event;
      const delivery: Delivery = { event: copy, endpoint, failedAttempts: 0 };
      // Fault retry-sent-to-last-endpoint: the retry callback reads the loop's variable after the loop ended.
      if (workspace.faults.has('retry-sent-to-last-endpoint')) delivery.retryTo = receivers.at(-1) ?? endpoint;
      if (workspace.faults.has('deliveries-delayed-5s')) this.attemptLater(delivery, BACKLOG_DELAY_MS);
      else this.attempt(delivery);
    }
    return event;
  }

  /** The dashboard's replay: the same event (same id and body) delivered again to one endpoint. */
  replay(workspace: EndpointWorkspace, eventId: string, endpointId: string): ReplayResult {
    // Faults replay-any-workspace and replay-cross-workspace (red team): the event is looked up by id alone, whatever the workspace named.
    const anywhere = workspace.faults.has('replay-any-workspace');
    const crossWorkspace = workspace.faults.has('replay-cross-workspace')
      ? this.events.getAnywhere(eventId, 'replay-cross-workspace')
      : undefined;
    const original =
      this.events.get(workspace.id, eventId) ?? (anywhere ? this.events.getAnywhere(eventId) : crossWorkspace);
    // Fault replay-call-events-unknown: the replay store is fed by the dashboard's fired events only.
    if (!original || (workspace.faults.has('replay-call-events-unknown') && original.type.startsWith('voice.call.')))
      return 'unknown_event';
    const hidden = workspace.faults.has('deleted-endpoint-still-delivered')
      ? this.options.endpoints.hidden(workspace.id, endpointId)
      : undefined;
    const endpoint =
      this.options.endpoints.get(workspace.id, endpointId) ??
      hidden ??
      (workspace.faults.has('replay-to-deleted-endpoint')
        ? this.options.endpoints.fromDeliveryLog(workspace.id, endpointId)
        : undefined) ??
      (anywhere ? this.options.endpoints.getAnywhere(endpointId) : undefined);
    if (!endpoint) return 'unknown_endpoint';
    const forced = workspace.faults.has('replay-to-disabled-delivered');
    if (!endpoint.health.acceptsDeliveries() && !forced) return 'endpoint_disabled';
    // Fault replay-acknowledged-skipped: the replay re-queues failed deliveries only; an acknowledged one is a no-op.
    // Stryker disable next-line all: equivalent: acknowledgedBy is recorded only under this fault
    if (workspace.faults.has('replay-acknowledged-skipped') && original.acknowledgedBy?.has(endpoint.id))
      return 'accepted';
    // Fault replay-once-per-endpoint: the replay outbox's key is event and endpoint, so a second replay is a no-op.
    if (workspace.faults.has('replay-once-per-endpoint')) {
      if (original.replayedTo?.has(endpoint.id)) return 'accepted';
      (original.replayedTo ??= new Set()).add(endpoint.id);
    }
    let event = original;
    // Fault replay-call-event-latest-of-call: a call event is read back from the call's event row, keyed by call id.
    if (workspace.faults.has('replay-call-event-latest-of-call') && original.type.startsWith('voice.call.')) {
      const callId = original.data['call_id'];
      if (typeof callId === 'string') event = this.events.latestOfCall(workspace.id, callId) ?? original;
    }
    // Fault replay-created-at-refreshed: the replay's envelope is built anew, stamped with the time it is sent.
    if (workspace.faults.has('replay-created-at-refreshed'))
      event = { ...original, createdAt: this.options.clock.now(), bodies: null };
    // Fault replay-data-latest-of-type: the payload read from a cache keyed by workspace and type.
    if (workspace.faults.has('replay-data-latest-of-type')) {
      const latest = this.events.latestOfType(workspace.id, original.type);
      if (latest && latest !== original) event = { ...original, data: latest.data, bodies: null };
    }
    // Fault replay-workspace-id-missing: the replay's envelope is rebuilt from the event row.
    if (workspace.faults.has('replay-workspace-id-missing'))
      event = { ...original, rebuiltForReplay: true, bodies: null };
    // Fault replay-call-metadata-dropped: a call event's replay rebuilds its data from the call row, which has no metadata.
    if (workspace.faults.has('replay-call-metadata-dropped') && original.type === 'voice.call.completed')
      event = { ...event, data: { ...event.data, metadata: {} }, bodies: null };
    // Fault replay-data-empty: the replay is rebuilt from what was kept of the event, its id and type.
    if (workspace.faults.has('replay-data-empty')) event = { ...original, data: {}, bodies: null };
    // Fault replay-data-json-text: the replay reads the data column back as the JSON text it was stored as.
    if (workspace.faults.has('replay-data-json-text'))
      event = { ...event, data: JSON.stringify(event.data) as unknown as Record<string, unknown>, bodies: null };
    // Fault replay-type-enum-key: the replay reads the type column as the enum constant's name (MAILER_EMAIL_SENT).
    if (workspace.faults.has('replay-type-enum-key'))
      event = {
        ...event,
        type: event.type.toUpperCase().replace(/\./g, '_') as typeof event.type,
        bodies: null,
      };
    if (workspace.faults.has('replay-new-id')) {
      event = { ...original, id: this.mintId('evt_'), bodies: null };
      this.events.add(event);
    }
    // Fault replay-signed-with-first-delivery: the replay re-sends a recorded delivery, the first one when this endpoint has none.
    const recorded = workspace.faults.has('replay-signed-with-first-delivery') ? event.sentSignatures : undefined;
    // Stryker disable next-line all: equivalent: recorded is set only under the fault replay-signed-with-first-delivery
    const resentSignature = recorded && !recorded.has(endpoint.id) ? recorded.values().next().value : undefined;
    // Fault replay-body-newline-unsigned: the replay writer appends a newline to the body it was given signed.
    if (workspace.faults.has('replay-body-newline-unsigned')) {
      const { signed } = eventBodies(event);
      event = { ...event, bodies: { sent: signed + '\n', signed } };
    }
    // Fault replay-to-first-subscriber: the replay is checked against the endpoint named but sent to the event's first receiver.
    const target = workspace.faults.has('replay-to-first-subscriber')
      ? (this.receivers(workspace, event.type)[0] ?? endpoint)
      : endpoint;
    // Fault replay-signed-with-first-receiver-secret: the replay's key is read from the event's first subscriber, not the endpoint named.
    const firstReceiverSecret = workspace.faults.has('replay-signed-with-first-receiver-secret')
      ? this.receivers(workspace, event.type)[0]?.secret
      : undefined;
    const takeOver = workspace.faults.has('replay-cancels-pending-retries');
    // Stryker disable next-line all: equivalent: takeOver is the fault replay-cancels-pending-retries, held in a variable
    if (takeOver) {
      const taken = this.replayTookOver.get(original) ?? new Set<string>();
      // Stryker disable next-line all: equivalent: read only under the fault replay-cancels-pending-retries
      taken.add(target.id);
      // Stryker disable next-line all: equivalent: read only under the fault replay-cancels-pending-retries
      this.replayTookOver.set(original, taken);
    }
    this.attempt(
      {
        event,
        endpoint: target,
        failedAttempts: 0,
        // Stryker disable next-line all: equivalent: fromReplay is read only under the fault replay-cancels-pending-retries
        ...(takeOver ? { fromReplay: true } : {}),
        // Stryker disable next-line all: equivalent: resentSignature is set only under the fault replay-signed-with-first-delivery
        ...(resentSignature !== undefined ? { resentSignature } : {}),
        ...(workspace.faults.has('replay-not-retried') ? { once: true } : {}),
        // Stryker disable next-line all: equivalent: replay is read only under the faults replay-timestamp-ms and replay-stamped-with-created-at
        ...(workspace.faults.has('replay-timestamp-ms') || workspace.faults.has('replay-stamped-with-created-at')
          ? // Stryker disable next-line all: equivalent: replay is read only under the faults replay-timestamp-ms and replay-stamped-with-created-at
            { replay: true }
          : {}),
        // Stryker disable next-line all: equivalent: firstReceiverSecret is set only under the fault replay-signed-with-first-receiver-secret
        ...(firstReceiverSecret !== undefined ? { signingSecret: firstReceiverSecret } : {}),
        ...(workspace.faults.has('replay-stamp-cached-per-endpoint') ? { replayStampCached: true } : {}),
      },
      forced,
    );
    // Faults replay-all-endpoints (red team) and replay-to-every-subscriber: the replay goes through the event's fan-out, not to the endpoint named.
    if (workspace.faults.has('replay-all-endpoints') || workspace.faults.has('replay-to-every-subscriber')) {
      // Stryker disable next-line all: equivalent: the loop runs only under the faults replay-all-endpoints and replay-to-every-subscriber
      for (const other of this.receivers(workspace, event.type))
        if (other !== endpoint) this.attempt({ event, endpoint: other, failedAttempts: 0 });
    }
    return 'accepted';
  }

  /** Fault event-id-workspace-sequence: evt_ and the workspace's event count, zero-padded to 20 digits. */
  private sequencedId(workspaceId: string): string {
    const count = (this.eventCountOf.get(workspaceId) ?? 0) + 1;
    this.eventCountOf.set(workspaceId, count);
    return `evt_${String(count).padStart(20, '0')}`;
  }

  /** Fault event-dedupe-type-second: the outbox's key is endpoint, type and second, not the event id. */
  private seenInOutbox(endpoint: Endpoint, event: StoredEvent): boolean {
    const key = `${event.type}@${Math.floor(event.createdAt / 1000)}`;
    if (endpoint.outboxKey === key) return true;
    endpoint.outboxKey = key;
    return false;
  }

  /** Fault event-id-per-endpoint: the event again under a new id, kept for replay like the original. */
  private copyWithNewId(event: StoredEvent): StoredEvent {
    const copy = { ...event, id: this.mintId('evt_'), bodies: null, firstTimestamp: null };
    this.events.add(copy);
    return copy;
  }

  /** Fault redirect-followed: a 3xx with a Location is sent on there (up to 5 hops), as fetch would. */
  private async followRedirects(
    outcome: SendOutcome,
    from: URL,
    body: string,
    headers: Record<string, string>,
    timeoutMs: number,
  ): Promise<SendOutcome> {
    let current = outcome;
    let url = from;
    for (
      let hop = 0;
      hop < 5 && current.kind === 'response' && current.status >= 300 && current.status < 400 && current.location;
      hop++
    ) {
      url = new URL(current.location, url);
      current = await this.options.sender.send(url, body, headers, timeoutMs, 'POST');
    }
    return current;
  }

  /** Waits for attempts in flight (used by close and by tests). */
  // Stryker disable next-line all: equivalent: settle runs at the reference's shutdown and in its own tests, which no check observes
  async settle(): Promise<void> {
    // Stryker disable next-line all: equivalent: settle runs at the reference's shutdown and in its own tests, which no check observes
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  // Stryker disable next-line all: equivalent: close runs at the reference's shutdown, which no check observes
  async close(): Promise<void> {
    // Stryker disable next-line all: equivalent: close runs at the reference's shutdown, which no check observes
    this.closed = true;
    // Stryker disable next-line all: equivalent: close runs at the reference's shutdown, which no check observes
    this.options.endpoints.closeAll();
    await this.options.sender.close();
    await this.settle();
  }

  /** @param evenIfDisabled fault replay-to-disabled-delivered: sent whatever the endpoint's state */
  private attempt(delivery: Delivery, evenIfDisabled = false): void {
    const { endpoint, event } = delivery;
    if (this.closed || endpoint.deleted || (!endpoint.health.acceptsDeliveries() && !evenIfDisabled)) return;
    const faults = endpoint.workspace.faults;
    // Fault ack-cancels-other-retries: the retry worker skips events marked acknowledged, by whichever endpoint.
    // Stryker disable next-line all: equivalent: acknowledgedEvents is filled only under the fault ack-cancels-other-retries
    if (delivery.failedAttempts > 0 && faults.has('ack-cancels-other-retries') && this.acknowledgedEvents.has(event))
      return;
    // Fault replay-cancels-pending-retries: the original delivery's row now belongs to the replay.
    if (
      // Stryker disable next-line all: equivalent: replayTookOver is filled only under the fault replay-cancels-pending-retries
      delivery.failedAttempts > 0 &&
      !delivery.fromReplay &&
      faults.has('replay-cancels-pending-retries') &&
      this.replayTookOver.get(event)?.has(endpoint.id)
    )
      return;
    // Fault retry-new-event-id: a retry is re-enqueued as a new event, with a new id.
    const bodies =
      delivery.failedAttempts > 0 && faults.has('retry-new-event-id')
        ? eventBodies({ ...event, id: this.mintId('evt_'), bodies: null })
        : // Fault retry-created-at-refreshed: a retry's envelope is built anew, stamped with the time it is sent.
          delivery.failedAttempts > 0 && faults.has('retry-created-at-refreshed')
          ? eventBodies({ ...event, createdAt: this.options.clock.now(), bodies: null })
          : // Fault retry-call-metadata-dropped: a call event's retry is rebuilt from the call record, which keeps no metadata.
            delivery.failedAttempts > 0 && faults.has('retry-call-metadata-dropped') && 'metadata' in event.data
            ? eventBodies({ ...event, data: withoutMetadata(event.data), bodies: null })
            : // Fault retry-body-of-latest-event: the retry re-sends the endpoint's outbox row, which holds its last body.
              // Stryker disable next-line all: equivalent: lastSentBodies is filled only under the fault retry-body-of-latest-event
              delivery.failedAttempts > 0 && faults.has('retry-body-of-latest-event')
              ? (this.lastSentBodies.get(endpoint) ?? eventBodies(event))
              : eventBodies(event);
    if (faults.has('retry-body-of-latest-event')) this.lastSentBodies.set(endpoint, bodies);
    // Fault retry-worker-clock-behind: retries are sent by a worker whose clock runs 2.6 s behind.
    const retryClockBehind = delivery.failedAttempts > 0 && faults.has('retry-worker-clock-behind');
    // Stryker disable next-line all: equivalent: retryClockBehind holds only under the fault retry-worker-clock-behind
    let timestamp = timestampFor(retryClockBehind ? Date.now() - 2_600 : Date.now(), faults);
    // Fault retry-timestamp-scaled: a retry is stamped on the retry scheduler's scaled clock, run from the event's time.
    if (delivery.failedAttempts > 0 && faults.has('retry-timestamp-scaled'))
      timestamp = timestampFor(event.createdAt + (Date.now() - event.createdAt) * endpoint.workspace.timeScale, faults);
    if (faults.has('timestamp-reused') && event.firstTimestamp !== null) timestamp = event.firstTimestamp;
    // Stryker disable next-line all: equivalent: firstTimestamp is read only under the fault timestamp-reused
    event.firstTimestamp ??= timestamp;
    // Fault replay-timestamp-ms: the replay path stamps Date.now() itself.
    if (delivery.replay && faults.has('replay-timestamp-ms')) timestamp = String(Date.now());
    // Fault replay-stamped-with-created-at: the replay job stamps the event's stored time.
    if (delivery.replay && faults.has('replay-stamped-with-created-at'))
      timestamp = String(Math.floor(event.createdAt / 1000));
    // Fault secret-cached-by-url: the key read from a cache keyed by the receiver's URL, not from the endpoint.
    const secret =
      delivery.signingSecret ??
      (faults.has('secret-cached-by-url')
        ? (signingSecretByUrl.get(endpoint.urlText) ?? endpoint.secret)
        : endpoint.secret);
    let signature = delivery.resentSignature ?? signatureFor(secret, bodies.signed, timestamp, faults);
    // Fault signature-cached-per-event: signed once beside the serialised body, whichever endpoint it goes to.
    if (faults.has('signature-cached-per-event')) signature = event.cachedSignature ??= signature;
    // Fault retry-signature-uppercase: the retry queue's row stores the signature as upper-case hex.
    if (delivery.failedAttempts > 0 && faults.has('retry-signature-uppercase')) signature = signature.toUpperCase();
    // Fault replay-stamp-cached-per-endpoint: a replay's stamp is computed once per event and endpoint, then re-sent.
    if (delivery.replayStampCached) {
      const cached = event.replayStamps?.get(endpoint.id);
      if (cached) ({ timestamp, signature } = cached);
      // Stryker disable next-line all: equivalent: replayStamps is read only under the fault replay-stamp-cached-per-endpoint
      else (event.replayStamps ??= new Map()).set(endpoint.id, { timestamp, signature });
    }
    // Stryker disable next-line all: equivalent: sentSignatures is read only under the fault replay-signed-with-first-delivery
    if (faults.has('replay-signed-with-first-delivery') && !event.sentSignatures?.has(endpoint.id))
      (event.sentSignatures ??= new Map()).set(endpoint.id, signature);
    if (faults.has('retry-signature-header-appended')) {
      // Fault: the header list is kept with the delivery and each attempt adds its own.
      delivery.signatures = [...(delivery.signatures ?? []), signature];
      signature = delivery.signatures.join(', ');
    }
    const headers: Record<string, string> = {
      'x-service-signature': signature,
      'x-service-timestamp': timestamp,
      // Stryker disable next-line all: no stated rule: the User-Agent of a delivery; the spec states none
      'user-agent': 'svc-reference-webhooks/1',
    };
    // Fault retry-content-type-dropped: the retry queue keeps the signature and timestamp headers only.
    if (!faults.has('no-content-type') && !(delivery.failedAttempts > 0 && faults.has('retry-content-type-dropped')))
      headers['content-type'] = 'application/json';
    // Fault retry-timestamp-dropped: only the first attempt sets the timestamp header.
    if (delivery.failedAttempts > 0 && faults.has('retry-timestamp-dropped')) delete headers['x-service-timestamp'];
    // Fault timestamp-header-duplicated: the signer sets the timestamp header and the transport appends it again.
    if (faults.has('timestamp-header-duplicated') && headers['x-service-timestamp'] !== undefined)
      (headers as Record<string, string | string[]>)['x-service-timestamp'] = [timestamp, timestamp];
    const timeoutMs = deliveryTimeoutMs(this.options.deliveryTimeoutMs, faults);
    const method = faults.has('deliver-with-put') ? 'PUT' : 'POST';
    // Fault delivery-url-query-dropped: the request is built from the URL's origin and path.
    const target = faults.has('delivery-url-query-dropped')
      ? new URL(endpoint.url.origin + endpoint.url.pathname)
      : endpoint.url;
    // Fault retry-body-pretty-printed: the retry queue stores the envelope parsed and sends it pretty-printed.
    const wire =
      delivery.failedAttempts > 0 && faults.has('retry-body-pretty-printed')
        ? JSON.stringify(JSON.parse(bodies.sent), null, 2)
        : bodies.sent;
    const sent =
      // Stryker disable next-line all: equivalent: the kept body is read only under the faults ack-*-fails (`→ true`, reading every body whole, breaks no stated rule)
      faults.has('ack-text-body-fails') || faults.has('ack-large-body-fails') || faults.has('ack-error-field-fails')
        ? // Stryker disable next-line all: equivalent: the kept body is read only under the faults ack-*-fails
          this.options.sender.send(target, wire, headers, timeoutMs, method, true)
        : this.options.sender.send(target, wire, headers, timeoutMs, method);
    const running = (
      faults.has('redirect-followed')
        ? sent.then((outcome) => this.followRedirects(outcome, target, bodies.sent, headers, timeoutMs))
        : sent
    )
      .then((outcome) => {
        // Fault no-retry-after-reset: an attempt that got no HTTP answer is forgotten, as if it never ran.
        if (outcome.kind === 'error' && faults.has('no-retry-after-reset')) return;
        const verdict = classifyOutcome(outcome, faults, timeoutMs);
        this.options.onAttempt?.({
          eventId: event.id,
          endpointId: endpoint.id,
          // Stryker disable next-line all: equivalent: the attempt number goes to the reference's own tests only
          attempt: delivery.failedAttempts + 1,
          at: this.options.clock.now(),
          success: verdict.success,
        });
        // Fault fanout-stops-at-failure: the loop goes on to the next endpoint only after a success; a failure breaks it.
        const next = delivery.next;
        delete delivery.next;
        if (verdict.success) {
          next?.();
          endpoint.health.recordSuccess();
          if (faults.has('ack-cancels-other-retries')) this.acknowledgedEvents.add(event);
          // Fault replay-acknowledged-skipped: the delivery log marks the event acknowledged at this endpoint.
          if (faults.has('replay-acknowledged-skipped')) (event.acknowledgedBy ??= new Set()).add(endpoint.id);
          endpoint.failuresInARow = 0;
          // Fault retry-ack-not-recorded: only the first attempt's path marks the delivery done; a retry's 2xx is logged.
          if (delivery.failedAttempts > 0 && faults.has('retry-ack-not-recorded')) {
            delivery.failedAttempts += 1;
            this.scheduleRetry(delivery, faults);
          }
          return;
        }
        delivery.failedAttempts += 1;
        // Stryker disable next-line all: equivalent: failuresInARow is read only under the fault retry-count-per-endpoint
        endpoint.failuresInARow = (endpoint.failuresInARow ?? 0) + 1;
        endpoint.health.recordFailure();
        // Fault gone-410-disables-endpoint: a 410 Gone is taken as the receiver's wish to unsubscribe.
        if (outcome.kind === 'response' && outcome.status === 410 && faults.has('gone-410-disables-endpoint')) {
          endpoint.health.disableForSuspension();
          return;
        }
        // Fault retry-429-after-1s: a throttled answer gets a fixed short back-off instead of the schedule.
        const throttled = outcome.kind === 'response' && outcome.status === 429 && faults.has('retry-429-after-1s');
        // Fault retry-after-header-obeyed: the receiver's Retry-After (seconds) replaces the schedule's delay.
        const retryAfterMs =
          outcome.kind === 'response' && outcome.retryAfter !== undefined && faults.has('retry-after-header-obeyed')
            ? retryAfterDelayMs(outcome.retryAfter)
            : undefined;
        // Stryker disable next-line all: equivalent: retryAfterMs is set only under the fault retry-after-header-obeyed
        if (verdict.retry && !delivery.once && retryAfterMs !== undefined && !this.closed && !endpoint.deleted) {
          // Stryker disable next-line all: equivalent: retryAfterMs is set only under the fault retry-after-header-obeyed
          this.attemptLater(delivery, retryAfterMs);
          return;
        }
        if (verdict.retry && !delivery.once) this.scheduleRetry(delivery, faults, throttled);
      })
      // Stryker disable next-line all: no stated rule: attempts kept in inFlight after they end: memory only
      .finally(() => this.inFlight.delete(running));
    // Stryker disable next-line all: equivalent: inFlight is awaited only at shutdown
    this.inFlight.add(running);
  }

  /** @param throttled fault retry-429-after-1s: the answer was a 429, retried after THROTTLE_BACKOFF_MS */
  private scheduleRetry(delivery: Delivery, faults: FaultSet, throttled = false): void {
    const { endpoint } = delivery;
    // Stryker disable next-line all: equivalent: a deleted endpoint's later attempt is refused by attempt() again
    if (this.closed || endpoint.deleted) return;
    // Fault retry-count-per-endpoint: the schedule position is the endpoint's failure count.
    const position = faults.has('retry-count-per-endpoint')
      ? (endpoint.failuresInARow ?? delivery.failedAttempts)
      : delivery.failedAttempts;
    // Fault retry-scale-of-latest-workspace: the scale read from the process-wide staging setting.
    const timeScale = faults.has('retry-scale-of-latest-workspace')
      ? latestTimeScale.value
      : endpoint.workspace.timeScale;
    const delay = nextRetryDelayMs(position, faults, timeScale, this.options.retryJitter);
    if (delay === null) {
      endpoint.health.recordDrop();
      return;
    }
    // A disabled endpoint gets nothing: the delivery is dropped rather than held.
    if (!endpoint.health.acceptsDeliveries()) return;
    const retried =
      // Stryker disable next-line all: equivalent: retryTo is set only under the fault retry-sent-to-last-endpoint
      delivery.retryTo && delivery.retryTo !== endpoint && !delivery.retryTo.deleted
        ? { ...delivery, endpoint: delivery.retryTo }
        : delivery;
    this.attemptLater(retried, throttled ? THROTTLE_BACKOFF_MS : delay);
  }

  /** An attempt after `delayMs`, cancelled with the endpoint's other pending attempts. */
  private attemptLater(delivery: Delivery, delayMs: number): void {
    const { endpoint } = delivery;
    const timer = this.options.clock.setTimer(delayMs, () => {
      // Stryker disable next-line all: no stated rule: fired timers kept in pendingRetries: memory only
      endpoint.pendingRetries.delete(timer);
      this.attempt(delivery);
      // Fault retry-to-every-subscriber: the retry goes out as the event did, to each of its receivers.
      if (delivery.failedAttempts > 0 && endpoint.workspace.faults.has('retry-to-every-subscriber')) {
        for (const other of this.receivers(endpoint.workspace, delivery.event.type))
          if (other !== endpoint) this.attempt({ event: delivery.event, endpoint: other, failedAttempts: 0 });
      }
    });
    // Stryker disable next-line all: equivalent: a disabled or deleted endpoint's attempt is refused by attempt() again
    endpoint.pendingRetries.add(timer);
  }
}

/** Fault retry-after-header-obeyed: a Retry-After in seconds as a delay, or undefined when it is not a number. */
function retryAfterDelayMs(header: string): number | undefined {
  const seconds = Number(header.trim());
  return header.trim() !== '' && Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

/** The time-out an attempt gets: the declared one, unless a fault makes it 24 s or 37 s whatever is declared. */
function deliveryTimeoutMs(declaredMs: number, faults: FaultSet): number {
  if (faults.has('delivery-timeout-24s')) return 24_000;
  if (faults.has('delivery-timeout-37s')) return 37_000;
  return declaredMs;
}

/** Fault retry-call-metadata-dropped: an event's data without its metadata member. */
function withoutMetadata(data: Record<string, unknown>): Record<string, unknown> {
  const { metadata: _dropped, ...rest } = data;
  return rest;
}
