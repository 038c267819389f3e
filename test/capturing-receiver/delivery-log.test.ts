/** The delivery log (src/capturing-receiver/delivery-log.ts): deliveries kept as bytes and columns, read back as they arrived. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DeliveryLog, YOUNG_DELIVERIES } from '../../src/capturing-receiver/delivery-log.js';
import type { CapturedDelivery } from '../../src/capturing-receiver/index.js';
import { judgeDelivery } from '../../src/capturing-receiver/verdicts.js';
import { signBody } from '../../src/signing/index.js';

const SECRET = 'whsec_test_delivery_log';
const NOW_MS = Date.UTC(2026, 10, 26, 12, 0, 0);

let seq = 0;

/** A delivery as the receiver captures it, answer pending; `change` alters the request first. */
function captured(
  options: {
    body?: string;
    headers?: CapturedDelivery['headers'];
    secret?: string;
    query?: string;
    attempt?: number;
  } = {},
): CapturedDelivery {
  seq++;
  const body = Buffer.from(
    options.body ?? JSON.stringify({ id: `evt_${seq}`, type: 'voice.call.queued', data: { n: seq } }),
    'utf8',
  );
  const headers = options.headers ?? {
    host: '127.0.0.1:8443',
    'content-type': 'application/json',
    'x-service-signature': signBody(SECRET, body),
    'x-service-timestamp': String(Math.floor(NOW_MS / 1000)),
  };
  const verdicts = judgeDelivery(body, headers, 'secret' in options ? options.secret : SECRET, NOW_MS + seq, 300);
  verdicts.duplicate = (options.attempt ?? 1) > 1;
  return {
    seq,
    endpoint: 'log-test',
    method: 'POST',
    path: '/hooks/log-test',
    query: options.query ?? '',
    headers,
    rawBody: body,
    receivedAtMs: NOW_MS + seq,
    receivedAtMono: 1_000.25 + seq,
    attempt: options.attempt ?? 1,
    answer: 'pending',
    answeredStatus: null,
    answeredAfterMs: null,
    verdicts,
  };
}

function answered(delivery: CapturedDelivery, status = 204, afterMs = 1.5): CapturedDelivery {
  delivery.answer = 'sent';
  delivery.answeredStatus = status;
  delivery.answeredAfterMs = afterMs;
  return delivery;
}

/** Everything a check can read of a delivery, as plain data. */
function view(delivery: CapturedDelivery): unknown {
  const { verdicts, rawBody, ...rest } = delivery;
  return { ...rest, rawBody: rawBody.toString('base64'), verdicts: JSON.parse(JSON.stringify(verdicts)) };
}

function logOf(maxDeliveries = 10_000, maxStoredBytes = 64 * 1_048_576): DeliveryLog {
  return new DeliveryLog('log-test', { maxDeliveries, maxStoredBytes });
}

