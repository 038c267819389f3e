import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  describeCrash,
  holdStopSignals,
  minutes,
  suitesStopReason,
  watchStop,
  type StopReason,
} from '../../src/runner/run-stop.js';
import { STOP_GRACE_MS } from '../../src/run-state/stop.js';

const DEADLINE_MS = 60_000;

/** A stop watch on a stand-in process, recording each stop and signal line. */
function watched() {
  const source = new EventEmitter();
  const stops: Array<{ reason: StopReason; crash?: string }> = [];
  const signals: string[] = [];
  const watch = watchStop({
    deadlineMs: DEADLINE_MS,
    source,
    onStop: (reason, crash) => stops.push(crash ? { reason, crash } : { reason }),
    onSignal: (signal) => signals.push(signal),
  });
  return { source, stops, signals, watch };
}

/** Whether `promise` has settled, once pending callbacks have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await Promise.resolve();
  return done;
}

describe('how a run stops', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it.each(['SIGINT', 'SIGTERM'] as const)('%s interrupts the run once, and says so once', (signal) => {
    const { source, stops, signals, watch } = watched();
    source.emit(signal, signal);
    source.emit(signal, signal);
    expect(stops).toEqual([{ reason: 'interrupted' }]);
    expect(signals).toEqual([signal]);
    expect(watch.reason).toBe('interrupted');
  });

  it('the deadline stops the run when it passes, not before', () => {
    const { stops, watch } = watched();
    vi.advanceTimersByTime(DEADLINE_MS - 1);
    expect(stops).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(stops).toEqual([{ reason: 'deadline' }]);
    expect(watch.reason).toBe('deadline');
  });

  it('an unhandled rejection or an uncaught exception outside the checks is a crash, with what crashed', () => {
    const rejected = watched();
    rejected.source.emit('unhandledRejection', new Error('worker lost\nstack line'));
    expect(rejected.stops).toEqual([{ reason: 'crashed', crash: 'test runner: worker lost' }]);
    const thrown = watched();
    thrown.source.emit(
      'uncaughtException',
      Object.assign(new Error('channel closed'), { code: 'ERR_IPC_CHANNEL_CLOSED' }),
    );
    expect(thrown.stops).toEqual([{ reason: 'crashed', crash: 'the test worker ended unexpectedly' }]);
  });

  it('a signal after a crash reads as an interrupt: a signal to the group may end the worker first', () => {
    const { source, stops, watch } = watched();
    source.emit('unhandledRejection', new Error('gone'));
    source.emit('SIGINT', 'SIGINT');
    expect(stops.map((stop) => stop.reason)).toEqual(['crashed']);
    expect(watch.reason).toBe('interrupted');
  });

  it('an error after a stop is not a second stop', () => {
    const { source, stops } = watched();
    source.emit('SIGTERM', 'SIGTERM');
    source.emit('unhandledRejection', new Error('the worker, ended by the signal'));
    vi.advanceTimersByTime(DEADLINE_MS);
    expect(stops).toEqual([{ reason: 'interrupted' }]);
  });

  it('gives the checks STOP_GRACE_MS after the stop, then forces', async () => {
    const { source, watch } = watched();
    source.emit('SIGINT', 'SIGINT');
    vi.advanceTimersByTime(STOP_GRACE_MS - 1);
    expect(await settled(watch.forced)).toBe(false);
    vi.advanceTimersByTime(1);
    expect(await settled(watch.forced)).toBe(true);
  });

  it('a signal held before the watch began stops the run as one received', () => {
    const { stops, signals, watch } = watched();
    watch.signal('SIGTERM');
    expect(stops).toEqual([{ reason: 'interrupted' }]);
    expect(signals).toEqual(['SIGTERM']);
  });

  it('clear ends the deadline and the signal listeners; release, the error listeners', () => {
    const { source, stops, watch } = watched();
    watch.clear();
    vi.advanceTimersByTime(DEADLINE_MS);
    source.emit('SIGINT', 'SIGINT');
    expect(stops).toEqual([]);
    expect(source.listenerCount('SIGINT') + source.listenerCount('SIGTERM')).toBe(0);
    expect(source.listenerCount('unhandledRejection')).toBe(1);
    watch.release();
    expect(source.listenerCount('unhandledRejection') + source.listenerCount('uncaughtException')).toBe(0);
  });
});

describe('signals held outside the suites', () => {
  it('keeps the first signal, resolves on it, and lets go on release', async () => {
    const source = new EventEmitter();
    const held = holdStopSignals(source);
    expect(held.received).toBeUndefined();
    source.emit('SIGTERM', 'SIGTERM');
    source.emit('SIGINT', 'SIGINT');
    expect(held.received).toBe('SIGTERM');
    await expect(held.signalled).resolves.toBe('SIGTERM');
    held.release();
    expect(source.listenerCount('SIGINT') + source.listenerCount('SIGTERM')).toBe(0);
  });
});

describe('the reason the suites stopped', () => {
  it("is the watch's, or interrupted by a signal held after the watch let go", () => {
    const source = new EventEmitter();
    const held = holdStopSignals(source);
    const { watch, source: watchedSource } = watched();
    expect(suitesStopReason(watch.reason, held)).toBeUndefined();
    // The worker, signalled with the group, ended the checks; this process's copy came after the watch cleared.
    watch.clear();
    source.emit('SIGINT', 'SIGINT');
    expect(suitesStopReason(watch.reason, held)).toBe('interrupted');
    // A stop the watch saw keeps its own reason.
    const deadline = watched();
    deadline.watch.signal('SIGTERM');
    expect(suitesStopReason('deadline', held)).toBe('deadline');
    expect(suitesStopReason(deadline.watch.reason, holdStopSignals(new EventEmitter()))).toBe('interrupted');
    for (const each of [watch, deadline.watch]) each.clear();
    expect(watchedSource.listenerCount('SIGINT')).toBe(0);
    held.release();
  });
});

describe('wording', () => {
  it('names a crash by its first line, and minutes as minutes where whole', () => {
    expect(describeCrash('plain text')).toBe('test runner: plain text');
    expect(minutes(20 * 60_000)).toBe('20 min');
    expect(minutes(90_000)).toBe('90 s');
  });
});
