/**
 * How a certify run stops, in one place: SIGINT or SIGTERM (interrupted), the whole-run deadline,
 * or an error outside any check (crashed: the suites' worker gone, the test runner failing). The
 * first of them stops the run once; a signal after a crash turns it into an interrupt (a signal
 * to the whole process group may end the worker before it reaches the runner). The checks still
 * running get STOP_GRACE_MS (`forced` resolves then); what the run created is removed by the
 * caller (src/runner/certify.ts). Signals before and after the suites run are held, never fatal
 * (`holdStopSignals`). The worker's own side of a stop is src/run-state/stop.ts.
 */
import { STOP_GRACE_MS } from '../run-state/stop.js';

/** `crashed`: the test runner or its worker ended unexpectedly (killed, out of memory). */
export type StopReason = 'interrupted' | 'deadline' | 'crashed';

export const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** What a stop watch listens to: this process, or a stand-in in tests. */
export type StopSource = Pick<NodeJS.EventEmitter, 'on' | 'off'>;

export interface StopWatchOptions {
  deadlineMs: number;
  /** Called once, at the stop; `crash` says what crashed. */
  onStop(reason: StopReason, crash?: string): void;
  /** Called for the first signal, before the stop (a line for the console). */
  onSignal?(signal: NodeJS.Signals): void;
  source?: StopSource;
}

export interface StopWatch {
  /** Why the run stopped, if it did: a signal after a crash reads `interrupted`. */
  readonly reason: StopReason | undefined;
  /** Resolves STOP_GRACE_MS after the stop: time to stop waiting for the checks. */
  readonly forced: Promise<void>;
  /** Acts on a signal received before the watch began (holdStopSignals). */
  signal(signal: NodeJS.Signals): void;
  /** Stops listening for signals and clears the timers: the checks are over. */
  clear(): void;
  /** Stops listening for errors: the run is over (after a stop, vitest may still post to a worker that is gone). */
  release(): void;
}

/** What crashed, from an error outside any check. */
export function describeCrash(error: unknown): string {
  if ((error as NodeJS.ErrnoException)?.code === 'ERR_IPC_CHANNEL_CLOSED') return 'the test worker ended unexpectedly';
  return `test runner: ${String((error as Error)?.message ?? error).split('\n')[0]}`;
}

/** Watches for each way a run stops, from now until `clear` (signals, deadline) and `release` (errors). */
export function watchStop(options: StopWatchOptions): StopWatch {
  const source: StopSource = options.source ?? process;
  let first: StopReason | undefined;
  let reason: StopReason | undefined;
  let forceNow!: () => void;
  const forced = new Promise<void>((resolve) => (forceNow = resolve));
  const timers: NodeJS.Timeout[] = [];

  const stop = (why: StopReason, crash?: string) => {
    if (first) return;
    first = reason = why;
    options.onStop(why, crash);
    timers.push(setTimeout(forceNow, STOP_GRACE_MS));
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (!first) options.onSignal?.(signal);
    if (first === 'crashed') reason = 'interrupted';
    stop('interrupted');
  };
  // An error outside any check must not end the process before the clean-up and the report.
  const onError = (error: unknown) => {
    if (!first) stop('crashed', describeCrash(error));
  };
  timers.push(setTimeout(() => stop('deadline'), options.deadlineMs));
  for (const signal of STOP_SIGNALS) source.on(signal, onSignal);
  source.on('unhandledRejection', onError);
  source.on('uncaughtException', onError);
  return {
    get reason() {
      return reason;
    },
    forced,
    signal: onSignal,
    clear() {
      for (const timer of timers) clearTimeout(timer);
      for (const signal of STOP_SIGNALS) source.off(signal, onSignal);
    },
    release() {
      source.off('unhandledRejection', onError);
      source.off('uncaughtException', onError);
    },
  };
}

export interface HeldSignals {
  /** The first SIGINT/SIGTERM since the run began, if any. */
  readonly received: NodeJS.Signals | undefined;
  readonly signalled: Promise<NodeJS.Signals>;
  release(): void;
}

/**
 * Listens for SIGINT/SIGTERM from the start of a run to its end, so that a signal before
 * the suites' runner takes them over (during the start probe, while vitest is set up) or
 * after it lets go (clean-up, reports) never kills the process: it is held and acted on.
 */
export function holdStopSignals(source: StopSource = process): HeldSignals {
  let received: NodeJS.Signals | undefined;
  let notify: (signal: NodeJS.Signals) => void = () => undefined;
  const signalled = new Promise<NodeJS.Signals>((resolve) => {
    notify = resolve;
  });
  const onSignal = (signal: NodeJS.Signals) => {
    received ??= signal;
    notify(signal);
  };
  for (const signal of STOP_SIGNALS) source.on(signal, onSignal);
  return {
    get received() {
      return received;
    },
    signalled,
    release: () => STOP_SIGNALS.forEach((signal) => source.off(signal, onSignal)),
  };
}

/**
 * Why the suites stopped: as their stop watch saw it, or interrupted by a signal it missed. A
 * signal to the whole process group reaches the suites' worker too, which may cancel the checks
 * and end before this process acts on its own copy: then only the held signal tells.
 */
export function suitesStopReason(
  watched: StopReason | undefined,
  held: Pick<HeldSignals, 'received'>,
): StopReason | undefined {
  return watched ?? (held.received ? 'interrupted' : undefined);
}

export function minutes(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000} min` : `${(ms / 1000).toFixed(0)} s`;
}
