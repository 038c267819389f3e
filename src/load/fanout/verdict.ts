/**
 * The fan-out's verdict, made once k6 has ended from what each side saw: the runners' own
 * samples name the calls they placed (FANOUT_PLACED_METRIC, tagged with the call id and the
 * placement time), the tally (watch.ts) knows what arrived at the receivers. Late
 * deliveries get the drain; the figures are then written as k6 output lines, which the
 * merge judges with the script's own thresholds beside the runners' samples, locally or
 * by `svc-harness load merge` for runners that ran elsewhere.
 */
import { writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  FANOUT_PLACED_METRIC,
  FANOUT_RECEIVER_METRICS,
  PLACED_AT_MS,
  PLACED_CALL_ID,
  type FanoutReceiverMetric,
} from '../../../load/lib/fanout-metrics.js';
import type { ReceiverStats } from '../../capturing-receiver/index.js';
import type { FanoutStats, FanoutTally } from './tally.js';
import { k6OutputText, readK6Output, type ObservedMetric } from '../k6/output.js';

const DRAIN_POLL_MS = 250;

export interface PlacedCalls {
  placed: number;
  /** Placed past the tally's bound: their deliveries cannot be accounted. */
  untracked: number;
  /** The time of the runners' last sample (ms since the epoch), if they wrote any. */
  lastSampleMs?: number;
}

/** Tells the tally every call the runners' samples say was placed. */
export async function learnPlacedCalls(tally: FanoutTally, samples: readonly string[]): Promise<PlacedCalls> {
  let placed = 0;
  let untracked = 0;
  let lastSampleMs: number | undefined;
  for await (const line of readK6Output(samples)) {
    if (line.kind !== 'point') continue;
    lastSampleMs = Math.max(lastSampleMs ?? line.timeMs, line.timeMs);
    if (line.metric !== FANOUT_PLACED_METRIC) continue;
    // Metadata since the samples went to metrics stores; tags in samples written before.
    const callId = line.metadata[PLACED_CALL_ID] ?? line.tags[PLACED_CALL_ID];
    const placedAtMs = Number(line.metadata[PLACED_AT_MS] ?? line.tags[PLACED_AT_MS]);
    if (callId === undefined || !Number.isFinite(placedAtMs)) continue;
    placed++;
    if (!tally.expect(callId, placedAtMs)) untracked++;
  }
  return { placed, untracked, ...(lastSampleMs !== undefined ? { lastSampleMs } : {}) };
}

/** Waits until nothing expected is missing, or `drainMs` has passed; returns the last stats, with samples. */
export async function drain(tally: FanoutTally, drainMs: number, pollMs = DRAIN_POLL_MS): Promise<FanoutStats> {
  const deadline = Date.now() + drainMs;
  while (tally.stats(false).lost > 0 && Date.now() < deadline)
    await sleep(Math.min(pollMs, Math.max(1, deadline - Date.now())));
  return tally.stats(true);
}

/** The figures the fanout script's thresholds and the report name, each with its samples. */
export function observedMetrics(
  stats: FanoutStats,
  calls: PlacedCalls,
  receiver?: Pick<ReceiverStats, 'clientClosed'>,
): ObservedMetric[] {
  const samples: Record<FanoutReceiverMetric, readonly number[]> = {
    fanout_untracked_calls: [calls.untracked],
    fanout_expected_deliveries: [stats.expected],
    fanout_arrived_deliveries: [stats.arrived],
    fanout_lost_deliveries: [stats.lost],
    fanout_loss_ratio: [stats.expected > 0 ? stats.lost / stats.expected : 1],
    fanout_bad_signatures: [stats.bad_signatures],
    fanout_duplicates: [stats.duplicates],
    fanout_unattributed_deliveries: [stats.unattributed],
    fanout_deliveries_per_second: [stats.deliveries_per_second],
    fanout_receiver_client_closed: [receiver?.clientClosed ?? 0],
    fanout_event_to_arrival_ms: stats.samples?.event_to_arrival_ms ?? [],
    fanout_placement_to_arrival_ms: stats.samples?.placement_to_arrival_ms ?? [],
  };
  return Object.entries(FANOUT_RECEIVER_METRICS).map(([name, type]) => ({
    name,
    type,
    values: samples[name as FanoutReceiverMetric],
  }));
}

/** `R`: the receivers' counters as known (the verdict reads only clientClosed). */
export interface FanoutVerdictInput<R extends Pick<ReceiverStats, 'clientClosed'> = ReceiverStats> {
  tally: FanoutTally;
  /** The runners' sample files (k6 --out json=…). */
  samples: readonly string[];
  drainMs: number;
  receiver?: () => R | undefined;
  /** Where the observed figures go, as k6 output lines. */
  out: string;
}

/** Learns the placed calls, drains, writes the observed figures to `out`; returns the stats for the log. */
export async function writeFanoutObservations<R extends Pick<ReceiverStats, 'clientClosed'>>(
  input: FanoutVerdictInput<R>,
): Promise<{ stats: FanoutStats; calls: PlacedCalls; receiver?: R }> {
  const calls = await learnPlacedCalls(input.tally, input.samples);
  const stats = await drain(input.tally, input.drainMs);
  const receiver = input.receiver?.();
  // Stamped with the runners' last sample, so that the drain does not stretch the span `load merge` takes rates over.
  writeFileSync(
    input.out,
    k6OutputText(observedMetrics(stats, calls, receiver), new Date(calls.lastSampleMs ?? Date.now())),
  );
  return { stats, calls, ...(receiver ? { receiver } : {}) };
}
