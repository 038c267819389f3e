/**
 * The auto call lifecycle (reference/calls/lifecycle.ts) on a clock that fires every due
 * timer longest delay first, as node's timers can when the event loop lags: a call still
 * goes queued → started → completed, each event published once, in that order.
 */
import { describe, expect, it } from 'vitest';
import { CallService } from '../../reference/calls/lifecycle.js';
import { CallRecords } from '../../reference/calls/records.js';
import type { Clock, TimerHandle } from '../../reference/clock.js';
import type { Call } from '../../reference/calls/call.js';
import type { Agent, Store, Workspace } from '../../reference/store.js';
import type { Dispatcher } from '../../reference/webhooks/dispatcher.js';

/** Timers run only on `lag`, which fires all of them at once, the longest delay first. */
class LaggingClock implements Clock {
  #timers: Array<{ delayMs: number; fn: () => void; cancelled: boolean }> = [];

  now(): number {
    return Date.UTC(2026, 10, 25);
  }

  setTimer(delayMs: number, fn: () => void): TimerHandle {
    const timer = { delayMs, fn, cancelled: false };
    this.#timers.push(timer);
    return { cancel: () => void (timer.cancelled = true) };
  }

  /** Fires every pending timer, and those they set, longest delay first within each round. */
  lag(): void {
    while (this.#timers.length > 0) {
      const due = this.#timers.sort((a, b) => b.delayMs - a.delayMs);
      this.#timers = [];
      for (const timer of due) if (!timer.cancelled) timer.fn();
    }
  }
}

describe('the auto call lifecycle', () => {
  it('starts a call before it completes it, whatever order due timers fire in', () => {
    const clock = new LaggingClock();
    const published: string[] = [];
    const store = { addCall: (workspace: Workspace, call: Call) => workspace.calls.add(call) } as unknown as Store;
    const dispatcher = {
      publishIfReceived: (_workspace: unknown, type: string) => published.push(type),
    } as unknown as Dispatcher;
    const workspace = {
      id: 'ws_test',
      callProgress: 'auto',
      calls: new CallRecords(),
      faults: new Set(),
    } as unknown as Workspace;
    const calls = new CallService(store, dispatcher, clock, () => 'https://svc.example.test');
    const call = calls.place(workspace, { id: 'agt_test' } as Agent, '+14155550100', {});
    clock.lag();
    expect(published).toEqual(['voice.call.queued', 'voice.call.started', 'voice.call.completed']);
    expect(call.state).toBe('completed');
  });
});
