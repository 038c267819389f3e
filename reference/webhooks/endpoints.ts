import { newId } from '../ids.js';
import type { Clock, TimerHandle } from '../clock.js';
import type { FaultName, FaultSet } from '../faults.js';
import { EndpointHealth } from './endpoint-state.js';
import { EVENT_TYPES, isEventType } from './event-types.js';
import { AUTO_DISABLE_AFTER_MS } from './retry-policy.js';
import { newSigningSecret } from './signing.js';

// The dashboard's webhook page: registration rules (HTTPS, no localhost, 25 active,
// own secret, chosen types or *), and which endpoints an event goes to.

export const MAX_ACTIVE_ENDPOINTS = 25;

/** Fault secret-cached-by-url: the signing secret last registered for each receiver URL. */
export const signingSecretByUrl = new Map<string, string>();

/** What the registry needs to know about a workspace. */
export interface EndpointWorkspace {
  id: string;
  timeScale: number;
  faults: FaultSet;
}

export interface Endpoint {
  id: string;
  workspace: EndpointWorkspace;
  url: URL;
  urlText: string;
  events: readonly string[];
  secret: string;
  health: EndpointHealth;
  /** Retry timers of deliveries waiting for their next attempt. */
  pendingRetries: Set<TimerHandle>;
  deleted: boolean;
  /** Fault event-dedupe-type-second: the key of the last event queued for it. */
  outboxKey?: string;
  /** Fault retry-count-per-endpoint: failed attempts since the last success, any delivery. */
  failuresInARow?: number;
  /** Fault endpoint-deleted-still-delivered: deleted from the dashboard's view only. */
  hidden?: boolean;
}

export type EndpointCreation =
  | { ok: true; endpoint: Endpoint }
  | { ok: false; status: number; code: string; message: string };

export class EndpointRegistry {
  private readonly byWorkspace = new Map<string, Map<string, Endpoint>>();
  /** Fault secret-shared: the one secret per workspace. */
  private readonly sharedSecrets = new Map<string, string>();
  /** Fault endpoint-double-delete-frees-slot: deleted endpoint ids, and the slots their second deletions freed, per workspace. */
  private readonly deletedIds = new Set<string>();
  private readonly extraSlots = new Map<string, number>();
  /** Fault endpoint-limit-counts-deleted: endpoints deleted per workspace, still counted. */
  private readonly deletedCount = new Map<string, number>();
  /** Fault deleted-endpoint-still-delivered: endpoints a deletion only hid, per workspace. */
  private readonly hiddenByWorkspace = new Map<string, Map<string, Endpoint>>();
  /** Fault endpoint-recreate-revives-deleted: the id and secret of deleted endpoints, per workspace and URL. */
  private readonly deletedByUrl = new Map<string, Map<string, { id: string; secret: string }>>();
  /** Fault enable-revives-deleted: deleted endpoints whose row a re-enable brings back, by workspace and endpoint id. */
  private readonly deletedRows = new Map<string, Endpoint>();
  /** Fault replay-to-deleted-endpoint: deleted endpoints as the delivery log remembers them, by workspace and endpoint id. */
  private readonly deliveryLog = new Map<string, Endpoint>();

  constructor(private readonly clock: Clock) {}

