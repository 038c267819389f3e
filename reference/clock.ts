// Time as a dependency: the retry scheduler, the endpoint state machine and the
// call lifecycle read the time and set timers only through a Clock, so their unit
// tests drive a ManualClock instead of waiting.

export interface TimerHandle {
  cancel(): void;
}

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** Runs `fn` after `delayMs`; the handle cancels it. Timers never keep the process alive. */
  setTimer(delayMs: number, fn: () => void): TimerHandle;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(delayMs, fn) {
    const timer = setTimeout(fn, Math.max(0, delayMs));
    timer.unref();
    return { cancel: () => clearTimeout(timer) };
  },
};

interface ManualTimer {
  dueAt: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

/** A clock that only moves when told to; `advance` fires due timers in time order. */
export class ManualClock implements Clock {
  private current: number;
  private seq = 0;
  private timers: ManualTimer[] = [];

  constructor(startMs = Date.UTC(2026, 10, 22, 15, 0, 0)) {
    this.current = startMs;
  }

  now(): number {
    return this.current;
  }

  setTimer(delayMs: number, fn: () => void): TimerHandle {
    const timer: ManualTimer = { dueAt: this.current + Math.max(0, delayMs), seq: this.seq++, fn, cancelled: false };
    this.timers.push(timer);
    return {
      cancel: () => {
        timer.cancelled = true;
      },
    };
  }

  /** Timers not yet fired nor cancelled. */
  pendingCount(): number {
    return this.timers.filter((t) => !t.cancelled).length;
  }

  /** Moves time forward by `ms`, firing every timer that falls due, including ones set by fired timers. */
  advance(ms: number): void {
    const target = this.current + ms;
    for (;;) {
      const next = this.timers
        .filter((t) => !t.cancelled && t.dueAt <= target)
        .sort((a, b) => a.dueAt - b.dueAt || a.seq - b.seq)[0];
      if (!next) break;
      this.current = Math.max(this.current, next.dueAt);
      next.cancelled = true;
      next.fn();
    }
    this.timers = this.timers.filter((t) => !t.cancelled);
    this.current = target;
  }
}

/** A clock whose pending timers can all be cancelled at once (a server's close()). */
export class TrackedClock implements Clock {
  private readonly pending = new Set<TimerHandle>();

  constructor(private readonly base: Clock = systemClock) {}

  now(): number {
    return this.base.now();
  }

  setTimer(delayMs: number, fn: () => void): TimerHandle {
    const handle: TimerHandle = {
      cancel: () => {
        this.pending.delete(handle);
        inner.cancel();
      },
    };
    const inner = this.base.setTimer(delayMs, () => {
      this.pending.delete(handle);
      fn();
    });
    this.pending.add(handle);
    return handle;
  }

  cancelAll(): void {
    for (const handle of [...this.pending]) handle.cancel();
  }
}
