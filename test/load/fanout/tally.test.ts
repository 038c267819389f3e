import { describe, expect, it } from 'vitest';
import { FanoutTally, LIFECYCLE_EVENTS, type Arrival } from '../../../src/load/fanout/tally.js';

const T0 = 1_800_000_000_000;

/** One valid first arrival; tests change one thing. */
function arrival(change: Partial<Arrival> = {}): Arrival {
  return {
    endpoint: 'e1',
    receivedAtMs: T0 + 100,
    eventType: 'voice.call.completed',
    callId: 'call_1',
    createdAtMs: T0 + 60,
    signatureOk: true,
    duplicate: false,
    ...change,
  };
}

/** Every lifecycle event of `callId` at every endpoint. */
function deliverAll(tally: FanoutTally, callId: string, endpoints: string[], at = T0 + 100): void {
  for (const endpoint of endpoints)
    for (const eventType of LIFECYCLE_EVENTS) tally.arrive(arrival({ endpoint, callId, eventType, receivedAtMs: at }));
}

describe('fan-out tally', () => {
  it('every lifecycle event at every endpoint: nothing lost', () => {
    const tally = new FanoutTally(['e1', 'e2']);
    tally.expect('call_1', T0);
    deliverAll(tally, 'call_1', ['e1', 'e2']);
    expect(tally.stats()).toMatchObject({
      calls_expected: 1,
      expected: 6,
      arrived: 6,
      lost: 0,
      deliveries_total: 6,
      bad_signatures: 0,
    });
  });

  it('a missing completed event at one endpoint is one loss', () => {
    const tally = new FanoutTally(['e1', 'e2']);
    tally.expect('call_1', T0);
    tally.arrive(arrival({ endpoint: 'e1', eventType: 'voice.call.queued' }));
    tally.arrive(arrival({ endpoint: 'e1', eventType: 'voice.call.started' }));
    tally.arrive(arrival({ endpoint: 'e1' }));
    tally.arrive(arrival({ endpoint: 'e2', eventType: 'voice.call.queued' }));
    tally.arrive(arrival({ endpoint: 'e2', eventType: 'voice.call.started' }));
    expect(tally.stats().lost).toBe(1);
    expect(tally.lostByType()).toEqual({ 'voice.call.completed': 1 });
  });

  it('a call no delivery names counts as all its deliveries lost', () => {
    const tally = new FanoutTally(['e1']);
    tally.expect('call_1', T0);
    tally.expect('call_2', T0);
    deliverAll(tally, 'call_1', ['e1']);
    expect(tally.stats()).toMatchObject({ expected: 6, arrived: 3, lost: 3 });
    expect(tally.lostByType()).toEqual({ 'voice.call.queued': 1, 'voice.call.started': 1, 'voice.call.completed': 1 });
  });

  it('deliveries before their call is reported still count once it is', () => {
    const tally = new FanoutTally(['e1']);
    deliverAll(tally, 'call_1', ['e1']);
    expect(tally.stats().unattributed).toBe(3);
    tally.expect('call_1', T0);
    expect(tally.stats()).toMatchObject({ lost: 0, unattributed: 0 });
  });

  it('a duplicate is counted and does not hide a loss', () => {
    const tally = new FanoutTally(['e1']);
    tally.expect('call_1', T0);
    tally.arrive(arrival());
    tally.arrive(arrival({ duplicate: true }));
    expect(tally.stats()).toMatchObject({ duplicates: 1, arrived: 1, lost: 2 });
  });

  it('a bad signature is counted', () => {
    const tally = new FanoutTally(['e1']);
    tally.arrive(arrival({ signatureOk: false }));
    expect(tally.stats().bad_signatures).toBe(1);
  });

  it('latency: created_at to arrival for every event, placement to arrival for completed', () => {
    const tally = new FanoutTally(['e1']);
    tally.expect('call_1', T0);
    tally.arrive(arrival({ eventType: 'voice.call.queued', createdAtMs: T0 + 10, receivedAtMs: T0 + 30 }));
    tally.arrive(arrival({ createdAtMs: T0 + 600, receivedAtMs: T0 + 650 }));
    const samples = tally.stats(true).samples!;
    expect(samples.event_to_arrival_ms).toEqual([20, 50]);
    expect(samples.placement_to_arrival_ms).toEqual([650]);
  });

  it('placement time falls back to the metadata the completed event carries', () => {
    const tally = new FanoutTally(['e1']);
    tally.arrive(arrival({ placedAtMs: T0 + 10, receivedAtMs: T0 + 700 }));
    expect(tally.stats(true).samples!.placement_to_arrival_ms).toEqual([690]);
  });

  it('a completed event without placement metadata is measured once its call is learnt (after k6 ends), within a bound', () => {
    const tally = new FanoutTally(['e1'], { maxSamples: 2 });
    for (const callId of ['call_a', 'call_b', 'call_c']) tally.arrive(arrival({ callId, receivedAtMs: T0 + 900 }));
    expect(tally.stats(true).samples!.placement_to_arrival_ms).toEqual([]);
    tally.expect('call_a', T0 + 100);
    tally.expect('call_b', T0 + 300);
    // call_c arrived past the bound of 2 waiting arrivals: not measured.
    tally.expect('call_c', T0 + 500);
    expect(tally.stats(true).samples!.placement_to_arrival_ms).toEqual([800, 600]);
  });

  it('deliveries per second over the arrival window', () => {
    const tally = new FanoutTally(['e1']);
    for (let i = 0; i <= 10; i++) tally.arrive(arrival({ callId: `call_${i}`, receivedAtMs: T0 + i * 100 }));
    expect(tally.stats().deliveries_per_second).toBeCloseTo(10);
  });

  it('keeps at most maxSamples latency samples', () => {
    const tally = new FanoutTally(['e1'], { maxSamples: 5, random: () => 0.99 });
    for (let i = 0; i < 50; i++) tally.arrive(arrival({ callId: `call_${i}` }));
    expect(tally.stats(true).samples!.event_to_arrival_ms).toHaveLength(5);
  });
});