  /**
   * @param options.limitChecked the caller has read the count already (fault endpoint-limit-check-then-insert)
   * @param options.emptyEventsAccepted an empty event list subscribes to nothing (the alternate personality), not refused
   * @param options.secret the signing secret, when the caller derived one (fault endpoint-secret-from-count)
   */
  create(
    workspace: EndpointWorkspace,
    url: string,
    events: readonly string[],
    faults: FaultSet,
    options: { limitChecked?: boolean; emptyEventsAccepted?: boolean; secret?: string } = {},
  ): EndpointCreation {
    // Fault endpoint-url-lowercased: the URL is normalised to lower case whole, path included.
    if (faults.has('endpoint-url-lowercased')) url = url.toLowerCase();
    // Fault endpoint-url-percent-decoded: the whole URL goes through decodeURIComponent before it is stored.
    if (faults.has('endpoint-url-percent-decoded'))
      try {
        url = decodeURIComponent(url);
      } catch {
        // left as given when it does not decode
      }
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      // Stryker disable next-line StringLiteral: no stated rule: the refusal's code and message; the contract reads any 4xx as refused
      return { ok: false, status: 422, code: 'invalid_url', message: 'url is not a valid URL' };
    }
    // Fault endpoint-url-trailing-slash: the URL is normalised to a path ending in a slash.
    if (faults.has('endpoint-url-trailing-slash') && !parsed.pathname.endsWith('/')) {
      parsed.pathname += '/';
      url = parsed.href;
    }
    // Fault endpoint-http-uppercase-accepted: plain HTTP is refused by a case-sensitive text check on the URL.
    const httpAllowed =
      (faults.has('accept-http-url') ||
        (faults.has('endpoint-http-uppercase-accepted') && !url.startsWith('http://'))) &&
      // Stryker disable next-line all: equivalent: reached only when a fault above allows plain HTTP
      parsed.protocol === 'http:';
    // Fault endpoint-https-uppercase-refused: the scheme is checked on the URL text, case-sensitively.
    const textRefused = faults.has('endpoint-https-uppercase-refused') && !url.startsWith('https://');
    if ((parsed.protocol !== 'https:' && !httpAllowed) || textRefused) {
      // Stryker disable next-line StringLiteral: no stated rule: the refusal's code and message; the contract reads any 4xx as refused
      return { ok: false, status: 422, code: 'https_required', message: 'endpoint URLs must use https' };
    }
    // Fault endpoint-localhost-port-accepted: the host compared is url.host, which carries an explicit port.
    const written = (faults.has('endpoint-localhost-port-accepted') ? parsed.host : parsed.hostname).toLowerCase();
    // Fault endpoint-localhost-trailing-dot: the hostname is compared as written, trailing dot included.
    // Stryker disable next-line Regex: no stated rule: only a subdomain of localhost changes (a.localhost read as alocalhost); the contract refuses a host that is localhost
    const host = faults.has('endpoint-localhost-trailing-dot') ? written : written.replace(/\.$/, '');
    // Fault endpoint-localhost-case: the URL text is matched, case-sensitively, for an exact localhost host.
    // Fault endpoint-localhost-substring: the URL text is searched for the word, anywhere in it.
    const localhostRefused = faults.has('endpoint-localhost-case')
      ? /^https?:\/\/localhost(?:[:/?#]|$)/.test(url)
      : host === 'localhost' ||
        // Stryker disable next-line MethodExpression: no stated rule: a subdomain of localhost; the contract refuses a host that is localhost
        host.endsWith('.localhost') ||
        (faults.has('endpoint-localhost-substring') && url.toLowerCase().includes('localhost'));
    if (localhostRefused && !faults.has('accept-localhost')) {
      // Stryker disable next-line StringLiteral: no stated rule: the refusal's code and message; the contract reads any 4xx as refused
      return { ok: false, status: 422, code: 'localhost_refused', message: 'endpoint URLs may not point at localhost' };
    }
    // Stryker disable next-line MethodExpression,BlockStatement: no stated rule: an event list that is empty or names no event type; HOOK-REG-EMPTY-EVENTS and HOOK-REG-UNKNOWN-EVENT-TYPE record the choice
    if ((events.length === 0 && !options.emptyEventsAccepted) || !events.every((e) => e === '*' || isEventType(e))) {
      return {
        ok: false,
        status: 422,
        // Stryker disable next-line StringLiteral: no stated rule: the refusal's code and message; the contract reads any 4xx as refused
        code: 'invalid_events',
        // Stryker disable next-line StringLiteral: no stated rule: the refusal's code and message; the contract reads any 4xx as refused
        message: `events must be ["*"] or event types among: ${EVENT_TYPES.join(', ')}`,
      };
    }
    const refusal = options.limitChecked ? undefined : this.limitRefusal(workspace, faults);
    if (refusal) return refusal;
    const endpoints = this.endpointsOf(workspace.id);
    let secret = options.secret ?? newSigningSecret();
    if (faults.has('secret-shared')) {
      secret = this.sharedSecrets.get(workspace.id) ?? secret;
      this.sharedSecrets.set(workspace.id, secret);
    }
    // Fault endpoint-recreate-revives-deleted: an upsert on (workspace, URL) that clears the deleted row's mark.
    const revived = faults.has('endpoint-recreate-revives-deleted')
      ? this.deletedByUrl.get(workspace.id)?.get(url)
      : undefined;
    // Stryker disable next-line all: equivalent: revived is set only under the fault endpoint-recreate-revives-deleted
    if (revived) {
      this.deletedByUrl.get(workspace.id)?.delete(url);
      secret = revived.secret;
    }
    const pendingRetries = new Set<TimerHandle>();
    const endpoint: Endpoint = {
      // Fault endpoint-id-reused-after-delete: the id numbered from the workspace's live endpoint count.
      // Stryker disable next-line StringLiteral: no stated rule: the id's we_ prefix; the contract shows an endpoint id as a string
      id: revived?.id ?? (faults.has('endpoint-id-reused-after-delete') ? `we_${endpoints.size + 1}` : newId('we_')),
      workspace,
      url: parsed,
      urlText: url,
      events: [...new Set(events)],
      secret,
      pendingRetries,
      deleted: false,
      health: new EndpointHealth({
        clock: this.clock,
        disableAfterMs: () => AUTO_DISABLE_AFTER_MS / workspace.timeScale,
        faults: () => workspace.faults,
        // Retries due to a disabled endpoint are dropped (not flagged: not exhausted).
        // Stryker disable next-line ArrowFunction: no stated rule: a disabled endpoint's retries left pending; attempt refuses them while it stays disabled, and the contract says nothing of one due after a re-enable
        onDisabled: () => cancelAll(pendingRetries),
      }),
    };
    endpoints.set(endpoint.id, endpoint);
    if (faults.has('secret-cached-by-url')) signingSecretByUrl.set(endpoint.urlText, endpoint.secret);
    return { ok: true, endpoint };
  }

  /** The dashboard's re-enable of a disabled endpoint. */
  enable(endpoint: Endpoint, faults: FaultSet): void {
    // Stryker disable next-line all: equivalent: read only by the fault enable-toggles and by the guard before fault-only code
    const wasDisabled = endpoint.health.state === 'disabled';
    // Fault enable-toggles: the re-enable flips the state, so an active endpoint is disabled.
    if (faults.has('enable-toggles') && !wasDisabled) {
      endpoint.health.disableForSuspension();
      return;
    }
    endpoint.health.enable();
    // Stryker disable next-line all: equivalent: guards only the faults reenable-resets-subscription and reenable-new-secret
    if (!wasDisabled || endpoint.health.state !== 'active') return;
    // Fault reenable-resets-subscription: the endpoint comes back with the default subscription, not its own.
    if (faults.has('reenable-resets-subscription')) endpoint.events = ['*'];
    // Fault reenable-new-secret: a fresh secret, as if the endpoint were made anew, that nobody is told.
    if (faults.has('reenable-new-secret')) endpoint.secret = newSigningSecret();
  }

  /** The refusal of one more endpoint when the workspace holds its 25 active, else undefined. */
  limitRefusal(workspace: EndpointWorkspace, faults: FaultSet): Extract<EndpointCreation, { ok: false }> | undefined {
    const holdsSlot = (e: Endpoint): boolean =>
      e.health.state === 'active' || faults.has('disabled-endpoint-holds-slot');
    // Fault endpoint-limit-every-workspace: the active endpoints counted without the workspace in the condition.
    const counted = faults.has('endpoint-limit-every-workspace')
      ? [...this.byWorkspace.values()].flatMap((endpoints) =>
          [...endpoints.values()].filter((e) => e.workspace.faults.has('endpoint-limit-every-workspace')),
        )
      : [...this.endpointsOf(workspace.id).values()];
    const holding = counted.filter((e) => !e.hidden && holdsSlot(e));
    // Fault endpoint-limit-distinct-urls: the count is of distinct URLs, not of endpoints.
    const active = faults.has('endpoint-limit-distinct-urls')
      ? new Set(holding.map((e) => e.urlText)).size
      : holding.length;
    const deleted = faults.has('endpoint-limit-counts-deleted') ? (this.deletedCount.get(workspace.id) ?? 0) : 0;
    // Fault endpoint-limit-25th-refused: "at most 25" read as "fewer than 25 before this one is added".
    const base = faults.has('endpoint-limit-25th-refused') ? MAX_ACTIVE_ENDPOINTS - 1 : MAX_ACTIVE_ENDPOINTS;
    const limit =
      // Stryker disable next-line ArithmeticOperator: equivalent: extraSlots and deleted are not zero only under the faults endpoint-double-delete-frees-slot and endpoint-limit-counts-deleted
      (faults.has('endpoint-limit-26') ? MAX_ACTIVE_ENDPOINTS + 1 : base) +
      (this.extraSlots.get(workspace.id) ?? 0) -
      deleted;
    if (active < limit) return undefined;
    return {
      ok: false,
      // Fault endpoint-limit-500: the limit is enforced by a database trigger whose exception is not mapped: 500.
      status: faults.has('endpoint-limit-500') ? 500 : 409,
      // Stryker disable next-line StringLiteral: no stated rule: the refusal's code and message; the contract reads any 4xx as refused
      code: 'endpoint_limit_reached',
      // Stryker disable next-line StringLiteral: no stated rule: the refusal's code and message; the contract reads any 4xx as refused
      message: `at most ${MAX_ACTIVE_ENDPOINTS} active endpoints per workspace`,
    };
  }

  /** How many endpoints the workspace holds now (fault endpoint-secret-from-count). */
  createdCount(workspaceId: string): number {
    return this.endpointsOf(workspaceId).size;
  }

  /** The workspace id of an endpoint of a workspace carrying `fault`, found by its id alone (fault control-ids-any-workspace). */
  ownerOf(endpointId: string, fault: FaultName): string | undefined {
    // Stryker disable all: equivalent: ownerOf serves only the fault control-ids-any-workspace
    for (const [workspaceId, endpoints] of this.byWorkspace) {
      if (endpoints.get(endpointId)?.workspace.faults.has(fault)) return workspaceId;
    }
    // Stryker restore all
    return undefined;
  }

  /** Faults replay-any-workspace and endpoint-read-any-workspace: an endpoint of any workspace carrying the fault, found by its id alone. */
  getAnywhere(endpointId: string, fault: FaultName = 'replay-any-workspace'): Endpoint | undefined {
    for (const endpoints of this.byWorkspace.values()) {
      const endpoint = endpoints.get(endpointId);
      if (endpoint?.workspace.faults.has(fault) && !(fault === 'endpoint-read-any-workspace' && endpoint.hidden))
        return endpoint;
    }
    return undefined;
  }

  get(workspaceId: string, endpointId: string): Endpoint | undefined {
    const endpoint = this.byWorkspace.get(workspaceId)?.get(endpointId);
    return endpoint?.hidden ? undefined : endpoint;
  }

  delete(workspaceId: string, endpointId: string, faults: FaultSet): boolean {
    let endpoint = this.get(workspaceId, endpointId);
    // Fault endpoint-delete-removes-last: the list is spliced at indexOf(id) over the endpoint objects, -1, so the
    // last-created endpoint goes (the one named, when it is the last).
    if (endpoint && faults.has('endpoint-delete-removes-last')) endpoint = this.allOf(workspaceId).at(-1) ?? endpoint;
    // Fault disabled-endpoint-undeletable: the delete looks the endpoint up among the workspace's active ones.
    if (endpoint && faults.has('disabled-endpoint-undeletable') && endpoint.health.state !== 'active')
      endpoint = undefined;
    if (!endpoint) {
      // Stryker disable next-line all: equivalent: the fault endpoint-double-delete-frees-slot's own condition
      if (faults.has('endpoint-double-delete-frees-slot') && this.deletedIds.has(endpointId))
        this.extraSlots.set(workspaceId, (this.extraSlots.get(workspaceId) ?? 0) + 1);
      // Stryker disable next-line BooleanLiteral: no stated rule: the answer to deleting an unknown or deleted endpoint; the contract states the 204 for an endpoint
      return false;
    }
    if (faults.has('endpoint-deleted-still-delivered')) {
      // Fault: the dashboard's row goes, the dispatcher's subscriber entry stays.
      endpoint.hidden = true;
      return true;
    }
    this.byWorkspace.get(workspaceId)?.delete(endpoint.id);
    if (faults.has('endpoint-double-delete-frees-slot')) this.deletedIds.add(endpointId);
    if (faults.has('endpoint-limit-counts-deleted'))
      this.deletedCount.set(workspaceId, (this.deletedCount.get(workspaceId) ?? 0) + 1);
    if (faults.has('deleted-endpoint-still-delivered')) {
      // A soft delete: gone from the page, the subscriptions and the limit, but the retry
      // timers it holds keep running and a replay still finds it.
      let hidden = this.hiddenByWorkspace.get(workspaceId);
      if (!hidden) this.hiddenByWorkspace.set(workspaceId, (hidden = new Map()));
      hidden.set(endpointId, endpoint);
      return true;
    }
    this.retire(endpoint);
    // Fault endpoint-delete-cancels-workspace-retries: the retry timers are cancelled by workspace, not by endpoint.
    if (faults.has('endpoint-delete-cancels-workspace-retries'))
      for (const other of this.allOf(workspaceId)) cancelAll(other.pendingRetries);
    // Fault replay-to-deleted-endpoint: the delivery log keeps its copy of the endpoint.
    if (faults.has('replay-to-deleted-endpoint')) this.deliveryLog.set(`${workspaceId}/${endpoint.id}`, endpoint);
    // Fault enable-revives-deleted: the deletion only writes the status column, which a re-enable overwrites.
    if (faults.has('enable-revives-deleted')) this.deletedRows.set(`${workspaceId}/${endpointId}`, endpoint);
    // Fault endpoint-delete-by-url: the delete's condition is the workspace and the URL, not the endpoint.
    if (faults.has('endpoint-delete-by-url')) {
      for (const other of this.allOf(workspaceId)) {
        if (other.urlText !== endpoint.urlText || other.hidden) continue;
        this.byWorkspace.get(workspaceId)?.delete(other.id);
        this.retire(other);
      }
    }
    if (faults.has('endpoint-recreate-revives-deleted')) {
      // Fault: a soft delete, whose row a later registration of the same URL restores.
      let deleted = this.deletedByUrl.get(workspaceId);
      if (!deleted) this.deletedByUrl.set(workspaceId, (deleted = new Map()));
      deleted.set(endpoint.urlText, { id: endpoint.id, secret: endpoint.secret });
    }
    return true;
  }

  /** Fault enable-revives-deleted: the deleted endpoint back in its workspace, as a re-enable finds its row. */
  revive(workspaceId: string, endpointId: string): Endpoint | undefined {
    const key = `${workspaceId}/${endpointId}`;
    const endpoint = this.deletedRows.get(key);
    if (!endpoint) return undefined;
    this.deletedRows.delete(key);
    endpoint.deleted = false;
    this.endpointsOf(workspaceId).set(endpoint.id, endpoint);
    return endpoint;
  }

  /** Fault replay-to-deleted-endpoint: the delivery log's copy of a deleted endpoint, sendable again. */
  fromDeliveryLog(workspaceId: string, endpointId: string): Endpoint | undefined {
    const logged = this.deliveryLog.get(`${workspaceId}/${endpointId}`);
    if (!logged) return undefined;
    return {
      ...logged,
      deleted: false,
      pendingRetries: new Set(),
      health: new EndpointHealth({
        clock: this.clock,
        disableAfterMs: () => AUTO_DISABLE_AFTER_MS / logged.workspace.timeScale,
        faults: () => logged.workspace.faults,
      }),
    };
  }

  /** A deleted endpoint that a replay still finds under fault deleted-endpoint-still-delivered. */
  hidden(workspaceId: string, endpointId: string): Endpoint | undefined {
    return this.hiddenByWorkspace.get(workspaceId)?.get(endpointId);
  }

  deleteWorkspace(workspaceId: string): void {
    // Fault workspace-delete-removes-shared-url-endpoints: the clean-up deletes endpoints by their receiver URL.
    for (const endpoint of this.byWorkspace.get(workspaceId)?.values() ?? [])
      if (endpoint.workspace.faults.has('workspace-delete-removes-shared-url-endpoints'))
        for (const [otherId, others] of this.byWorkspace)
          for (const other of [...others.values()])
            if (
              otherId !== workspaceId &&
              other.urlText === endpoint.urlText &&
              other.workspace.faults.has('workspace-delete-removes-shared-url-endpoints')
            ) {
              others.delete(other.id);
              this.retire(other);
            }
    // Fault delete-workspace-retries-sent: the workspace's rows go, but its endpoints' retry timers are left running.
    for (const endpoint of this.byWorkspace.get(workspaceId)?.values() ?? [])
      if (!endpoint.workspace.faults.has('delete-workspace-retries-sent')) this.retire(endpoint);
    // Stryker disable next-line CallExpression: equivalent: hidden endpoints exist only under fault endpoint-deleted-still-delivered
    for (const endpoint of this.hiddenByWorkspace.get(workspaceId)?.values() ?? []) this.retire(endpoint);
    // Stryker disable CallExpression: no stated rule: a deleted workspace's map entries kept, memory only: no request names the workspace again
    this.byWorkspace.delete(workspaceId);
    this.hiddenByWorkspace.delete(workspaceId);
    this.sharedSecrets.delete(workspaceId);
    this.extraSlots.delete(workspaceId);
    this.deletedCount.delete(workspaceId);
    this.deletedByUrl.delete(workspaceId);
    // Stryker restore CallExpression
    // Stryker disable next-line all: equivalent: deletedRows is filled only under the fault enable-revives-deleted
    for (const key of [...this.deletedRows.keys()]) if (key.startsWith(`${workspaceId}/`)) this.deletedRows.delete(key);
    // Stryker disable next-line all: equivalent: deliveryLog is filled only under the fault replay-to-deleted-endpoint
    for (const key of [...this.deliveryLog.keys()]) if (key.startsWith(`${workspaceId}/`)) this.deliveryLog.delete(key);
  }

  /** Every endpoint of the workspace, whatever its state (fault enable-enables-all). */
  allOf(workspaceId: string): Endpoint[] {
    // Stryker disable next-line ArrayDeclaration: equivalent: allOf serves only the faults enable-enables-all and endpoint-delete-removes-last
    return [...(this.byWorkspace.get(workspaceId)?.values() ?? [])];
  }

  /** Endpoints of the workspace subscribed to `type`. */
  subscribers(workspace: EndpointWorkspace, type: string): Endpoint[] {
    const endpoints = this.byWorkspace.get(workspace.id);
    // Stryker disable next-line ConditionalExpression: equivalent: an empty map loops over nothing and returns the same empty list
    if (!endpoints || endpoints.size === 0) return [];
    const faults = workspace.faults;
    const result: Endpoint[] = [];
    // Fault subscription-filter-hoisted: the filter's event list read once, from the first endpoint, outside the loop.
    const hoisted = faults.has('subscription-filter-hoisted') ? endpoints.values().next().value?.events : undefined;
    // Fault subscription-keyed-by-url: each URL's subscription row holds the event types last registered for it.
    const byUrl = faults.has('subscription-keyed-by-url')
      ? new Map([...endpoints.values()].map((e) => [e.urlText, e.events]))
      : undefined;
    for (const endpoint of endpoints.values()) {
      if (!subscribes(hoisted ?? byUrl?.get(endpoint.urlText) ?? endpoint.events, type, faults)) continue;
      result.push(endpoint);
      // Fault wildcard-and-type-delivered-twice: one row per matching subscription entry (a join, no DISTINCT).
      if (
        faults.has('wildcard-and-type-delivered-twice') &&
        endpoint.events.includes('*') &&
        endpoint.events.includes(type)
      )
        result.push(endpoint);
    }
    return result;
  }

  /** Fault events-to-every-workspace: the subscribers of every other workspace that carries the fault too. */
  foreignSubscribers(workspace: EndpointWorkspace, type: string): Endpoint[] {
    const result: Endpoint[] = [];
    for (const [workspaceId, endpoints] of this.byWorkspace) {
      if (workspaceId === workspace.id) continue;
      for (const endpoint of endpoints.values()) {
        if (
          endpoint.workspace.faults.has('events-to-every-workspace') &&
          subscribes(endpoint.events, type, endpoint.workspace.faults)
        )
          result.push(endpoint);
      }
    }
    return result;
  }

  // Stryker disable all: equivalent: closeAll runs at the reference's shutdown, which no check observes
  closeAll(): void {
    for (const workspaceId of [...this.byWorkspace.keys()]) this.deleteWorkspace(workspaceId);
  }
  // Stryker restore all

  private endpointsOf(workspaceId: string): Map<string, Endpoint> {
    let endpoints = this.byWorkspace.get(workspaceId);
    if (!endpoints) this.byWorkspace.set(workspaceId, (endpoints = new Map()));
    return endpoints;
  }

  private retire(endpoint: Endpoint): void {
    // Fault deleted-endpoint-in-flight-retried: only the rows go; the endpoint object is not marked.
    endpoint.deleted = !endpoint.workspace.faults.has('deleted-endpoint-in-flight-retried');
    // Stryker disable next-line CallExpression: equivalent: a deleted endpoint's health timers; the endpoint is marked deleted and attempt refuses it
    endpoint.health.dispose();
    // Stryker disable next-line CallExpression: equivalent: a deleted endpoint's retries left pending; the endpoint is marked deleted and attempt refuses them
    cancelAll(endpoint.pendingRetries);
  }
}

export function subscribes(events: readonly string[], type: string, faults: FaultSet): boolean {
  if (faults.has('subscriptions-ignored')) return true;
  if (faults.has('subscription-family-match') && events.some((e) => e !== '*' && typeFamily(e) === typeFamily(type)))
    return true;
  // Fault subscription-first-type-only: the filter reads the first listed type only.
  if (faults.has('subscription-first-type-only') && !events.includes('*')) return events[0] === type;
  // Fault subscription-workspace-type-unmatched: the subscription index has product keys (voice, mailer) only.
  if (faults.has('subscription-workspace-type-unmatched') && type.startsWith('workspace.') && !events.includes('*'))
    return false;
  if (events.includes(type)) return true;
  if (!events.includes('*')) return false;
  // Fault wildcard-missing-workspace-events: * is expanded to the product prefixes voice. and mailer.
  if (faults.has('wildcard-missing-workspace-events') && !type.startsWith('voice.') && !type.startsWith('mailer.'))
    return false;
  return !(faults.has('wildcard-missing-mailer') && type.startsWith('mailer.'));
}

// Stryker disable all: no stated rule: a disabled endpoint's retries left pending (see onDisabled); a deleted one's are refused by attempt
function cancelAll(timers: Set<TimerHandle>): void {
  for (const timer of timers) timer.cancel();
  timers.clear();
}
// Stryker restore all

/** Fault subscription-family-match: the first two segments of an event type (`voice.call`). */
function typeFamily(type: string): string {
  return type.split('.').slice(0, 2).join('.');
}
