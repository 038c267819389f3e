import { describe, expect, it } from 'vitest';
import { HOUR, MINUTE, harness } from './support.js';

// The spec's schedule: retries after 1m, 5m, 30m, 2h, 12h, 24h, each measured from the
// end of the failed attempt; after the sixth retry fails the delivery is dropped.

const SPEC_GAPS = [1 * MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 12 * HOUR, 24 * HOUR];

function gaps(times: number[]): number[] {
  return times.slice(1).map((t, i) => t - times[i]!);
}

describe('retry scheduler', () => {
  it('a failing delivery is attempted 7 times at the spec delays, then dropped and flagged', async () => {
    // A success on another event every 12 h keeps the endpoint from auto-disabling,
    // so the whole schedule can play out.
    const h = harness();
    h.dispatcher.publish(h.workspace, 'voice.call.queued', { n: 1 });
    await h.dispatcher.settle();
    const failing = h.sender.sent[0];
    expect(failing).toBeDefined();
    for (let hour = 0; hour < 40; hour++) {
      await h.advance(HOUR, MINUTE / 2);
      if (hour % 12 === 11) h.endpoint.health.recordSuccess();
    }
    const attemptsOfFirst = h.attempts.filter((a) => a.eventId === h.attempts[0]!.eventId);
    expect(attemptsOfFirst).toHaveLength(7);
    expect(attemptsOfFirst.every((a) => !a.success)).toBe(true);
    expect(gaps(attemptsOfFirst.map((a) => a.at))).toEqual(SPEC_GAPS);
    expect(h.endpoint.health.flagged).toBe(true);
    expect(h.endpoint.pendingRetries.size).toBe(0);
  });

  it('delays are divided by the workspace time scale', async () => {
    const h = harness([], 3600);
    h.dispatcher.publish(h.workspace, 'voice.call.queued', {});
    await h.advance(20_000, 1);
    const times = h.attempts.map((a) => a.at);
    const expected = SPEC_GAPS.slice(0, 5).map((d) => d / 3600);
    const actual = gaps(times).slice(0, 5);
    expect(actual).toHaveLength(5);
    // The manual clock advances in 1 ms steps: each gap is the scaled delay, rounded up.
    actual.forEach((gap, i) => expect(Math.abs(gap - expected[i]!)).toBeLessThanOrEqual(1));
  });

  it('a 2xx ends the delivery: no further attempts, no flag', async () => {
    const h = harness();
    h.sender.answers = [
      { kind: 'response', status: 503, elapsedMs: 1 },
      { kind: 'error', reason: 'ECONNREFUSED' },
      { kind: 'response', status: 204, elapsedMs: 1 },
    ];
    h.dispatcher.publish(h.workspace, 'voice.call.queued', {});
    await h.advance(2 * HOUR, MINUTE / 2);
    expect(h.attempts.map((a) => a.success)).toEqual([false, false, true]);
    expect(h.endpoint.health.flagged).toBe(false);
    expect(h.endpoint.health.failingSince).toBeNull();
  });

  it('3xx and time-outs are failures that are retried', async () => {
    const h = harness();
    h.sender.answers = [
      { kind: 'response', status: 302, elapsedMs: 1 },
      { kind: 'timeout' },
      { kind: 'response', status: 200, elapsedMs: 1 },
    ];
    h.dispatcher.publish(h.workspace, 'voice.call.queued', {});
    await h.advance(10 * MINUTE, MINUTE / 2);
    expect(h.attempts.map((a) => a.success)).toEqual([false, false, true]);
  });

  it('every attempt is signed afresh with its own timestamp over the same body', async () => {
    const h = harness();
    h.sender.answers = [
      { kind: 'response', status: 500, elapsedMs: 1 },
      { kind: 'response', status: 200, elapsedMs: 1 },
    ];
    h.dispatcher.publish(h.workspace, 'voice.call.queued', {});
    await h.dispatcher.settle();
    const realNow = Date.now;
    Date.now = () => realNow() + 61_000; // the header carries real wall-clock time
    try {
      await h.advance(2 * MINUTE, MINUTE / 2);
    } finally {
      Date.now = realNow;
    }
    const [first, second] = h.sender.sent;
    expect(second!.body).toBe(first!.body);
    expect(Number(second!.headers['x-service-timestamp'])).toBeGreaterThanOrEqual(
      Number(first!.headers['x-service-timestamp']) + 60,
    );
  });

  it('fault retry-exponential changes the schedule (the tests can fail)', async () => {
    const h = harness(['retry-exponential']);
    h.dispatcher.publish(h.workspace, 'voice.call.queued', {});
    await h.advance(70 * MINUTE, MINUTE / 2);
    expect(gaps(h.attempts.map((a) => a.at))).not.toEqual(SPEC_GAPS.slice(0, 6));
    expect(gaps(h.attempts.map((a) => a.at))).toEqual([1, 2, 4, 8, 16, 32].map((m) => m * MINUTE));
  });
});
