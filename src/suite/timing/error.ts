/**
 * The measurement's own timing error, so that a schedule's tolerance is the service's
 * allowed jitter plus what this run can actually resolve, instead of a fixed floor that
 * hides a wrong delay. Two sources: how late this process notices things (its event-loop
 * delay while the observation ran: a timer of the service on the same loaded machine
 * suffers the same), and the network round trip between the harness and the service
 * (an attempt is seen once it has connected and sent its request).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Tolerance } from './schedule.js';

/** The jitter a retry delay may have either way (the spec states none; schedulers commonly add a few percent). */
export const SCHEDULE_JITTER = 0.05;
/** Below this the measurement cannot resolve: receiver timestamps, HTTP parsing, timers. */
export const MIN_TIMING_ERROR_MS = 10;
/** Round trips an attempt needs before the receiver sees it (connect, TLS, request) beyond one. */
const LATE_ROUND_TRIPS = 2;

export interface TimingError {
  /** p99 of this process's event-loop delay while the observation ran. */
  eventLoopP99Ms: number;
  /** The fastest of a few round trips to the service. */
  roundTripMs: number;
}

/** Starts watching this process's event-loop delay; `stop()` gives its p99 in ms. */
export function watchEventLoopDelay(): { stop(): number } {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  return {
    stop() {
      histogram.disable();
      const p99 = histogram.count > 0 ? histogram.percentile(99) / 1e6 : 0;
      return Math.round(p99 * 10) / 10;
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
export function scheduleTolerance(error: TimingError): Tolerance {
  return {
    fraction: SCHEDULE_JITTER,
    errorMs: Math.ceil(Math.max(MIN_TIMING_ERROR_MS, 2 * error.eventLoopP99Ms) + error.roundTripMs),
    lateMs: Math.ceil(LATE_ROUND_TRIPS * error.roundTripMs),
  };
}
