/**
 * Replays (Events > Retry and replay, 4; Envelope: id unchanged on replay): the
 * dashboard's replay carries the same event id and body with a fresh timestamp and
 * signature, and an idempotent receiver counts the event once.
 */
import { isDeepStrictEqual } from 'node:util';
import type { CapturedDelivery } from '../src/capturing-receiver/types.js';
import type { HookedEndpoint } from '../src/suite/webhooks.js';
import type { TestWorkspace } from '../src/suite/workspace.js';
import { assert, certifySuite, check, is2xx, type CheckContext } from '../src/suite/index.js';
import { measureClockOffset } from '../src/suite/webhook-observation/clock.js';
import {
  CALL_EVENTS_TIMEOUT_MS,
  DELIVERY_TIMEOUT_MS,
  firedData,
  idOf,
  ofCall,
  placeCall,
  settle,
  typeCounts,
  typeOf,
} from '../src/suite/webhook-observation/events.js';
import { describeBadSignature, timestampOf, verifiesWith } from '../src/suite/webhook-observation/signature.js';
import { describeClock, readTimestamp } from '../src/suite/webhook-observation/timestamps.js';
import { sleep } from '../src/clock/wait.js';
import { ControlError } from '../src/errors.js';
import { SPEC_AUTO_DISABLE_MS } from '../src/suite/timing/schedule.js';
import { chooseTimeScale } from '../src/suite/timing/wait.js';
import { failUntilDisabled } from '../src/suite/webhook-observation/disabled-endpoints.js';
import { boundedTimeoutMs } from '../src/suite/timing/budget.js';

/** Long enough that a fresh second-resolution timestamp must differ from the original. */
const FRESHNESS_WAIT_MS = 1_100;
const TYPE = 'mailer.reply.received';
const CALL_COMPLETED = 'voice.call.completed';
/** A call's first event and its last: a replay of either is that event again. */
const REPLAYED_CALL_EVENTS = ['voice.call.queued', CALL_COMPLETED];
/** The workspace whose endpoint is auto-disabled runs its 24 h this much faster (capped by the target). */
const DISABLE_TIME_SCALE = 3_600;
const FAILING_EVENT = 'workspace.plan.upgraded';
/** A replay arrives within a second when it is sent at all: five show one that is held back briefly too. */
const REPLAY_WATCH_MS = 5_000;
/** After re-enable, how long the arrival of an accepted replay is waited for (recorded, not judged). */
const AFTER_ENABLE_WATCH_MS = 3_000;
/** Once the named endpoint has its replay, how long another endpoint is watched for one too. */
const OTHER_ENDPOINT_WATCH_MS = 1_500;
/** Driven to disabled for up to a tenth more than 24 h and one event interval, at the slowest scale the bound allows. */
const REPLAY_DISABLED_TIMEOUT_MS = boundedTimeoutMs({
  spanMs: SPEC_AUTO_DISABLE_MS,
  watchedMs: 1.3 * SPEC_AUTO_DISABLE_MS,
  fixedMs: 40_000,
});

