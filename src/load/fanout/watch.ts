/**
 * The fan-out's eyes: every delivery that settles at the scenario's endpoints (one receiver,
 * or a pool of receiver processes behind one port) is turned into an Arrival and tallied
 * while k6 runs. Which calls were placed is learnt after k6 ends, from the runners' own
 * samples (verdict.ts), so no runner talks to the harness: runners may be anywhere.
 */
import { ID_PATTERNS, findFirstId } from '../../ids.js';
import type { CapturedDelivery, ReceiverEndpoint, ReceiverStats } from '../../capturing-receiver/index.js';
import { FanoutTally, type Arrival } from './tally.js';

/** What the tally needs from one captured delivery (parsed JSON only; never the secret). */
export function arrivalOf(delivery: CapturedDelivery): Arrival {
  const envelope = (delivery.verdicts.json ?? {}) as { type?: unknown; created_at?: unknown; data?: unknown };
  const data = (envelope.data ?? {}) as { call_id?: unknown; metadata?: { placed_at_ms?: unknown } };
  const callId = typeof data.call_id === 'string' ? data.call_id : findFirstId(data, ID_PATTERNS.call);
  const createdAtMs = typeof envelope.created_at === 'string' ? Date.parse(envelope.created_at) : NaN;
  const placedAt = Number(data.metadata?.placed_at_ms);
  const signature = delivery.verdicts.signature;
  return {
    endpoint: delivery.endpoint,
    receivedAtMs: delivery.receivedAtMs,
    eventType: typeof envelope.type === 'string' ? envelope.type : delivery.verdicts.eventType,
    callId,
    createdAtMs: Number.isFinite(createdAtMs) ? createdAtMs : undefined,
    placedAtMs: Number.isFinite(placedAt) && placedAt > 0 ? placedAt : undefined,
    signatureOk: signature !== 'no-secret' && signature.ok,
    duplicate: delivery.verdicts.duplicate,
  };
}

/** Calls `listener` with the arrival of each settled delivery; returns what stops it. */
export type ArrivalFeed = (listener: (arrival: Arrival) => void) => () => void;

/** The arrivals at endpoints of a receiver in this process. */
export function arrivalsAt(endpoints: readonly ReceiverEndpoint[]): ArrivalFeed {
  return (listener) => {
    const offs = endpoints.map((endpoint) => endpoint.onSettled((delivery) => listener(arrivalOf(delivery))));
    return () => offs.forEach((off) => off());
  };
}

export interface FanoutWatch {
  tally: FanoutTally;
  /** The receiver's own counters (its GET /_stats), when known. */
  receiverStats(): ReceiverStats | undefined;
  stop(): void;
}

/** Tallies the arrivals from `feed` at the endpoints named `endpointNames` until stopped. */
export function watchFanout(
  endpointNames: readonly string[],
  feed: ArrivalFeed,
  receiverStats?: () => ReceiverStats,
): FanoutWatch {
  const tally = new FanoutTally(endpointNames);
  const stop = feed((arrival) => tally.arrive(arrival));
  return { tally, receiverStats: () => receiverStats?.(), stop };
}
