/**
 * Replays (Events > Retry and replay, 4; Envelope: id unchanged on replay): the
 * dashboard's replay carries the same event id and body with a fresh timestamp and
 * signature, and an idempotent receiver counts the event once.
 */
import { isDeepStrictEqual } from 'node:util';
import type { CapturedDelivery } from '../src/receiver/types.js';
import { assert, certifySuite, check, is2xx, type CheckContext } from '../src/suite/index.js';
import { measureClockOffset } from '../src/suite/hooks/clock.js';
import { DELIVERY_TIMEOUT_MS, firedData, idOf, settle, typeCounts } from '../src/suite/hooks/events.js';
import { describeBadSignature, timestampOf } from '../src/suite/hooks/signature.js';
import { describeClock, readTimestamp } from '../src/suite/hooks/timestamps.js';
import { sleep } from '../src/clock/wait.js';

/** Long enough that a fresh second-resolution timestamp must differ from the original. */
const FRESHNESS_WAIT_MS = 1_100;
const TYPE = 'mailer.reply.received';

/** Fires one event, waits until its delivery is acknowledged, optionally waits, replays it and returns both deliveries. */
async function deliveredThenReplayed(t: CheckContext, waitBeforeReplayMs: number) {
  const workspace = await t.workspace();
  const hook = await t.hookEndpoint(workspace, [TYPE]);
  // Acknowledge whatever the signature: these checks judge the replay, not the first signature.
  hook.inbox.respond({ always: true, status: 204 });
  const eventId = await workspace.fireEvent(TYPE, firedData(TYPE));
  const acked = (d: CapturedDelivery) => idOf(d) === eventId && d.answeredStatus !== null && is2xx(d.answeredStatus);
  const first = await settle(hook.inbox, (ds) => ds.some(acked), DELIVERY_TIMEOUT_MS, `acknowledged delivery of ${eventId}`);
  const original = first.deliveries.find(acked);
  assert(original, `the delivery of ${eventId} was not acknowledged within ${DELIVERY_TIMEOUT_MS} ms; arrived: ${typeCounts(first.deliveries)} (answers ${first.deliveries.map((d) => d.answeredStatus ?? d.answer).join(', ')})`);
  const before = hook.inbox.deliveries.length;
  const sinceArrival = Date.now() - original.receivedAtMs;
  if (waitBeforeReplayMs > sinceArrival) await sleep(waitBeforeReplayMs - sinceArrival);
  const replayedAt = Date.now();
  await workspace.replay(eventId, hook.registered.endpointId);
  const second = await settle(hook.inbox, (ds) => ds.length > before, DELIVERY_TIMEOUT_MS, `the replay of ${eventId}`);
  const replay = second.deliveries[before];
  assert(replay, `the replay of ${eventId} (accepted by the control interface) did not arrive within ${DELIVERY_TIMEOUT_MS} ms`);
  t.measure('replay_arrival_after_request_ms', replay.receivedAtMs - replayedAt);
  return { hook, eventId, original, replay };
}

certifySuite('webhook-replay', () => {
  check('HOOK-REPLAY-SAME-ID', async (t) => {
    const { eventId, original, replay } = await deliveredThenReplayed(t, 0);
    assert(idOf(replay) === eventId, `the replay of ${eventId} carries id ${idOf(replay) ?? '(none)'}: the id must be unchanged on replay`);
    // The spec promises the same event, not the same bytes: a re-serialised envelope with
    // equal content is a replay too; byte identity is recorded as an observation.
    const sameBytes = replay.rawBody.equals(original.rawBody);
    assert(
      sameBytes || isDeepStrictEqual(replay.verdicts.json, original.verdicts.json),
      `the replay of ${eventId} carries a different envelope than the original (${replay.rawBody.length} bytes vs ${original.rawBody.length}): expected the same event`,
    );
    t.measure('body_bytes', original.rawBody.length);
    t.measure('identical_bytes', sameBytes);
    t.detail(`replay of ${eventId}: same id, ${sameBytes ? `identical ${original.rawBody.length} body bytes` : 'equal envelope, different bytes'}`);
  });

  check('HOOK-REPLAY-FRESH', async (t) => {
    const [{ hook, eventId, original, replay }, clock] = await Promise.all([deliveredThenReplayed(t, FRESHNESS_WAIT_MS), measureClockOffset(t.api)]);
    const [before, after] = [timestampOf(original), timestampOf(replay)];
    t.measure('timestamps', [before, after]);
    t.measure('arrival_gap_ms', replay.receivedAtMs - original.receivedAtMs);
    const reading = readTimestamp(replay, clock);
    assert(before !== after, `the replay, ${replay.receivedAtMs - original.receivedAtMs} ms after the original, carries the original's timestamp ${before}`);
    assert(!reading.problem, `the replay's timestamp is not its own delivery time: ${reading.problem}`);
    const verdict = replay.verdicts.signature;
    assert(verdict !== 'no-secret' && verdict.ok, `the replay's signature does not verify: ${describeBadSignature(hook.registered.secret, replay)}`);
    assert(idOf(replay) === eventId && replay.verdicts.duplicate, `the receiver did not see the replay as a duplicate of ${eventId} (it carried id ${idOf(replay) ?? '(none)'})`);
    const stats = hook.inbox.stats();
    t.measure('unique_event_ids', stats.uniqueEventIds);
    t.measure('deliveries', stats.total);
    assert(stats.uniqueEventIds === 1, `the receiver's idempotency ledger counts ${stats.uniqueEventIds} event ids for one event and its replay`);
    t.detail(`timestamps ${before} then ${after}, replay signature verified, ledger: ${stats.total} deliveries, 1 event id; ${describeClock(clock)}`);
  });
});