/** Fires one event, waits until its delivery is acknowledged, optionally waits, replays it and returns both deliveries. */
async function deliveredThenReplayed(t: CheckContext, waitBeforeReplayMs: number) {
  const workspace = await t.workspace();
  const hook = await t.hookEndpoint(workspace, [TYPE]);
  // Acknowledge whatever the signature: these checks judge the replay, not the first signature.
  hook.inbox.respond({ always: true, status: 204 });
  const eventId = await workspace.fireEvent(TYPE, firedData(TYPE));
  const acked = (d: CapturedDelivery) => idOf(d) === eventId && d.answeredStatus !== null && is2xx(d.answeredStatus);
  const first = await settle(
    hook.inbox,
    (ds) => ds.some(acked),
    DELIVERY_TIMEOUT_MS,
    `acknowledged delivery of ${eventId}`,
  );
  const original = first.deliveries.find(acked);
  assert(
    original,
    `the delivery of ${eventId} was not acknowledged within ${DELIVERY_TIMEOUT_MS} ms; arrived: ${typeCounts(first.deliveries)} (answers ${first.deliveries.map((d) => d.answeredStatus ?? d.answer).join(', ')})`,
  );
  // Later events of the same type, with other data, delivered before the replay: the replay is of
  // the event named, not of the type's latest, and an event two events old is still there to replay
  // (a store that kept only the last two forgot it: a mutant of the reference's event store).
  const laterIds: string[] = [];
  for (const when of ['after the replayed event', 'second after the replayed event'])
    laterIds.push(await workspace.fireEvent(TYPE, { ...firedData(TYPE), certify_fired: when }));
  const later = await settle(
    hook.inbox,
    (ds) => laterIds.every((id) => ds.some((d) => idOf(d) === id && d.answeredStatus !== null)),
    DELIVERY_TIMEOUT_MS,
    `the later events ${laterIds.join(', ')}`,
  );
  assert(
    !later.timedOut,
    `later events of the type, ${laterIds.join(', ')}, were not all delivered within ${DELIVERY_TIMEOUT_MS} ms; arrived: ${typeCounts(later.deliveries)}`,
  );
  const before = hook.inbox.deliveries.length;
  const sinceArrival = Date.now() - original.receivedAtMs;
  if (waitBeforeReplayMs > sinceArrival) await sleep(waitBeforeReplayMs - sinceArrival);
  const replayedAt = Date.now();
  await workspace.replay(eventId, hook.registered.endpointId);
  const second = await settle(hook.inbox, (ds) => ds.length > before, DELIVERY_TIMEOUT_MS, `the replay of ${eventId}`);
  const replay = second.deliveries[before];
  assert(
    replay,
    `the replay of ${eventId} (accepted by the control interface) did not arrive within ${DELIVERY_TIMEOUT_MS} ms`,
  );
  t.measure('replay_arrival_after_request_ms', replay.receivedAtMs - replayedAt);
  return { workspace, hook, eventId, laterIds, original, replay };
}

