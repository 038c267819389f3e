/**
 * Webhook endpoint registration (Events > Endpoint registration rules; Limits): HTTPS
 * only, no localhost, at most 25 active endpoints, and a signing secret of its own per
 * endpoint. Refusals are any 4xx of the control interface (contracts/control-interface.md).
 */
import { ControlError, ControlUnsupported } from '../src/errors.js';
import { assert, certifySuite, check, type CheckContext, type TestWorkspace } from '../src/suite/index.js';
import {
  CALL_EVENTS_TIMEOUT_MS,
  DELIVERY_TIMEOUT_MS,
  FIRED_TYPES,
  firedData,
  idOf,
  ofCall,
  placeCall,
  settle,
  typeCounts,
} from '../src/suite/webhook-observation/events.js';
import { describeBadSignature, verifiesWith } from '../src/suite/webhook-observation/signature.js';
import type { HookedEndpoint } from '../src/suite/webhooks.js';
import type { CapturedDelivery } from '../src/capturing-receiver/types.js';
import { sleep } from '../src/clock/wait.js';

const LIMIT = 25;
/** Creations sent at once beside 24 active endpoints: one free slot, three too many. */
const CONCURRENT_CREATIONS = 4;
/** Endpoints created at once whose signing secrets must all differ. */
const CONCURRENT_SECRETS = 4;
const OWN_SECRET_TYPE = 'workspace.plan.upgraded';
/** HOOK-SAME-URL-EACH-ENDPOINT: the type only the first of two endpoints at one URL subscribes to. */
const FIRST_ONLY_TYPE = 'mailer.campaign.completed';
/** How long an endpoint that must get nothing is still watched once its wildcard companion has everything. */
const QUIET_WATCH_MS = 1_000;

type Registration =
  | { accepted: true; endpointId: string }
  | { accepted: false; status: number | undefined; code: string | undefined };

/** Tries to register `url`; a 4xx is a refusal, anything else that is not a 2xx fails the check. */
async function register(t: CheckContext, workspace: TestWorkspace, url: string, what: string): Promise<Registration> {
  try {
    const created = await workspace.createEndpoint(url, ['*']);
    return { accepted: true, endpointId: created.endpointId };
  } catch (error) {
    if (error instanceof ControlError && error.refused)
      return { accepted: false, status: error.status, code: error.targetCode };
    if (error instanceof ControlUnsupported) throw error; // the adapter could not ask: a skip, not a verdict
    t.fail(`${what}: expected a 4xx refusal or a 2xx, got ${(error as Error).message}`);
  }
}

function refusal(result: Registration): string {
  return result.accepted ? 'accepted' : `refused with ${result.status}${result.code ? ` ${result.code}` : ''}`;
}

/**
 * Each endpoint's secret differs from the others' (compared here, never printed), and one event
 * fired to all of them arrives at each signed with its own secret and with no other's. Answers
 * the fired event's id.
 */
async function expectOwnSecrets(
  workspace: TestWorkspace,
  hooks: readonly HookedEndpoint[],
  what: string,
): Promise<string> {
  const secrets = hooks.map((hook) => hook.registered.secret);
  const shared = secrets.flatMap((secret, i) =>
    secrets.indexOf(secret) < i ? [`${secrets.indexOf(secret) + 1} and ${i + 1}`] : [],
  );
  assert(shared.length === 0, `${what} were given the same signing secret (endpoints ${shared.join(', ')})`);
  const eventId = await workspace.fireEvent(OWN_SECRET_TYPE, firedData(OWN_SECRET_TYPE));
  for (const [index, own] of hooks.entries()) {
    const name = `endpoint ${index + 1} of ${what}`;
    const others = secrets.filter((_, i) => i !== index);
    const { deliveries, timedOut } = await settle(
      own.inbox,
      (ds) => ds.some((d) => idOf(d) === eventId),
      DELIVERY_TIMEOUT_MS,
      `${OWN_SECRET_TYPE} ${eventId}`,
    );
    assert(!timedOut, `${name} received no delivery of ${OWN_SECRET_TYPE} ${eventId} within ${DELIVERY_TIMEOUT_MS} ms`);
    const delivery = deliveries.find((d) => idOf(d) === eventId);
    assert(delivery, `${name}: its delivery of ${eventId} is gone`);
    assert(
      verifiesWith(own.registered.secret, delivery),
      `${name}: its delivery does not verify with its own secret (${describeBadSignature(own.registered.secret, delivery, others)})`,
    );
    const alsoOther = others.findIndex((secret) => verifiesWith(secret, delivery));
    assert(alsoOther === -1, `${name}: its delivery also verifies with another endpoint's secret`);
  }
  return eventId;
}

