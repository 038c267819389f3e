/**
 * The measurement's own timing error, so that a schedule's tolerance is the service's
 * allowed jitter plus what this run can actually resolve, instead of a fixed floor that
 * hides a wrong delay. Two sources: how late this process notices things (its event-loop
 * delay while the observation ran: a timer of the service on the same loaded machine
 * suffers the same), and the network round trip between the harness and the service
 * (an attempt is seen once it has connected and sent its request).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { ArrivalTolerance } from './schedule.js';
import { SCALED_SPAN_BOUND_MS } from './budget.js';

/** The jitter a retry delay may have either way (the spec states none; schedulers commonly add a few percent). */
export const SCHEDULE_JITTER = 0.05;
/** Below this the measurement cannot resolve: receiver timestamps, HTTP parsing, timers. */
export const MIN_TIMING_ERROR_MS = 10;
/**
 * The shortest delay whose timing a run judges. The service's own timers are late by however
 * long its machine keeps it from running, which this process cannot measure: on a small
 * machine busy with a whole run and an image build, the reference's retries came late by
 * several times what this process stalled. From 5 s, the spec's 5% jitter alone (250 ms)
 * is above that.
 */
export const TIMED_DELAY_MS = 5_000;
/** Round trips an attempt needs before the receiver sees it (connect, TLS, request) beyond one. */
const LATE_ROUND_TRIPS = 2;

export interface TimingError {
  /** p99 of this process's event-loop delay while the observation ran. */
  eventLoopP99Ms: number;
  /** The fastest of a few round trips to the service. */
  roundTripMs: number;
  /**
   * The longest event-loop stall overlapping [fromMs, toMs] (performance.now() ms). A p99
   * over a whole observation hides a burst at its start, when every check of the run sets
   * up at once, which is when the shortest delays of a schedule are measured.
   */
  stallBetween?: (fromMs: number, toMs: number) => number;
}

/** How often the stall sampler looks at the clock. */
const STALL_SAMPLE_MS = 5;
/**
 * Stalls kept: enough, were every sample a stall, to cover the longest observation, the
 * bound on scaled time with room for waiting past it (src/suite/timing/budget.ts). An
 * observation at a target's smaller time scale lasts longer, and its earliest gaps are judged
 * at its end.
 */
const STALL_SAMPLES_KEPT = Math.ceil((1.5 * SCALED_SPAN_BOUND_MS) / STALL_SAMPLE_MS);
/** Dropped in batches of this many beyond the kept ones, not one by one (a shift moves every element). */
const STALL_TRIM_EVERY = 1_000;

export interface EventLoopWatch {
  /** Stops watching; the p99 of the delay in ms. `stallBetween` still answers afterwards. */
  stop(): number;
  stallBetween(fromMs: number, toMs: number): number;
}

/** Starts watching this process's event-loop delay: its p99 overall, and its stalls in time. */
export function watchEventLoopDelay(): EventLoopWatch {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  // A stall of `ms` ending at `endedAtMs`: the loop was blocked over [endedAtMs - ms, endedAtMs].
  const stalls: Array<{ endedAtMs: number; ms: number }> = [];
  let last = performance.now();
  const sampler = setInterval(() => {
    const now = performance.now();
    const ms = now - last - STALL_SAMPLE_MS;
    last = now;
    if (ms <= 1) return;
    stalls.push({ endedAtMs: now, ms });
    if (stalls.length > STALL_SAMPLES_KEPT + STALL_TRIM_EVERY) stalls.splice(0, stalls.length - STALL_SAMPLES_KEPT);
  }, STALL_SAMPLE_MS);
  sampler.unref();
  return {
    stop() {
      clearInterval(sampler);
      histogram.disable();
      const p99 = histogram.count > 0 ? histogram.percentile(99) / 1e6 : 0;
      return Math.round(p99 * 10) / 10;
    },
    stallBetween(fromMs, toMs) {
      let worst = 0;
      for (const stall of stalls)
        if (stall.endedAtMs >= fromMs && stall.endedAtMs - stall.ms <= toMs) worst = Math.max(worst, stall.ms);
      return Math.round(worst * 10) / 10;
    },
  };
}

/** The fastest of `probes` round trips made by `send` (which resolves with the response's duration). */
export async function fastestRoundTripMs(send: () => Promise<{ durationMs: number }>, probes = 3): Promise<number> {
  let fastest = Infinity;
  for (let i = 0; i < probes; i++) fastest = Math.min(fastest, (await send()).durationMs);
  return Math.round(fastest * 10) / 10;
}

/**
 * ±(5% + error) around each delay, and `LATE_ROUND_TRIPS` more round trips late: the
 * error is twice the event-loop p99 (the service's timer and our receipt can each be
 * that late), at least MIN_TIMING_ERROR_MS, plus one round trip.
 */
export function scheduleTolerance(error: TimingError): ArrivalTolerance {
  return toleranceWith(error, error.eventLoopP99Ms);
}

/**
 * The tolerance of one gap: as scheduleTolerance, with the event loop's delay taken as the
 * worse of its p99 and the longest stall during that gap (see TimingError.stallBetween).
 */
export function gapTolerance(error: TimingError): (fromMs: number, toMs: number) => ArrivalTolerance {
  return (fromMs, toMs) =>
    toleranceWith(error, Math.max(error.eventLoopP99Ms, error.stallBetween?.(fromMs, toMs) ?? 0));
}

function toleranceWith(error: TimingError, eventLoopDelayMs: number): ArrivalTolerance {
  return {
    fraction: SCHEDULE_JITTER,
    errorMs: Math.ceil(Math.max(MIN_TIMING_ERROR_MS, 2 * eventLoopDelayMs) + error.roundTripMs),
    lateMs: Math.ceil(LATE_ROUND_TRIPS * error.roundTripMs),
  };
}