certifySuite('webhook-replay', () => {
  check('HOOK-REPLAY-SAME-ID', async (t) => {
    const { eventId, original, replay } = await deliveredThenReplayed(t, 0);
    assert(
      idOf(replay) === eventId,
      `the replay of ${eventId} carries id ${idOf(replay) ?? '(none)'}: the id must be unchanged on replay`,
    );
    // The spec promises the same event, not the same bytes: a re-serialised envelope with
    // equal content is a replay too; byte identity is recorded as an observation.
    const sameBytes = replay.rawBody.equals(original.rawBody);
    assert(
      sameBytes || isDeepStrictEqual(replay.verdicts.json, original.verdicts.json),
      `the replay of ${eventId} carries a different envelope than the original (${replay.rawBody.length} bytes vs ${original.rawBody.length}): expected the same event`,
    );
    t.measure('body_bytes', original.rawBody.length);
    t.measure('identical_bytes', sameBytes);
    t.detail(
      `replay of ${eventId}: same id, ${sameBytes ? `identical ${original.rawBody.length} body bytes` : 'equal envelope, different bytes'}`,
    );
  });

  check(
    'HOOK-REPLAY-DISABLED',
    async (t) => {
      const scale = await chooseTimeScale(t, DISABLE_TIME_SCALE, SPEC_AUTO_DISABLE_MS, 'the 24 h auto-disable period');
      const workspace = await t.workspace({ timeScale: scale });
      const hook = await t.hookEndpoint(workspace, ['*']);
      const endpointId = hook.registered.endpointId;
      // The replayed event is one this endpoint was delivered and acknowledged: a replay the dashboard would offer.
      const eventId = await workspace.fireEvent(TYPE, firedData(TYPE));
      const acked = (d: CapturedDelivery) =>
        idOf(d) === eventId && d.answeredStatus !== null && is2xx(d.answeredStatus);
      const first = await settle(
        hook.inbox,
        (ds) => ds.some(acked),
        DELIVERY_TIMEOUT_MS,
        `acknowledged delivery of ${eventId}`,
      );
      assert(
        !first.timedOut,
        `the delivery of ${eventId} was not acknowledged within ${DELIVERY_TIMEOUT_MS} ms, so no replay of it can be judged`,
      );
      const disabled = await failUntilDisabled(workspace, hook, {
        scale,
        event: FAILING_EVENT,
        certify: 'replay to a disabled endpoint',
      });
      if (!disabled.ok)
        t.skip(
          'the endpoint never read disabled after 24 h (scaled) of failures (see HOOK-AUTO-DISABLE): no replay to a disabled endpoint to judge',
        );
      // The receiver is back, so a replay that is sent is seen acknowledged, as a real one would be.
      hook.inbox.reset();
      const before = hook.inbox.deliveries.length;
      let refusedWith: number | undefined;
      try {
        await workspace.replay(eventId, endpointId);
      } catch (error) {
        if (!(error instanceof ControlError) || !error.refused) throw error;
        refusedWith = error.status;
      }
      t.measure('disabled_after_ms', Math.round(disabled.elapsedMs));
      t.measure('time_scale', scale);
      if (refusedWith !== undefined) {
        t.measure('replay', `refused ${refusedWith}`);
        t.detail(
          `the endpoint read disabled after ${(disabled.elapsedMs / 1000).toFixed(1)} s of failures (time scale ${scale}); a replay of ${eventId} to it was refused with ${refusedWith}`,
        );
        return;
      }
      await sleep(REPLAY_WATCH_MS);
      const replays = () => hook.inbox.deliveries.slice(before).filter((d) => idOf(d) === eventId);
      const sent = replays();
      const stateAfter = (await workspace.getEndpoint(endpointId)).state;
      t.measure('replay', 'accepted');
      t.measure('arrivals_while_disabled', sent.length);
      assert(
        sent.length === 0,
        `a replay of ${eventId} to a disabled endpoint was accepted and delivered ${sent.length} time${sent.length === 1 ? '' : 's'} within ${REPLAY_WATCH_MS / 1000} s (the endpoint read ${stateAfter} afterwards): a disabled endpoint gets no further deliveries`,
      );
      // What becomes of the accepted replay once the endpoint is re-enabled is the service's choice.
      await workspace.enableEndpoint(endpointId);
      const later = await settle(
        hook.inbox,
        () => replays().length > 0,
        AFTER_ENABLE_WATCH_MS,
        `the held replay of ${eventId}`,
      );
      t.measure('arrived_after_reenable', !later.timedOut);
      t.detail(
        `the endpoint read disabled after ${(disabled.elapsedMs / 1000).toFixed(1)} s of failures (time scale ${scale}); a replay of ${eventId} was accepted and not sent in ${REPLAY_WATCH_MS / 1000} s; ` +
          `after re-enable it ${later.timedOut ? `did not arrive within ${AFTER_ENABLE_WATCH_MS / 1000} s` : 'arrived'}`,
      );
    },
    { timeoutMs: REPLAY_DISABLED_TIMEOUT_MS },
  );

  // A value handed out works where it is used: the answered id is the one a receiver dedupes on, and the one a replay names.
  check('HOOK-FIRED-EVENT-ID', async (t) => {
    const workspace = await t.workspace();
    const hook = await t.hookEndpoint(workspace, [TYPE]);
    const answered = await workspace.fireEvent(TYPE, firedData(TYPE));
    // Matched by type, not by the answered id: the endpoint gets no other event.
    const first = await settle(
      hook.inbox,
      (ds) => ds.some((d) => typeOf(d) === TYPE),
      DELIVERY_TIMEOUT_MS,
      `the delivery of the fired ${TYPE}`,
    );
    const delivery = first.deliveries.find((d) => typeOf(d) === TYPE);
    assert(delivery, `the fired ${TYPE} (answered ${answered}) was not delivered within ${DELIVERY_TIMEOUT_MS} ms`);
    t.measure('delivered_id_is_answered', idOf(delivery) === answered);
    assert(
      idOf(delivery) === answered,
      `firing ${TYPE} answered event_id ${answered}, and its delivery carries id ${idOf(delivery) ?? '(none)'}`,
    );
    const before = hook.inbox.deliveries.length;
    await workspace.replay(answered, hook.registered.endpointId);
    const replayed = await settle(
      hook.inbox,
      (ds) => ds.slice(before).some((d) => idOf(d) === answered),
      DELIVERY_TIMEOUT_MS,
      `the replay of ${answered}`,
    );
    assert(
      !replayed.timedOut,
      `a replay of the answered event_id ${answered} was accepted and not delivered within ${DELIVERY_TIMEOUT_MS} ms`,
    );
    t.detail(`the answered event_id ${answered} is the delivered id, and its replay arrived`);
  });

  check('HOOK-REPLAY-ONE-ENDPOINT', async (t) => {
    const workspace = await t.workspace();
    // Two endpoints take the event; the replay names the first.
    const [named, other] = [await t.hookEndpoint(workspace, [TYPE]), await t.hookEndpoint(workspace, [TYPE])];
    for (const hook of [named, other]) hook.inbox.respond({ always: true, status: 204 });
    const eventId = await workspace.fireEvent(TYPE, firedData(TYPE));
    const ofEvent = (ds: readonly CapturedDelivery[]) => ds.filter((d) => idOf(d) === eventId);
    for (const [name, hook] of [
      ['named', named],
      ['other', other],
    ] as const) {
      const first = await settle(
        hook.inbox,
        (ds) => ofEvent(ds).length > 0,
        DELIVERY_TIMEOUT_MS,
        `the delivery of ${eventId} to the ${name} endpoint`,
      );
      assert(
        !first.timedOut,
        `the ${name} endpoint did not receive ${eventId} within ${DELIVERY_TIMEOUT_MS} ms, so the replay's reach cannot be judged`,
      );
    }
    await workspace.replay(eventId, named.registered.endpointId);
    const replayed = await settle(
      named.inbox,
      (ds) => ofEvent(ds).length > 1,
      DELIVERY_TIMEOUT_MS,
      `the replay of ${eventId}`,
    );
    assert(
      !replayed.timedOut,
      `the replay of ${eventId} (accepted by the control interface) did not reach the endpoint it named within ${DELIVERY_TIMEOUT_MS} ms`,
    );
    await sleep(OTHER_ENDPOINT_WATCH_MS);
    const atOther = ofEvent(other.inbox.deliveries).length;
    t.measure('deliveries_at_other_endpoint', atOther);
    assert(
      atOther === 1,
      `a replay of ${eventId} named one endpoint, and another endpoint of the workspace received the event ${atOther} times (once was its own delivery)`,
    );
    t.detail(
      `the replay of ${eventId} reached the endpoint it named; the other endpoint subscribed to ${TYPE} kept its one delivery (watched ${OTHER_ENDPOINT_WATCH_MS / 1000} s more)`,
    );
  });

  // "A delivery can be replayed": every delivery, the call events a service emits by itself
  // included, not only the events fired through the control interface; and an earlier event of a
  // call as well as its last (round 23 read a call event's replay from the call's latest event).
  check('HOOK-REPLAY-CALL-EVENT', async (t) => {
    const { workspace, token } = await t.workspaceWithToken({ callProgress: 'auto' });
    const hook = await t.hookEndpoint(workspace, REPLAYED_CALL_EVENTS);
    // With metadata, so a replay rebuilt from the call record, not the event, shows.
    const { callId } = await placeCall(t, workspace, token.token, { lead_id: 'lead_certify_replay', Stage: 'Demo' });
    const first = await settle(
      hook.inbox,
      (ds) => REPLAYED_CALL_EVENTS.every((type) => ds.some(ofCall(callId, type))),
      CALL_EVENTS_TIMEOUT_MS,
      `${REPLAYED_CALL_EVENTS.join(' and ')} of ${callId}`,
    );
    const replayedIds: string[] = [];
    for (const type of REPLAYED_CALL_EVENTS) {
      const original = first.deliveries.find(ofCall(callId, type));
      assert(original, `no ${type} of ${callId} within ${CALL_EVENTS_TIMEOUT_MS} ms: no call event to replay`);
      const eventId = idOf(original);
      assert(eventId, `${type} of ${callId} carries no id: no call event to replay`);
      try {
        await workspace.replay(eventId, hook.registered.endpointId);
      } catch (error) {
        if (!(error instanceof ControlError) || !error.refused) throw error;
        t.fail(
          `replaying ${eventId} (${type} of ${callId}, delivered and acknowledged) was refused with ${error.status}: a delivery can be replayed`,
        );
      }
      const replayed = await settle(
        hook.inbox,
        (ds) => ds.filter((d) => idOf(d) === eventId).length > 1,
        DELIVERY_TIMEOUT_MS,
        `the replay of ${eventId}`,
      );
      assert(
        !replayed.timedOut,
        `the replay of ${eventId} (${type}, accepted by the control interface) did not arrive within ${DELIVERY_TIMEOUT_MS} ms`,
      );
      // The same event: its envelope equal to the original's, type, call data and metadata included.
      const replay = replayed.deliveries.filter((d) => idOf(d) === eventId).at(-1)!;
      assert(
        replay.rawBody.equals(original.rawBody) || isDeepStrictEqual(replay.verdicts.json, original.verdicts.json),
        `the replay of ${eventId} (${type}) carries another envelope than the original: ${JSON.stringify(replay.verdicts.json)?.slice(0, 300)} against ${JSON.stringify(original.verdicts.json)?.slice(0, 300)}`,
      );
      replayedIds.push(`${eventId} (${type})`);
    }
    t.detail(`${replayedIds.join(' and ')} of ${callId} replayed and delivered again, each with its id and envelope`);
  });

  // A replay is signed anew for the endpoint it goes to: one that never had the event gets no
  // other endpoint's signature of it (a replay that re-sends the first delivery's headers).
  check('HOOK-REPLAY-OTHER-ENDPOINT-SIGNED', async (t) => {
    const workspace = await t.workspace();
    const first = await t.hookEndpoint(workspace, [TYPE]);
    const eventId = await workspace.fireEvent(TYPE, firedData(TYPE));
    const ofEvent = (ds: readonly CapturedDelivery[]) => ds.filter((d) => idOf(d) === eventId);
    const delivered = await settle(
      first.inbox,
      (ds) => ofEvent(ds).length > 0,
      DELIVERY_TIMEOUT_MS,
      `the delivery of ${eventId}`,
    );
    assert(!delivered.timedOut, `${eventId} was not delivered within ${DELIVERY_TIMEOUT_MS} ms: no replay to judge`);
    const later = await t.hookEndpoint(workspace, [TYPE]);
    try {
      await workspace.replay(eventId, later.registered.endpointId);
    } catch (error) {
      if (!(error instanceof ControlError) || !error.refused) throw error;
      t.measure('replay', `refused ${error.status}`);
      t.detail(
        `a replay of ${eventId} to an endpoint created after it was refused with ${error.status}: a reasonable choice, nothing delivered to judge`,
      );
      return;
    }
    t.measure('replay', 'accepted');
    const replayed = await settle(
      later.inbox,
      (ds) => ofEvent(ds).length > 0,
      DELIVERY_TIMEOUT_MS,
      `the replay of ${eventId}`,
    );
    assert(
      !replayed.timedOut,
      `the replay of ${eventId} to an endpoint created after it was accepted and did not arrive within ${DELIVERY_TIMEOUT_MS} ms`,
    );
    const replay = ofEvent(replayed.deliveries)[0]!;
    assert(
      verifiesWith(later.registered.secret, replay),
      `the replay of ${eventId} to an endpoint that never had it is not signed with that endpoint's secret (${describeBadSignature(later.registered.secret, replay, [first.registered.secret])})`,
    );
    t.detail(`${eventId} replayed to an endpoint created after it: signed with that endpoint's own secret`);
  });

  check('HOOK-REPLAY-FRESH', async (t) => {
    const [{ workspace, hook, eventId, laterIds, original, replay }, clock] = await Promise.all([
      deliveredThenReplayed(t, FRESHNESS_WAIT_MS),
      measureClockOffset(t.api),
    ]);
    const [before, after] = [timestampOf(original), timestampOf(replay)];
    t.measure('timestamps', [before, after]);
    t.measure('arrival_gap_ms', replay.receivedAtMs - original.receivedAtMs);
    const reading = readTimestamp(replay, clock);
    assert(
      before !== after,
      `the replay, ${replay.receivedAtMs - original.receivedAtMs} ms after the original, carries the original's timestamp ${before}`,
    );
    assert(!reading.problem, `the replay's timestamp is not its own delivery time: ${reading.problem}`);
    const verdict = replay.verdicts.signature;
    assert(
      verdict !== 'no-secret' && verdict.ok,
      `the replay's signature does not verify: ${describeBadSignature(hook.registered.secret, replay)}`,
    );
    assert(
      idOf(replay) === eventId && replay.verdicts.duplicate,
      `the receiver did not see the replay as a duplicate of ${eventId} (it carried id ${idOf(replay) ?? '(none)'})`,
    );
    const stats = hook.inbox.stats();
    t.measure('unique_event_ids', stats.uniqueEventIds);
    t.measure('deliveries', stats.total);
    // The event, and the later ones of its type fired before the replay.
    const events = 1 + laterIds.length;
    assert(
      stats.uniqueEventIds === events,
      `the receiver's idempotency ledger counts ${stats.uniqueEventIds} event ids for ${events} events and the replay of one`,
    );
    const again = await replayAgain(workspace, hook, eventId, replay);
    t.detail(
      `timestamps ${before} then ${after}, replay signature verified, ledger: ${stats.total} deliveries, ${events} event ids (the event and the later ones); ${again}; ${describeClock(clock)}`,
    );
  });
});

