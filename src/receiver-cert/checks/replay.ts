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
import { skip, type CheckEnv, type CheckFn } from '../context.js';
import { acknowledged, describeAnswer, sleep, type Exchange } from '../sender.js';

export const COUNT_HEADER = 'x-receiver-processed-count';
/** A receiver may process asynchronously: the count URL is polled this long for the first count. */
const COUNT_SETTLE_MS = 3_000;

interface ReplayRun {
  id: string;
  original: Exchange;
  replays: Exchange[];
}

/** The replay sequence, run once per certification and shared by the replay checks. */
function replayRun(env: CheckEnv): Promise<ReplayRun> {
  let run = env.shared.get('replay') as Promise<ReplayRun> | undefined;
  if (run === undefined) {
    run = sendReplays(env);
    env.shared.set('replay', run);
  }
  return run;
}

async function sendReplays(env: CheckEnv): Promise<ReplayRun> {
  const { id, body, envelope } = envelopeBody('mailer.reply.received');
  const original = await env.sender.deliver({ purpose: 'valid', label: 'original', body });
  // A fresh timestamp needs the next second.
  await sleep(1000 - (Date.now() % 1000) + 20);
  const sameBytes = await env.sender.deliver({ purpose: 'valid', label: 'replay, same bytes, later timestamp', body });
  const reformatted = await env.sender.deliver({ purpose: 'valid', label: 'replay, re-formatted envelope', body: JSON.stringify(envelope, null, 2) });
  return { id, original, replays: [sameBytes, reformatted] };
}

export const replayAcknowledged: CheckFn = async (env) => {
  const run = await replayRun(env);
  const answers = [run.original, ...run.replays].map((e) => `${e.label} -> ${describeAnswer(e)}`).join('; ');
  const refused = run.replays.filter((e) => !acknowledged(e));
  return { passed: refused.length === 0, detail: `${run.id}: ${answers}` };
};

export const replayProcessedOnce: CheckFn = async (env) => {
  const run = await replayRun(env);
  if (!acknowledged(run.original)) skip(`the original delivery of ${run.id} was not acknowledged (${describeAnswer(run.original)})`);
  const counted = await readCount(env, run);
  if (counted === undefined) {
    skip(`the receiver offers no count (no TARGET_RECEIVER_COUNT_URL, no ${COUNT_HEADER} header): what was seen is in RCV-REPLAY-OBSERVED`);
  }
  const { count, source } = counted;
  const measurements = { processed_count: count, source };
  if (count === 1) return { passed: true, detail: `${run.id} processed once after the original and 2 replays (${source})`, measurements };
  return { passed: false, detail: `${run.id} processed ${count} times after the original and 2 replays (${source}); must be once`, measurements };
};

export const replayObserved: CheckFn = async (env) => {
  const run = await replayRun(env);
  const all = [run.original, ...run.replays];
  const headerCounts = all.map((e) => e.headers[COUNT_HEADER] ?? '-');
  const statuses = all.map((e) => describeAnswer(e));
  const times = all.map((e) => Math.round(e.durationMs));
  const detail = `${run.id}: answers ${statuses.join(', ')}; times ${times.join(', ')} ms; ${COUNT_HEADER}: ${headerCounts.join(', ')}` +
    (env.sender.hasCountUrl || all.some((e) => e.headers[COUNT_HEADER] !== undefined) ? '' : '; no count offered, so processing once cannot be seen from outside');
  return { passed: true, detail, measurements: { statuses, times_ms: times, count_header: headerCounts } };
};

async function readCount(env: CheckEnv, run: ReplayRun): Promise<{ count: number; source: string } | undefined> {
  if (env.sender.hasCountUrl) {
    const started = Date.now();
    for (;;) {
      const answer = await env.sender.processedCount(run.id);
      if (answer?.count === undefined) {
        skip(`TARGET_RECEIVER_COUNT_URL gave no count for ${run.id} (${answer === undefined ? 'not set' : describeAnswer(answer.exchange)}; expected JSON {"processed_count": n})`);
      }
      if (answer.count > 0 || Date.now() - started > COUNT_SETTLE_MS) return { count: answer.count, source: 'TARGET_RECEIVER_COUNT_URL' };
      await sleep(250);
    }
  }
  // The latest answer that carries the header counts every delivery before it.
  const last = [run.original, ...run.replays].filter((e) => e.headers[COUNT_HEADER] !== undefined).at(-1);
  if (last === undefined) return undefined;
  const value = last.headers[COUNT_HEADER]!.trim();
  if (!/^\d+$/.test(value)) skip(`${COUNT_HEADER} is not a whole number: ${JSON.stringify(value.slice(0, 40))}`);
  return { count: Number(value), source: `${COUNT_HEADER} on the answer to the ${last.label}` };
}
