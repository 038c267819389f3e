import { describe, expect, it } from 'vitest';
import { checkTimestamp } from '../../src/signing/index.js';

const now = 1_800_000_000;

describe('checkTimestamp', () => {
  it('the current second passes with zero skew', () => {
    expect(checkTimestamp(String(now), now)).toEqual({ ok: true, skewSeconds: 0 });
  });

  it('299 seconds old passes', () => {
    expect(checkTimestamp(String(now - 299), now)).toEqual({ ok: true, skewSeconds: -299 });
  });

  it('299 seconds ahead passes', () => {
    expect(checkTimestamp(String(now + 299), now)).toEqual({ ok: true, skewSeconds: 299 });
  });

  it('exactly 300 seconds old passes, since only exceeding the tolerance fails', () => {
    expect(checkTimestamp(String(now - 300), now)).toEqual({ ok: true, skewSeconds: -300 });
  });

  it('301 seconds old fails as too old', () => {
    expect(checkTimestamp(String(now - 301), now)).toEqual({ ok: false, reason: 'too-old', skewSeconds: -301 });
  });

  it('301 seconds ahead fails as too new', () => {
    expect(checkTimestamp(String(now + 301), now)).toEqual({ ok: false, reason: 'too-new', skewSeconds: 301 });
  });

  it('a fractional clock gives a fractional skew', () => {
    expect(checkTimestamp(String(now), now + 0.25)).toEqual({ ok: true, skewSeconds: -0.25 });
  });

  it('a custom tolerance applies', () => {
    expect(checkTimestamp(String(now - 11), now, 10)).toMatchObject({ ok: false, reason: 'too-old' });
  });

  it('a missing header fails as missing', () => {
    expect(checkTimestamp(undefined, now)).toEqual({ ok: false, reason: 'missing' });
  });

  it('an empty header fails as missing', () => {
    expect(checkTimestamp('', now)).toEqual({ ok: false, reason: 'missing' });
  });

  it('a fractional timestamp fails as not an integer', () => {
    expect(checkTimestamp(`${now}.5`, now)).toEqual({ ok: false, reason: 'not-integer' });
  });

  it('an ISO 8601 timestamp fails as not an integer', () => {
    expect(checkTimestamp('2027-01-15T08:00:00Z', now)).toEqual({ ok: false, reason: 'not-integer' });
  });

  it('a timestamp in milliseconds fails as too new', () => {
    expect(checkTimestamp(String(now * 1000), now)).toMatchObject({ ok: false, reason: 'too-new' });
  });
});