/**
 * "A delivery can be replayed": again, after a first replay. A second replay accepted must be
 * sent, with the same id, a timestamp of its own and a valid signature; refused, it is recorded.
 */
async function replayAgain(
  workspace: TestWorkspace,
  hook: HookedEndpoint,
  eventId: string,
  firstReplay: CapturedDelivery,
): Promise<string> {
  const sinceFirst = Date.now() - firstReplay.receivedAtMs;
  if (sinceFirst < FRESHNESS_WAIT_MS) await sleep(FRESHNESS_WAIT_MS - sinceFirst);
  const before = hook.inbox.deliveries.length;
  try {
    await workspace.replay(eventId, hook.registered.endpointId);
  } catch (error) {
    if (!(error instanceof ControlError) || !error.refused) throw error;
    return `a second replay was refused with ${error.status}`;
  }
  const arrived = await settle(
    hook.inbox,
    (ds) => ds.length > before,
    DELIVERY_TIMEOUT_MS,
    `the second replay of ${eventId}`,
  );
  const second = arrived.deliveries[before];
  assert(
    second,
    `a second replay of ${eventId}, accepted by the control interface, did not arrive within ${DELIVERY_TIMEOUT_MS} ms: an accepted replay is sent, the second as the first`,
  );
  assert(
    idOf(second) === eventId,
    `the second replay of ${eventId} carries id ${idOf(second) ?? '(none)'}: the id must be unchanged on replay`,
  );
  assert(
    timestampOf(second) !== timestampOf(firstReplay),
    `the second replay carries the first replay's timestamp ${timestampOf(firstReplay)}, ${second.receivedAtMs - firstReplay.receivedAtMs} ms later`,
  );
  const verdict = second.verdicts.signature;
  assert(
    verdict !== 'no-secret' && verdict.ok,
    `the second replay's signature does not verify: ${describeBadSignature(hook.registered.secret, second)}`,
  );
  return 'a second replay arrived fresh and signed too';
}
