import { describe, expect, it } from 'vitest';
import { Bucket, MIN_RATE, Pacer } from '../../src/http/pacing.js';

/** Sends `count` requests through `reserve` as fast as it allows; the send times. */
function sendTimes(reserve: (nowMs: number) => number, count: number, startMs = 0): number[] {
  const times: number[] = [];
  for (let i = 0; i < count; i++) times.push(startMs + reserve(startMs));
  return times;
}

describe('Bucket', () => {
  it('lets everything through at once without a ceiling', () => {
    const bucket = new Bucket(Infinity);
    expect(sendTimes((now) => bucket.reserve(now), 100)).toEqual(Array(100).fill(0));
  });

  it('spaces requests at its rate after a burst of a tenth of it', () => {
    const bucket = new Bucket(50);
    const times = sendTimes((now) => bucket.reserve(now), 105);
    expect(times.slice(0, 5)).toEqual([0, 0, 0, 0, 0]);
    // 100 more at 20 ms each after the burst of 5: the 105th goes at 2 s.
    expect(times.at(-1)).toBe(2000);
    expect(times.filter((t) => t < 1000).length).toBeLessThanOrEqual(55);
  });

  it('pauses for the Retry-After of a 429, and lowers itself to what got through', () => {
    const bucket = new Bucket(Infinity);
    for (let t = 0; t < 2000; t += 100) bucket.answered(t); // 20 answers in 2 s: 10 a second
    bucket.limited(2000, 1000);
    expect(bucket.ratePerSecond).toBe(9);
    expect(bucket.reserve(2000)).toBe(1000);
    const after = sendTimes((now) => bucket.reserve(now), 10, 3000);
    expect(after.at(-1)! - 3000).toBeGreaterThan(900);
  });

  it('never goes below the floor rate, even after 429s alone', () => {
    const bucket = new Bucket(Infinity);
    bucket.limited(0, 0);
    expect(bucket.ratePerSecond).toBe(MIN_RATE);
  });

  it('is lowered once per cooldown: the answers to what it sent before are still 429s', () => {
    const bucket = new Bucket(Infinity);
    for (let t = 0; t < 2000; t += 50) bucket.answered(t);
    bucket.limited(2000, 0);
    const once = bucket.ratePerSecond;
    bucket.limited(2100, 0);
    expect(bucket.ratePerSecond).toBe(once);
  });

  it('creeps back up without 429s, and returns to its ceiling after a quiet spell', () => {
    const bucket = new Bucket(Infinity);
    for (let t = 0; t < 2000; t += 100) bucket.answered(t);
    bucket.limited(2000, 0);
    bucket.reserve(5000);
    expect(bucket.ratePerSecond).toBeGreaterThan(9);
    expect(bucket.ratePerSecond).toBeLessThan(12);
    bucket.reserve(12_001);
    expect(bucket.ratePerSecond).toBe(Infinity);
  });
});

describe('Pacer', () => {
  const clockAt = (ms: { now: number }) => ({ now: () => ms.now });

  it('blames one lane for its 429: the others go on at full speed', () => {
    const time = { now: 0 };
    const pacer = new Pacer(undefined, clockAt(time));
    expect(pacer.limited('ws:a', 1000)).toBe('lane');
    expect(pacer.reserve('ws:a')).toBe(1000);
    expect(pacer.reserve('ws:b')).toBe(0);
    expect(pacer.runRate).toBe(Infinity);
  });

  it('blames the whole run when 429s reach several lanes at once', () => {
    const time = { now: 0 };
    const pacer = new Pacer(undefined, clockAt(time));
    for (let i = 0; i < 40; i++) pacer.answered(`ws:${i % 4}`);
    pacer.limited('ws:a', 500);
    time.now = 200;
    expect(pacer.limited('ws:b', 500)).toBe('run');
    expect(pacer.runRate).toBeLessThan(Infinity);
    expect(pacer.reserve('ws:c')).toBeGreaterThan(0);
  });

  it('holds the run to CERTIFY_RATE_LIMIT across lanes', () => {
    const time = { now: 0 };
    const pacer = new Pacer(10, clockAt(time));
    const waits = Array.from({ length: 21 }, (_, i) => pacer.reserve(`ws:${i}`));
    expect(waits.at(-1)).toBe(2000);
  });

  it('gives a timed request its slot ahead of bulk requests already waiting', () => {
    const time = { now: 0 };
    const pacer = new Pacer(10, clockAt(time));
    // The burst of one at 10/s: the first bulk request goes, the next must wait.
    expect(pacer.admit('ws:setup', false)).toBe(0);
    const bulkWait = pacer.admit('ws:setup', false);
    expect(bulkWait).toBe(100);
    // A timed request arriving meanwhile reserves the next slot…
    expect(pacer.admit('ws:rotation', true)).toBe(100);
    // …so the bulk request, asking again when it was told, finds it taken and waits one more interval.
    time.now = bulkWait;
    expect(pacer.admit('ws:setup', false)).toBe(100);
    time.now = 200;
    expect(pacer.admit('ws:setup', false)).toBe(0);
  });
});

describe('Bucket after 429s', () => {
  it('judges a lane seconds old by what got through since it started, not over the whole window', () => {
    const bucket = new Bucket(Infinity);
    bucket.reserve(0);
    for (let t = 0; t < 1000; t += 100) bucket.answered(t); // 10 answers in its first second
    bucket.limited(1000, 1000);
    expect(bucket.ratePerSecond).toBe(9);
  });

  it('is lowered to no less than half its rate by one 429, though its own pause let little through', () => {
    const bucket = new Bucket(Infinity);
    for (let t = 0; t < 2000; t += 100) bucket.answered(t);
    bucket.limited(2000, 1000); // 9 a second, paused for a second
    bucket.answered(3500);
    bucket.limited(3600, 1000); // one answer in the last two seconds
    expect(bucket.ratePerSecond).toBe(4.5);
  });
});
