/**
 * Replay (Events > Retry and replay, 4): the same `id`, a fresh signature and a fresh
 * timestamp. The harness sends the original, then the same bytes with a later timestamp,
 * then the same envelope re-formatted (other bytes, so another signature). Each must be
 * acknowledged; whether the receiver processed the event once can only be seen when it
 * offers a count (the count convention, README.md, "Certify your webhook receiver"):
 *   - a header `X-Receiver-Processed-Count: <n>` on its answers: how many times the event
 *     of this delivery's id has been processed, this delivery included; or
 *   - TARGET_RECEIVER_COUNT_URL: GET <url>?id=<evt_id> answering {"processed_count": n}.
 */
import { envelopeBody } from '../fixtures.js';
import type { ReceiverCheck } from '../context.js';
import { acknowledged, describeAnswer, type Exchange } from '../sender.js';
import { sleep } from '../../clock/wait.js';
import { check, receiverSuite } from '../registry.js';

const COUNT_HEADER = 'x-receiver-processed-count';
/** A receiver may process asynchronously: the count URL is polled this long for the first count. */
const COUNT_SETTLE_MS = 3_000;

interface ReplayRun {
  id: string;
  original: Exchange;
  replays: Exchange[];
}

/** The replay sequence, run once per certification and shared by the replay checks. */
function replayRun(t: ReceiverCheck): Promise<ReplayRun> {
  let run = t.shared.get('replay') as Promise<ReplayRun> | undefined;
  if (run === undefined) {
    run = sendReplays(t);
    t.shared.set('replay', run);
  }
  return run;
}

async function sendReplays(t: ReceiverCheck): Promise<ReplayRun> {
  const { id, body, envelope } = envelopeBody('mailer.reply.received');
  const original = await t.sender.deliver({ purpose: 'valid', label: 'original', body });
  // A fresh timestamp needs the next second.
  await sleep(1000 - (Date.now() % 1000) + 20);
  const sameBytes = await t.sender.deliver({ purpose: 'valid', label: 'replay, same bytes, later timestamp', body });
  const reformatted = await t.sender.deliver({
    purpose: 'valid',
    label: 'replay, re-formatted envelope',
    body: JSON.stringify(envelope, null, 2),
  });
  return { id, original, replays: [sameBytes, reformatted] };
}

/** The receiver's count of `run`'s event, where it was read, and the answer that carried it. */
async function readCount(
  t: ReceiverCheck,
  run: ReplayRun,
): Promise<{ count: number; source: string; answer: Exchange } | undefined> {
  if (t.sender.hasCountUrl) {
    const started = Date.now();
    for (;;) {
      const answer = await t.sender.processedCount(run.id);
      if (answer?.count === undefined) {
        t.skip(
          `TARGET_RECEIVER_COUNT_URL gave no count for ${run.id} (${answer === undefined ? 'not set' : describeAnswer(answer.exchange)}; expected JSON {"processed_count": n})`,
        );
      }
      if (answer.count > 0 || Date.now() - started > COUNT_SETTLE_MS)
        return { count: answer.count, source: 'TARGET_RECEIVER_COUNT_URL', answer: answer.exchange };
      await sleep(250);
    }
  }
  // The latest answer that carries the header counts every delivery before it.
  const last = [run.original, ...run.replays].filter((e) => e.headers[COUNT_HEADER] !== undefined).at(-1);
  if (last === undefined) return undefined;
  const value = last.headers[COUNT_HEADER]!.trim();
  if (!/^\d+$/.test(value)) t.skip(`${COUNT_HEADER} is not a whole number: ${JSON.stringify(value.slice(0, 40))}`);
  return { count: Number(value), source: `${COUNT_HEADER} on the answer to the ${last.label}`, answer: last };
}

receiverSuite('receiver-replay', () => {
  check('RCV-REPLAY-ACKNOWLEDGED', async (t) => {
    const run = await replayRun(t);
    const answers = [run.original, ...run.replays].map((e) => `${e.label} -> ${describeAnswer(e)}`).join('; ');
    const refused = run.replays.filter((e) => !acknowledged(e));
    if (refused.length > 0) t.fail(`${run.id}: ${answers}`, refused[0]);
    t.detail(`${run.id}: ${answers}`);
  });

  check('RCV-REPLAY-PROCESSED-ONCE', async (t) => {
    const run = await replayRun(t);
    if (!acknowledged(run.original))
      t.skip(`the original delivery of ${run.id} was not acknowledged (${describeAnswer(run.original)})`);
    const counted = await readCount(t, run);
    if (counted === undefined) {
      return t.skip(
        `the receiver offers no count (no TARGET_RECEIVER_COUNT_URL, no ${COUNT_HEADER} header): what was seen is in RCV-REPLAY-OBSERVED`,
      );
    }
    const { count, source, answer } = counted;
    t.measureAll({ processed_count: count, source });
    if (count !== 1)
      t.fail(`${run.id} processed ${count} times after the original and 2 replays (${source}); must be once`, answer);
    t.detail(`${run.id} processed once after the original and 2 replays (${source})`);
  });

  check('RCV-REPLAY-OBSERVED', async (t) => {
    const run = await replayRun(t);
    const all = [run.original, ...run.replays];
    const headerCounts = all.map((e) => e.headers[COUNT_HEADER] ?? '-');
    const statuses = all.map((e) => describeAnswer(e));
    const times = all.map((e) => Math.round(e.durationMs));
    const detail =
      `${run.id}: answers ${statuses.join(', ')}; times ${times.join(', ')} ms; ${COUNT_HEADER}: ${headerCounts.join(', ')}` +
      (t.sender.hasCountUrl || all.some((e) => e.headers[COUNT_HEADER] !== undefined)
        ? ''
        : '; no count offered, so processing once cannot be seen from outside');
    t.measureAll({ statuses, times_ms: times, count_header: headerCounts });
    t.detail(detail);
  });
});