certifySuite('webhook-registration', () => {
  check('HOOK-REG-HTTPS-ONLY', async (t) => {
    const workspace = await t.workspace();
    const receiver = await t.receiver();
    const https = new URL(receiver.publicUrl);
    // The scheme in capitals too: a scheme is case-insensitive, and a check of the text's "http://" misses it (round 18).
    const candidates = [
      `http://${https.host}/certify-plain-http`,
      `http://example.com/certify-plain-http`,
      `HTTP://${https.host}/certify-plain-http`,
      `Http://example.com/certify-plain-http`,
    ];
    const results: Record<string, string> = {};
    for (const url of candidates) {
      const result = await register(t, workspace, url, `registering ${url}`);
      results[url] = refusal(result);
      assert(!result.accepted, `an http:// endpoint URL (${url}) was accepted: expected a 4xx refusal`);
    }
    t.measure('answers', results);
    t.detail(
      Object.entries(results)
        .map(([url, answer]) => `${url} ${answer}`)
        .join('; '),
    );
  });

  check('HOOK-REG-LOCALHOST', async (t) => {
    const workspace = await t.workspace();
    const receiver = await t.receiver();
    const port = new URL(receiver.publicUrl).port || '443';
    const candidates = [
      `https://localhost:${port}/certify-localhost`,
      `https://LOCALHOST:${port}/certify-localhost-upper`,
      // The fully qualified form names the same host (round 19 compared the text with its dot).
      `https://localhost.:${port}/certify-localhost-dot`,
    ];
    const results: Record<string, string> = {};
    for (const url of candidates) {
      const result = await register(t, workspace, url, `registering ${url}`);
      results[url] = refusal(result);
      assert(
        !result.accepted,
        `an endpoint URL on localhost (${url}) was accepted: expected a 4xx refusal (host names are case-insensitive)`,
      );
    }
    // The rule is about the host: "localhost" in the path or query of another host is a URL like any other.
    const notLocal = `${receiver.publicUrl}/certify/localhost-relay?next=localhost`;
    const other = await register(t, workspace, notLocal, `registering ${notLocal}`);
    results[notLocal] = refusal(other);
    t.measure('answers', results);
    assert(
      other.accepted,
      `an endpoint URL whose host is not localhost, only its path and query naming it (${notLocal}), was ${refusal(other)}: only a URL whose host is localhost is refused`,
    );
    t.detail(
      Object.entries(results)
        .map(([url, answer]) => `${url} ${answer}`)
        .join('; '),
    );
  });

  // "URL must use HTTPS": a scheme is case-insensitive (RFC 3986, 3.1), so HTTPS:// is HTTPS.
  check('HOOK-REG-SCHEME-CASE', async (t) => {
    const workspace = await t.workspace();
    const receiver = await t.receiver();
    const url = `${receiver.publicUrl.replace(/^https:/i, 'HTTPS:')}/certify-scheme-case`;
    const result = await register(t, workspace, url, `registering ${url}`);
    t.measure('answer', refusal(result));
    assert(
      result.accepted,
      `an HTTPS endpoint URL with its scheme in capitals (${url}) was ${refusal(result)}: a URL's scheme is case-insensitive, and this one is HTTPS`,
    );
    t.detail(`${url} accepted`);
  });

  check(
    'HOOK-REG-LIMIT-25',
    async (t) => {
      const workspace = await t.workspace();
      const receiver = await t.receiver();
      // No event is fired in this workspace, so these paths never receive anything.
      const url = (i: number) => `${receiver.publicUrl}/certify-limit/${Math.random().toString(36).slice(2, 8)}/${i}`;
      const ids: string[] = [];
      const firstUrl = url(1);
      // The second shares the first one's URL where the service takes that (HOOK-DELETE-ONE-ENDPOINT):
      // the limit counts endpoints, not distinct URLs.
      let sharedUrl = 'not tried';
      for (let i = 1; i <= LIMIT; i++) {
        let result = await register(
          t,
          workspace,
          i <= 2 ? firstUrl : url(i),
          `registering active endpoint ${i} of ${LIMIT}`,
        );
        if (i === 2) {
          sharedUrl = refusal(result);
          if (!result.accepted)
            result = await register(t, workspace, url(i), `registering active endpoint ${i} of ${LIMIT}`);
        }
        assert(
          result.accepted,
          `endpoint ${i} of ${LIMIT} was ${refusal(result)}: the spec allows 25 active endpoints`,
        );
        ids.push(result.endpointId);
      }
      t.measure('second_at_first_url', sharedUrl);
      const extra = await register(t, workspace, url(LIMIT + 1), 'registering a 26th active endpoint');
      assert(
        !extra.accepted,
        `a 26th active endpoint was accepted${sharedUrl === 'accepted' ? ' (two of the 25 share a URL: the limit counts endpoints, not distinct URLs)' : ''}: expected a 4xx refusal`,
      );
      // A 26th at a URL already registered is refused too.
      const atFirstUrl = await register(
        t,
        workspace,
        firstUrl,
        "registering a 26th active endpoint at the first one's URL",
      );
      assert(
        !atFirstUrl.accepted,
        'a 26th active endpoint at the URL of one of the 25 was accepted: the limit counts endpoints, not distinct URLs',
      );
      // The limit is the workspace's: another workspace takes its first endpoint while this one is full.
      const other = await t.workspace();
      const elsewhere = await register(t, other, url(LIMIT + 3), "registering another workspace's first endpoint");
      assert(
        elsewhere.accepted,
        `with one workspace at its 25 endpoints, another workspace's first endpoint was ${refusal(elsewhere)}: the limit counted beyond the workspace`,
      );
      const first = ids[0];
      assert(first, 'no endpoint id was kept');
      await workspace.deleteEndpoint(first);
      const replacement = await register(
        t,
        workspace,
        url(LIMIT + 2),
        'registering an endpoint after deleting one of 25',
      );
      assert(
        replacement.accepted,
        `after deleting one of 25 endpoints a new one was ${refusal(replacement)}: expected it accepted`,
      );
      t.measure('refusal_status', extra.accepted ? null : extra.status);
      t.detail(
        `25 accepted (the second at the first one's URL: ${sharedUrl}); the 26th ${refusal(extra)}, and at the first one's URL ${refusal(atFirstUrl)}; another workspace's first accepted meanwhile; a new one accepted after deleting one`,
      );
    },
    { timeoutMs: 60_000 },
  );

  check(
    'HOOK-REG-LIMIT-CONCURRENT',
    async (t) => {
      const workspace = await t.workspace();
      const receiver = await t.receiver();
      // No event is fired in this workspace, so these paths never receive anything.
      const url = (i: number) =>
        `${receiver.publicUrl}/certify-limit-concurrent/${Math.random().toString(36).slice(2, 8)}/${i}`;
      const ids: string[] = [];
      for (let i = 1; i < LIMIT; i++) {
        const result = await register(t, workspace, url(i), `registering active endpoint ${i} of ${LIMIT - 1}`);
        assert(
          result.accepted,
          `endpoint ${i} of ${LIMIT - 1} was ${refusal(result)}: the spec allows 25 active endpoints`,
        );
        ids.push(result.endpointId);
      }
      const outcomes = await Promise.all(
        Array.from({ length: CONCURRENT_CREATIONS }, (_, k) =>
          register(
            t,
            workspace,
            url(LIMIT + k),
            `registering endpoint ${LIMIT + k} at once with ${CONCURRENT_CREATIONS - 1} others`,
          ),
        ),
      );
      const granted = outcomes.flatMap((outcome) => (outcome.accepted ? [outcome.endpointId] : []));
      // Once every creation has answered, the endpoints' own states say how many are active.
      const all = [...ids, ...granted];
      const states = await Promise.all(
        all.map(async (id) => {
          try {
            return (await workspace.getEndpoint(id)).state;
          } catch (error) {
            if (error instanceof ControlError && error.refused) return `unreadable (${error.status})`;
            throw error;
          }
        }),
      );
      const active = states.filter((state) => state === 'active').length;
      t.measure('granted', granted.length);
      t.measure('refusals', outcomes.filter((outcome) => !outcome.accepted).map(refusal));
      t.measure('active_after', active);
      assert(
        active <= LIMIT,
        `${granted.length} of ${CONCURRENT_CREATIONS} endpoint creations sent at once beside ${LIMIT - 1} active endpoints were granted, and ${active} endpoints read active afterwards: at most ${LIMIT} active endpoints per workspace`,
      );
      assert(new Set(all).size === all.length, 'two endpoints created at once were given the same endpoint_id');
      t.detail(
        `${CONCURRENT_CREATIONS} creations at once beside ${LIMIT - 1} active endpoints: ${granted.length} granted; ${active} endpoints read active afterwards`,
      );
    },
    { timeoutMs: 60_000 },
  );

  // "`events`: event types, or `["*"]`": a name that is no event type is not named. Refusing it, or
  // keeping it as a subscription nothing matches, are both reasonable; which one is recorded.
  check('HOOK-REG-UNKNOWN-EVENT-TYPE', async (t) => {
    const workspace = await t.workspace();
    const receiver = await t.receiver();
    const unknownType = 'voice.call.teleported';
    try {
      const created = await workspace.createEndpoint(`${receiver.publicUrl}/certify-unknown-type`, [unknownType]);
      const read = await workspace.getEndpoint(created.endpointId);
      t.measure('creation', 'created');
      t.measure('events_read', read.events);
      t.detail(
        `an endpoint registered on ${unknownType} was created; its events read back as ${JSON.stringify(read.events).slice(0, 200)}`,
      );
    } catch (error) {
      if (!(error instanceof ControlError) || !error.refused) throw error;
      t.measure('creation', `refused ${error.status}`);
      t.detail(`an endpoint registered on ${unknownType}, no event type, was refused with ${error.status}`);
    }
  });

  // The wildcard is a subscription of its own (it takes types added later): it reads back as `*`,
  // not as today's list of types.
  check('HOOK-WILDCARD-READ-BACK', async (t) => {
    const workspace = await t.workspace();
    const receiver = await t.receiver();
    const created = await workspace.createEndpoint(`${receiver.publicUrl}/certify-wildcard-read`, ['*']);
    const read = await workspace.getEndpoint(created.endpointId);
    t.measure('events_read', read.events);
    assert(
      read.events.length === 1 && read.events[0] === '*',
      `an endpoint registered with events ["*"] reads back as ${JSON.stringify(read.events).slice(0, 300)}: the wildcard is a subscription of its own, read back as given`,
    );
    t.detail('an endpoint registered on * reads back as ["*"]');
  });

  check('HOOK-REG-EMPTY-EVENTS', async (t) => {
    const { workspace, token } = await t.workspaceWithToken({ callProgress: 'auto' });
    let empty: HookedEndpoint;
    try {
      empty = await t.hookEndpoint(workspace, []);
    } catch (error) {
      if (!(error instanceof ControlError) || !error.refused) throw error;
      t.measure('creation', `refused ${error.status}`);
      t.detail(`an endpoint with events [] was refused with ${error.status}`);
      return;
    }
    t.measure('creation', 'created');
    // A companion on * shows when every caused event has been dispatched to the workspace's endpoints.
    const everything = await t.hookEndpoint(workspace, ['*']);
    const fired: string[] = [];
    for (const type of FIRED_TYPES) fired.push(await workspace.fireEvent(type, firedData(type)));
    const call = await placeCall(t, workspace, token.token);
    const caused = (ds: readonly CapturedDelivery[]) =>
      fired.every((id) => ds.some((d) => idOf(d) === id)) &&
      ds.some(ofCall(call.callId, 'voice.call.queued')) &&
      ds.some(ofCall(call.callId, 'voice.call.completed'));
    const all = await settle(
      everything.inbox,
      caused,
      CALL_EVENTS_TIMEOUT_MS,
      'every caused event at the companion endpoint',
    );
    assert(
      !all.timedOut,
      `the companion endpoint on * did not receive everything caused within ${CALL_EVENTS_TIMEOUT_MS} ms (arrived: ${typeCounts(all.deliveries)}), so the empty subscription cannot be judged`,
    );
    await sleep(QUIET_WATCH_MS);
    const received = empty.inbox.deliveries;
    t.measure('received', received.length);
    assert(
      received.length === 0,
      `an endpoint created with events [] received ${typeCounts(received)}: it subscribed to no event type`,
    );
    t.detail(
      `an endpoint with events [] was created and received nothing, while its * companion got ${typeCounts(everything.inbox.deliveries)}`,
    );
  });

  check('HOOK-OWN-SECRET', async (t) => {
    const workspace = await t.workspace();
    const hooks = [
      await t.hookEndpoint(workspace, [OWN_SECRET_TYPE]),
      await t.hookEndpoint(workspace, [OWN_SECRET_TYPE]),
    ];
    const eventId = await expectOwnSecrets(workspace, hooks, 'two endpoints of one workspace');
    t.detail(`two endpoints, two different secrets; ${eventId} verified at each with its own secret only`);
  });

  // Deleting an endpoint and registering its URL again is how a leaked secret is replaced: the
  // new endpoint must not come back with the deleted one's secret (an upsert on workspace and URL).
  check('HOOK-RECREATED-OWN-SECRET', async (t) => {
    const workspace = await t.workspace();
    const deleted = await t.hookEndpoint(workspace, [OWN_SECRET_TYPE]);
    await workspace.deleteEndpoint(deleted.registered.endpointId);
    const again = await workspace.createEndpoint(deleted.registered.url ?? deleted.inbox.url, [OWN_SECRET_TYPE]);
    t.measure('same_id_as_deleted', again.endpointId === deleted.registered.endpointId);
    // Compared here, never printed.
    assert(
      again.secret !== deleted.registered.secret,
      `the deleted endpoint's URL registered again came back with the deleted endpoint's signing secret${again.endpointId === deleted.registered.endpointId ? ' and id' : ''}: each endpoint has its own secret`,
    );
    t.detail(
      `an endpoint deleted, its URL registered again: a new secret${again.endpointId === deleted.registered.endpointId ? ', the same id' : ' and a new id'}`,
    );
  });

  // Two endpoints of one workspace at one URL are two endpoints: each gets each event it subscribes
  // to, signed with its own secret (round 18 delivered once per URL, "to the receiver"), and each
  // keeps its own subscription (round 24 filtered the first by the second's types).
  check('HOOK-SAME-URL-EACH-ENDPOINT', async (t) => {
    const workspace = await t.workspace();
    const first = await t.hookEndpoint(workspace, [OWN_SECRET_TYPE, FIRST_ONLY_TYPE]);
    const url = first.registered.url ?? first.inbox.url;
    let second: Awaited<ReturnType<typeof workspace.createEndpoint>>;
    try {
      second = await workspace.createEndpoint(url, [OWN_SECRET_TYPE]);
    } catch (error) {
      if (!(error instanceof ControlError) || !error.refused) throw error;
      t.measure('same_url_again', `refused ${error.status}`);
      return t.detail(`a second endpoint at the same URL was refused with ${error.status}: nothing to deliver twice`);
    }
    t.measure('same_url_again', 'created');
    // Both endpoints' deliveries are acknowledged, whichever secret signed them.
    first.inbox.respond({ always: true, status: 204 });
    const eventId = await workspace.fireEvent(OWN_SECRET_TYPE, firedData(OWN_SECRET_TYPE));
    const secrets = { first: first.registered.secret, second: second.secret };
    const signedFor = (ds: readonly CapturedDelivery[], secret: string) =>
      ds.some((d) => idOf(d) === eventId && verifiesWith(secret, d));
    const got = await settle(
      first.inbox,
      (ds) => signedFor(ds, secrets.first) && signedFor(ds, secrets.second),
      DELIVERY_TIMEOUT_MS,
      `${eventId} for each endpoint at the shared URL`,
    );
    const copies = got.deliveries.filter((d) => idOf(d) === eventId).length;
    t.measure('arrivals', copies);
    // Compared here, never printed.
    const missing = (['first', 'second'] as const).filter((name) => !signedFor(got.deliveries, secrets[name]));
    assert(
      missing.length === 0,
      `two endpoints of one workspace at one URL, both subscribed: ${eventId} arrived ${copies} time(s) within ${DELIVERY_TIMEOUT_MS} ms, none signed with the ${missing.join(' or ')} endpoint's secret; each endpoint gets each event it subscribes to`,
    );
    const firstOnlyId = await workspace.fireEvent(FIRST_ONLY_TYPE, firedData(FIRST_ONLY_TYPE));
    const ownType = await settle(
      first.inbox,
      (ds) => ds.some((d) => idOf(d) === firstOnlyId && verifiesWith(secrets.first, d)),
      DELIVERY_TIMEOUT_MS,
      `${FIRST_ONLY_TYPE} for the first endpoint at the shared URL`,
    );
    assert(
      !ownType.timedOut,
      `two endpoints of one workspace at one URL, the first subscribed to ${OWN_SECRET_TYPE} and ${FIRST_ONLY_TYPE}, the second to ${OWN_SECRET_TYPE} only: ${firstOnlyId} (${FIRST_ONLY_TYPE}) did not arrive for the first within ${DELIVERY_TIMEOUT_MS} ms; each endpoint keeps its own subscription`,
    );
    t.detail(
      `two endpoints at one URL: ${eventId} arrived once for each, signed with its own secret; ${FIRST_ONLY_TYPE}, to which the first alone subscribed, arrived for it`,
    );
  });

  // A deletion names one endpoint by its id: another endpoint of the workspace at the same URL
  // (a second subscription, a staging and a canary handler behind one path) stays.
  check('HOOK-DELETE-ONE-ENDPOINT', async (t) => {
    const workspace = await t.workspace();
    const deleted = await t.hookEndpoint(workspace, [OWN_SECRET_TYPE]);
    const url = deleted.registered.url ?? deleted.inbox.url;
    let kept: Awaited<ReturnType<typeof workspace.createEndpoint>>;
    try {
      kept = await workspace.createEndpoint(url, [OWN_SECRET_TYPE]);
    } catch (error) {
      if (!(error instanceof ControlError) || !error.refused) throw error;
      t.measure('same_url_again', `refused ${error.status}`);
      return t.detail(`a second endpoint at the same URL was refused with ${error.status}: nothing to delete apart`);
    }
    await workspace.deleteEndpoint(deleted.registered.endpointId);
    const eventId = await workspace.fireEvent(OWN_SECRET_TYPE, firedData(OWN_SECRET_TYPE));
    const arrived = await settle(
      deleted.inbox,
      (ds) => ds.some((d) => idOf(d) === eventId),
      DELIVERY_TIMEOUT_MS,
      `${eventId} at the endpoint kept`,
    );
    assert(
      !arrived.timedOut,
      `two endpoints at one URL, one deleted by its id: the other received nothing of ${eventId} within ${DELIVERY_TIMEOUT_MS} ms (a deletion by URL takes both)`,
    );
    await sleep(QUIET_WATCH_MS);
    const copies = deleted.inbox.deliveries.filter((d) => idOf(d) === eventId);
    assert(
      copies.every((d) => verifiesWith(kept.secret, d)),
      `${eventId} arrived ${copies.length} time(s) at the shared URL, not all signed with the kept endpoint's secret: the deleted endpoint still got it`,
    );
    t.detail(`two endpoints at one URL, one deleted by its id: ${eventId} arrived once, for the endpoint kept`);
  });

  // Re-enabling is for a disabled endpoint; asked of an active one, it changes nothing (a toggle
  // would disable it; a reset would re-key it).
  check('HOOK-ENABLE-ACTIVE-UNCHANGED', async (t) => {
    const workspace = await t.workspace();
    const hook = await t.hookEndpoint(workspace, [OWN_SECRET_TYPE]);
    const endpointId = hook.registered.endpointId;
    let enable = 'answered 2xx';
    try {
      await workspace.enableEndpoint(endpointId);
    } catch (error) {
      if (!(error instanceof ControlError) || !error.refused) throw error;
      enable = `refused ${error.status}`;
    }
    t.measure('enable_of_active', enable);
    const { state } = await workspace.getEndpoint(endpointId);
    t.measure('state_after', state);
    assert(state === 'active', `an active endpoint asked to re-enable (${enable}) then read ${state}: it was active`);
    const eventId = await workspace.fireEvent(OWN_SECRET_TYPE, firedData(OWN_SECRET_TYPE));
    const got = await settle(
      hook.inbox,
      (ds) => ds.some((d) => idOf(d) === eventId),
      DELIVERY_TIMEOUT_MS,
      `${eventId} after the enable`,
    );
    assert(
      !got.timedOut,
      `an active endpoint asked to re-enable (${enable}) received nothing of ${eventId} within ${DELIVERY_TIMEOUT_MS} ms`,
    );
    const delivery = got.deliveries.find((d) => idOf(d) === eventId)!;
    assert(
      verifiesWith(hook.registered.secret, delivery),
      `after an active endpoint was asked to re-enable (${enable}), ${eventId} is not signed with the secret it was registered with (${describeBadSignature(hook.registered.secret, delivery)})`,
    );
    t.detail(
      `re-enabling an active endpoint ${enable}; it stayed active, received ${eventId}, signed with its own secret`,
    );
  });

  // Receivers route and authenticate by the query of the URL they hand out (?tenant=…, ?key=…):
  // a delivery goes to the URL as registered, query and all.
  check('HOOK-URL-QUERY-KEPT', async (t) => {
    const workspace = await t.workspace();
    const receiver = await t.receiver();
    const inbox = receiver.createEndpoint({ name: 'query kept' });
    const query = 'certify=query-kept&tenant=a%2Fb';
    let registered: Awaited<ReturnType<typeof workspace.createEndpoint>>;
    try {
      registered = await workspace.createEndpoint(`${inbox.url}?${query}`, [OWN_SECRET_TYPE]);
    } catch (error) {
      if (!(error instanceof ControlError) || !error.refused) throw error;
      t.measure('registration', `refused ${error.status}`);
      return t.detail(
        `an endpoint URL with a query string was refused with ${error.status}: nothing delivered to judge`,
      );
    }
    inbox.setSecret(registered.secret);
    const eventId = await workspace.fireEvent(OWN_SECRET_TYPE, firedData(OWN_SECRET_TYPE));
    const arrived = await settle(inbox, (ds) => ds.some((d) => idOf(d) === eventId), DELIVERY_TIMEOUT_MS, `${eventId}`);
    assert(
      !arrived.timedOut,
      `an endpoint registered as ${inbox.url}?${query} received nothing of ${eventId} within ${DELIVERY_TIMEOUT_MS} ms`,
    );
    const delivery = arrived.deliveries.find((d) => idOf(d) === eventId)!;
    t.measure('query_received', delivery.query);
    assert(
      delivery.query === query,
      `an endpoint registered with the query ?${query} got ${eventId} with ${delivery.query ? `the query ?${delivery.query}` : 'no query'}: a delivery goes to the URL as registered`,
    );
    t.detail(`registered with ?${query}; ${eventId} arrived with that query`);
  });

  check('HOOK-SECRETS-DISTINCT-CONCURRENT', async (t) => {
    const workspace = await t.workspace();
    // Created at once: a secret drawn from the clock, or from a generator seeded per request, repeats here.
    const hooks = await Promise.all(
      Array.from({ length: CONCURRENT_SECRETS }, () => t.hookEndpoint(workspace, [OWN_SECRET_TYPE])),
    );
    const eventId = await expectOwnSecrets(workspace, hooks, `${CONCURRENT_SECRETS} endpoints created at once`);
    t.detail(
      `${CONCURRENT_SECRETS} endpoints created at once, ${CONCURRENT_SECRETS} different secrets; ${eventId} verified at each with its own secret only`,
    );
  });
});
