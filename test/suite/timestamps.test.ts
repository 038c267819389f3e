import { describe, expect, it } from 'vitest';
import type { CapturedDelivery } from '../../src/capturing-receiver/types.js';
import {
  DELIVERY_TIME_TOLERANCE_MS,
  readTimestamp,
  timestampOffsetsMs,
} from '../../src/suite/webhook-observation/timestamps.js';

const ARRIVAL_MS = 1_760_000_000_250;
const NOW_S = Math.floor(ARRIVAL_MS / 1000);

function arrived(timestamp: string | undefined, receivedAtMs = ARRIVAL_MS): CapturedDelivery {
  return {
    headers: timestamp === undefined ? {} : { 'x-service-timestamp': timestamp },
    receivedAtMs,
  } as unknown as CapturedDelivery;
}

describe('readTimestamp', () => {
  it('takes integer seconds of the arrival time, spaces around them allowed', () => {
    expect(readTimestamp(arrived(String(NOW_S)), undefined)).toEqual({
      header: String(NOW_S),
      seconds: NOW_S,
      skewMs: -250,
    });
    expect(readTimestamp(arrived(` ${NOW_S} `), undefined)).toMatchObject({ seconds: NOW_S });
  });

  it('names a missing, empty or non-integer header', () => {
    expect(readTimestamp(arrived(undefined), undefined).problem).toBe('no X-Service-Timestamp header');
    expect(readTimestamp(arrived(''), undefined).problem).toBe('no X-Service-Timestamp header');
    expect(readTimestamp(arrived(`${NOW_S}.5`), undefined).problem).toMatch(/is not an integer number of seconds/);
    expect(readTimestamp(arrived('  '), undefined).problem).toMatch(/is not an integer number of seconds/);
  });

  it('calls a value a thousand times too large milliseconds', () => {
    expect(readTimestamp(arrived(String(NOW_S * 1000)), undefined).problem).toMatch(
      /1000x the Unix time in seconds: milliseconds, not seconds/,
    );
  });

  it('allows the tolerance ahead, one second more behind, and moves arrival by the service clock offset', () => {
    const ahead = (ms: number) => readTimestamp(arrived(String(NOW_S), ARRIVAL_MS - ms), undefined);
    expect(ahead(DELIVERY_TIME_TOLERANCE_MS + 250).problem).toBeUndefined();
    expect(ahead(DELIVERY_TIME_TOLERANCE_MS + 251).problem).toMatch(/s from the arrival time/);
    const behind = (ms: number) => readTimestamp(arrived(String(NOW_S), ARRIVAL_MS + ms), undefined);
    expect(behind(DELIVERY_TIME_TOLERANCE_MS + 1000 - 250).problem).toBeUndefined();
    expect(behind(DELIVERY_TIME_TOLERANCE_MS + 1000 - 249).problem).toMatch(/s from the arrival time/);
    const offset = { offsetMs: 60_000, uncertaintyMs: 0, samples: 3 };
    expect(readTimestamp(arrived(String(NOW_S + 60)), offset)).toMatchObject({ skewMs: -250 });
  });
});

describe('timestampOffsetsMs', () => {
  it('gives each integer timestamp against the arrival, the header rounded down by half a second, and skips the rest', () => {
    const offsets = timestampOffsetsMs([
      arrived(String(NOW_S)),
      arrived('soon'),
      arrived(undefined),
      arrived(` ${NOW_S + 10} `),
    ]);
    expect(offsets).toEqual([250, 10_250]);
  });
});
