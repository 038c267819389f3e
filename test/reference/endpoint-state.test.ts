import { describe, expect, it } from 'vitest';
import { HOUR, MINUTE, harness } from './support.js';

describe('endpoint state machine', () => {
  it('an unbroken 24 h of failures disables the endpoint, counted from the first failure', async () => {
    const h = harness();
    h.dispatcher.publish(h.workspace, 'voice.call.queued', {});
    await h.dispatcher.settle();
    const firstFailure = h.endpoint.health.failingSince!;
    expect(firstFailure).toBe(h.clock.now());
    await h.advance(24 * HOUR - MINUTE, MINUTE);
    expect(h.endpoint.health.state).toBe('active');
    await h.advance(2 * MINUTE, MINUTE);
    expect(h.endpoint.health.state).toBe('disabled');
  });

  it('a success resets the streak', async () => {
    const h = harness();
    h.dispatcher.publish(h.workspace, 'voice.call.queued', {});
    await h.advance(20 * HOUR, MINUTE);
    h.endpoint.health.recordSuccess();
    await h.advance(10 * HOUR, MINUTE);
    expect(h.endpoint.health.state).toBe('active');
  });

  it('a disabled endpoint gets nothing: pending retries are dropped, new events are not sent', async () => {
    const h = harness();
    h.dispatcher.publish(h.workspace, 'voice.call.queued', {});
    await h.advance(25 * HOUR, MINUTE);
    expect(h.endpoint.health.state).toBe('disabled');
    const sentSoFar = h.sender.sent.length;
    expect(sentSoFar).toBe(6); // 1m, 5m, 30m, 2h, 12h retries happened; the 24 h one falls after the disable
    h.dispatcher.publish(h.workspace, 'mailer.email.sent', {});
    await h.advance(30 * HOUR, HOUR);
    expect(h.sender.sent.length).toBe(sentSoFar);
    expect(h.endpoint.health.flagged).toBe(false);
    expect(h.clock.pendingCount()).toBe(0);
    expect(h.dispatcher.replay(h.workspace, h.attempts[0]!.eventId, h.endpoint.id)).toBe('endpoint_disabled');
  });

  it('enable makes it active with a fresh streak, and deliveries resume', async () => {
    const h = harness();
    h.dispatcher.publish(h.workspace, 'voice.call.queued', {});
    await h.advance(25 * HOUR, HOUR / 4);
    expect(h.endpoint.health.state).toBe('disabled');
    h.endpoint.health.enable();
    expect(h.endpoint.health.state).toBe('active');
    h.sender.answers = [{ kind: 'response', status: 204, elapsedMs: 1 }];
    const before = h.sender.sent.length;
    expect(h.dispatcher.replay(h.workspace, h.attempts[0]!.eventId, h.endpoint.id)).toBe('accepted');
    await h.dispatcher.settle();
    expect(h.sender.sent.length).toBe(before + 1);
    expect(JSON.parse(h.sender.sent.at(-1)!.body).id).toBe(h.attempts[0]!.eventId);
  });

  it('fault no-auto-disable keeps it active (the tests can fail)', async () => {
    const h = harness(['no-auto-disable']);
    h.dispatcher.publish(h.workspace, 'voice.call.queued', {});
    await h.advance(30 * HOUR, HOUR / 4);
    expect(h.endpoint.health.state).toBe('active');
  });

  it('fault no-auto-disable keeps it active through failures that come after 24 h of them', async () => {
    const h = harness(['no-auto-disable']);
    for (let hour = 0; hour < 30; hour++) {
      h.dispatcher.publish(h.workspace, 'voice.call.queued', {});
      await h.advance(HOUR, HOUR / 4);
    }
    expect(h.endpoint.health.state).toBe('active');
  });
});
