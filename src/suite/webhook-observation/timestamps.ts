/**
 * Judging X-Service-Timestamp against the arrival time (Events > Signature, 2): integer
 * Unix seconds, the delivery time of this attempt. The service's clock may differ from
 * ours, so arrival times are moved by the offset measured from its Date headers.
 */
import type { CapturedDelivery } from '../../capturing-receiver/types.js';
import type { ClockOffset } from './clock.js';
import { timestampOf } from './signature.js';

/** How far a timestamp may be from the (offset-corrected) arrival time. */
export const DELIVERY_TIME_TOLERANCE_MS = 3_000;
/** A Unix-seconds value of today is about 1.7e9; one above this is milliseconds or worse. */
const SECONDS_CEILING = 1e11;

export interface TimestampReading {
  /** The header as sent. */
  header: string | undefined;
  /** Its value in seconds when it is a decimal integer. */
  seconds?: number;
  /** Timestamp minus the offset-corrected arrival time, ms (positive: ahead). */
  skewMs?: number;
  problem?: string;
}

/** The header as sent, and its value when it is a decimal integer (surrounding spaces allowed). */
function parseTimestamp(delivery: CapturedDelivery): { header: string | undefined; seconds: number | undefined } {
  const header = timestampOf(delivery);
  const trimmed = header?.trim();
  return { header, seconds: trimmed && /^[0-9]+$/.test(trimmed) ? Number(trimmed) : undefined };
}

export function readTimestamp(delivery: CapturedDelivery, clock: ClockOffset | undefined): TimestampReading {
  const { header, seconds } = parseTimestamp(delivery);
  if (header === undefined || header === '') return { header, problem: 'no X-Service-Timestamp header' };
  if (seconds === undefined)
    return { header, problem: `X-Service-Timestamp ${JSON.stringify(header)} is not an integer number of seconds` };
  const arrivalMs = delivery.receivedAtMs + (clock?.offsetMs ?? 0);
  if (seconds > SECONDS_CEILING) {
    const ratio = (seconds / (arrivalMs / 1000)).toFixed(0);
    return {
      header,
      seconds,
      problem: `X-Service-Timestamp ${header} is ${ratio}x the Unix time in seconds: milliseconds, not seconds`,
    };
  }
  const skewMs = seconds * 1000 - arrivalMs;
  // The header is the floor of the send time, which precedes the arrival: allow one more second below.
  const slack = DELIVERY_TIME_TOLERANCE_MS + (clock?.uncertaintyMs ?? 0);
  if (skewMs > slack || skewMs < -(slack + 1000)) {
    return {
      header,
      seconds,
      skewMs,
      problem: `X-Service-Timestamp ${header} is ${(skewMs / 1000).toFixed(1)} s from the arrival time (allowed ±${(slack / 1000).toFixed(1)} s)`,
    };
  }
  return { header, seconds, skewMs };
}

/**
 * Per delivery with an integer timestamp, how far it is from the harness's clock at
 * arrival (ms, positive: ahead), uncorrected. Half a second is added because the header
 * is the send time rounded down to the second.
 */
export function timestampOffsetsMs(deliveries: readonly CapturedDelivery[]): number[] {
  const offsets: number[] = [];
  for (const delivery of deliveries) {
    const { seconds } = parseTimestamp(delivery);
    if (seconds !== undefined) offsets.push(Math.round(seconds * 1000 + 500 - delivery.receivedAtMs));
  }
  return offsets;
}

export function describeClock(clock: ClockOffset | undefined): string {
  return clock
    ? `service clock offset ${clock.offsetMs} ms ±${clock.uncertaintyMs} ms from ${clock.samples} Date headers`
    : 'no Date header from the service: clock offset taken as 0';
}