describe('DeliveryLog', () => {
  it('reads back every field of a delivery as it was captured and answered', () => {
    const log = logOf();
    const deliveries = [
      captured(),
      captured({ secret: 'whsec_other', query: 'attempt=2&x=%C3%A9', attempt: 3 }),
      captured({ secret: undefined, body: 'not json at all \u00ff' }),
      captured({
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'x-service-timestamp': '12',
          'x-latin1': 'caf\u00e9 \u00ff',
          'set-cookie': ['a=1', 'b=2'],
        },
      }),
      captured({ headers: { 'x-service-signature': 'ABCDEF', 'x-service-timestamp': '17 minutes' } }),
    ];
    for (const delivery of deliveries) {
      log.append(delivery);
      log.settle(answered(delivery, 200 + delivery.seq, delivery.seq / 3));
    }
    const read = log.list();
    expect(read).toHaveLength(deliveries.length);
    expect(read.map(view)).toEqual(deliveries.map(view));
    // The verdicts were kept, not judged again: a failed signature stays failed, a skew stays what it was.
    expect(read[1]!.verdicts.signature).toEqual({ ok: false, reason: 'mismatch' });
    expect(read[1]!.verdicts.duplicate).toBe(true);
    expect(read[2]!.verdicts.signature).toBe('no-secret');
    expect(read[2]!.verdicts.envelope.valid).toBe(false);
    expect(read[3]!.verdicts.timestamp).toMatchObject({ ok: false, reason: 'too-old' });
    expect(read[4]!.verdicts.timestamp).toEqual({ ok: false, reason: 'not-integer' });
  });

  it('returns the same objects on every read, and one read while pending shows its answer once settled', () => {
    const log = logOf();
    const first = captured();
    log.append(first);
    const pending = log.list()[0]!;
    expect(pending.answer).toBe('pending');
    const second = captured();
    log.append(second);
    log.settle(answered(first, 500, 12));
    expect(log.list()[0]).toBe(pending);
    expect(pending).toMatchObject({ answer: 'sent', answeredStatus: 500, answeredAfterMs: 12 });
    // The second was never read while pending: read now, from its columns.
    log.settle(answered(second, 204, 3));
    expect(log.list()[1]).toMatchObject({ seq: second.seq, answer: 'sent', answeredStatus: 204, answeredAfterMs: 3 });
    expect(log.list()).toBe(log.list());
  });

  it('reads two deliveries still pending, the older one no longer the newest, as the objects being answered', () => {
    const log = logOf();
    const [older, newer] = [captured(), captured()];
    log.append(older);
    log.append(newer);
    expect(log.list()).toEqual([older, newer]);
    expect(log.list()[0]).toBe(older);
    expect(log.list()[1]).toBe(newer);
    log.settle(answered(newer, 201));
    log.settle(answered(older, 502));
    expect(log.list().map((d) => d.answeredStatus)).toEqual([502, 201]);
  });

  it('keeps the newest deliveries past its count, in order through the ring growing and wrapping, and counts the dropped', () => {
    const log = logOf(300);
    let dropped = 0;
    const all: CapturedDelivery[] = [];
    for (let i = 0; i < 1_000; i++) {
      const delivery = captured();
      all.push(delivery);
      dropped += log.append(delivery);
      log.settle(answered(delivery));
      // Read now and then, so that some are objects already when they are dropped.
      if (i % 97 === 0) log.list();
    }
    expect(dropped).toBe(700);
    expect(log.length).toBe(300);
    expect(log.list().map(view)).toEqual(all.slice(700).map(view));
  });

  it('keeps the newest deliveries past its body bytes, always at least one', () => {
    const log = logOf(10_000, 2_500);
    const big = (n: number) => captured({ body: JSON.stringify({ id: `evt_big${n}`, pad: 'x'.repeat(1_000) }) });
    const dropped = [big(1), big(2), big(3)].map((delivery) => log.append(delivery));
    expect(dropped).toEqual([0, 0, 1]);
    expect(log.list().map((d) => d.verdicts.eventId)).toEqual(['evt_big2', 'evt_big3']);
    expect(log.append(captured({ body: 'y'.repeat(5_000) }))).toBe(2);
    expect(log.length).toBe(1);
  });

  it('leaves newer deliveries as they were when a dropped one is settled late', () => {
    const log = logOf(2);
    const slow = captured();
    log.append(slow);
    for (let i = 0; i < 5; i++) {
      const quick = captured();
      log.append(quick);
      log.settle(answered(quick, 204));
    }
    log.settle(answered(slow, 599));
    expect(log.list().map((d) => d.answeredStatus)).toEqual([204, 204]);
  });

  it('keeps a body a check holds as it was, long after its delivery and its buffer were let go', () => {
    const log = logOf(YOUNG_DELIVERIES + 10);
    // Past the small first buffers: released full-size ones are written over again when no delivery in them was read.
    for (let i = 0; i < 10_000; i++) log.append(captured());
    const heldBody = JSON.stringify({ id: 'evt_held', note: 'held by a check' });
    const delivery = captured({ body: heldBody });
    log.append(delivery);
    log.settle(answered(delivery));
    for (let i = 0; i < YOUNG_DELIVERIES; i++) log.append(captured());
    // Settled and written down, it is read from the log's buffer, not from the receiver's own object.
    const held = log.list().find((d) => d.seq === delivery.seq)!.rawBody;
    expect(held).not.toBe(delivery.rawBody);
    for (let i = 0; i < 5_000; i++) log.append(captured());
    expect(held.toString('utf8')).toBe(heldBody);
    expect(log.list().map((d) => d.verdicts.eventId)).toEqual(log.list().map((d) => `evt_${d.seq}`));
  });

  it('keeps its newest deliveries as the objects appended, and writes nothing down for a log that keeps no more than those', () => {
    const small = logOf(100);
    const appended: CapturedDelivery[] = [];
    for (let i = 0; i < 5_000; i++) {
      const delivery = captured();
      appended.push(delivery);
      small.append(delivery);
      small.settle(answered(delivery));
    }
    expect(small.retainedBytes).toBe(0);
    expect(small.list()).toHaveLength(100);
    small.list().forEach((delivery, i) => expect(delivery).toBe(appended[4_900 + i]));

    const large = logOf(YOUNG_DELIVERIES + 1);
    for (let i = 0; i < YOUNG_DELIVERIES + 1; i++) large.append(captured());
    expect(large.retainedBytes).toBeGreaterThan(0);
  });

  it('shows the answer of a delivery written down while it was pending, once settled', () => {
    const log = logOf();
    const slow = captured();
    log.append(slow);
    for (let i = 0; i < 2 * YOUNG_DELIVERIES; i++) log.settle(answered(appendOne(log)));
    expect(log.retainedBytes).toBeGreaterThan(0);
    log.settle(answered(slow, 503, 4_000));
    // Read from its bytes and columns: the log never handed the object out.
    const read = log.list()[0]!;
    expect(read).not.toBe(slow);
    expect(read).toMatchObject({ seq: slow.seq, answer: 'sent', answeredStatus: 503, answeredAfterMs: 4_000 });
  });

  it('past its first YOUNG_DELIVERIES, writes a delivery down once it and every one before it are answered, not before', () => {
    const log = logOf();
    for (let i = 0; i <= YOUNG_DELIVERIES; i++) log.settle(answered(appendOne(log)));
    // Bodies larger than a slab: each one written down takes a buffer of its own, so the bytes held count them.
    const large = () => captured({ body: JSON.stringify({ id: `evt_large${seq + 1}`, pad: 'x'.repeat(300_000) }) });
    const before = log.retainedBytes;
    const slow = large();
    log.append(slow);
    for (let i = 0; i < 3; i++) {
      const quick = large();
      log.append(quick);
      log.settle(answered(quick));
    }
    // Behind one still pending: none of the four written down yet.
    expect(log.retainedBytes).toBe(before);
    log.settle(answered(slow, 502));
    expect(log.retainedBytes).toBeGreaterThanOrEqual(before + 4 * 300_000);
    const last = large();
    log.append(last);
    log.settle(answered(last));
    expect(log.retainedBytes).toBeGreaterThanOrEqual(before + 5 * 300_000);
    expect(
      log
        .list()
        .slice(-5)
        .map((d) => d.answeredStatus),
    ).toEqual([502, 204, 204, 204, 204]);
  });

  it('holds no buffer for a log that has had no more deliveries than the young ones', () => {
    const log = logOf();
    for (let i = 0; i < YOUNG_DELIVERIES; i++) log.settle(answered(appendOne(log)));
    expect(log.retainedBytes).toBe(0);
    log.settle(answered(appendOne(log)));
    expect(log.retainedBytes).toBeGreaterThan(0);
  });

  it('reads back what a plain list would hold, whatever the order deliveries are appended, answered, read and dropped in', () => {
    type Step =
      | { kind: 'append'; bodyBytes: number }
      | { kind: 'settle'; pick: number; status: number }
      | { kind: 'read' };
    const step = fc.oneof(
      {
        weight: 5,
        arbitrary: fc.record({ kind: fc.constant('append' as const), bodyBytes: fc.integer({ min: 0, max: 400 }) }),
      },
      {
        weight: 4,
        arbitrary: fc.record({
          kind: fc.constant('settle' as const),
          pick: fc.nat(),
          status: fc.integer({ min: 200, max: 599 }),
        }),
      },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('read' as const) }) },
    );
    fc.assert(
      fc.property(
        fc.array(step, { maxLength: 700 }),
        fc.integer({ min: 1, max: 3 * YOUNG_DELIVERIES }),
        fc.integer({ min: 500, max: 60_000 }),
        (steps: Step[], maxDeliveries, maxStoredBytes) => {
          const log = logOf(maxDeliveries, maxStoredBytes);
          const kept: CapturedDelivery[] = [];
          let pending: CapturedDelivery[] = [];
          let lastRead: readonly CapturedDelivery[] = [];
          for (const next of steps) {
            if (next.kind === 'append') {
              const delivery = captured({
                body: JSON.stringify({ id: `evt_${seq + 1}`, pad: 'x'.repeat(next.bodyBytes) }),
              });
              log.append(delivery);
              kept.push(delivery);
              pending.push(delivery);
              const bytes = () => kept.reduce((sum, d) => sum + d.rawBody.length, 0);
              while (kept.length > 1 && (kept.length > maxDeliveries || bytes() > maxStoredBytes)) kept.shift();
            } else if (next.kind === 'settle' && pending.length > 0) {
              const delivery = pending[next.pick % pending.length]!;
              pending = pending.filter((d) => d !== delivery);
              log.settle(answered(delivery, next.status, next.pick % 1000));
            } else if (next.kind === 'read') {
              const read = log.list();
              // A delivery read once is the same object on every later read.
              const earlier = new Map(lastRead.map((d) => [d.seq, d]));
              for (const delivery of read)
                if (earlier.has(delivery.seq)) expect(delivery).toBe(earlier.get(delivery.seq));
              lastRead = [...read];
            }
          }
          expect(log.list().map(view)).toEqual(kept.map(view));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('holds buffers for the deliveries it keeps, not for those it dropped', () => {
    const log = logOf(1_000);
    for (let i = 0; i < 50_000; i++) log.append(captured());
    // About 870 written down, of about 300 bytes each: two slabs of at most 256 KiB, the current one and two spares.
    expect(log.retainedBytes).toBeLessThanOrEqual(5 * 256 * 1024);
    expect(log.retainedBytes).toBeGreaterThan((1_000 - YOUNG_DELIVERIES) * 250);
  });
});

function appendOne(log: DeliveryLog): CapturedDelivery {
  const delivery = captured();
  log.append(delivery);
  return delivery;
}
