import { readFileSync } from 'node:fs';
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { NO_FAULTS, type FaultName } from '../../reference/faults.js';
import { hmacSha256Hex, newSigningSecret, signatureFor, timestampFor } from '../../reference/webhooks/signing.js';

interface Vector {
  test_case: number;
  key_hex: string;
  data_hex: string;
  hmac_sha256_hex: string;
}

const vectors = (
  JSON.parse(readFileSync(new URL('../../fixtures/vectors/hmac-sha256-rfc4231.json', import.meta.url), 'utf8')) as {
    vectors: Vector[];
  }
).vectors;

describe('signing: RFC 4231 HMAC-SHA256 known answers', () => {
  it('has the six vectors', () => {
    expect(vectors.map((v) => v.test_case)).toEqual([1, 2, 3, 4, 6, 7]);
  });
  for (const vector of vectors) {
    it(`test case ${vector.test_case} matches`, () => {
      expect(hmacSha256Hex(Buffer.from(vector.key_hex, 'hex'), Buffer.from(vector.data_hex, 'hex'))).toBe(
        vector.hmac_sha256_hex,
      );
    });
  }
});

describe('signing: delivery signatures', () => {
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const body = '{"id":"evt_1","type":"voice.call.queued"}';
  const faults = (name: FaultName) => new Set<FaultName>([name]);

  it('a signature is lowercase hex HMAC-SHA256 keyed with the whole secret string', () => {
    const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex');
    expect(signatureFor(secret, body, '1700000000', NO_FAULTS)).toBe(expected);
    expect(expected).toMatch(/^[0-9a-f]{64}$/);
  });

  it('the timestamp is not part of the signed content', () => {
    expect(signatureFor(secret, body, '1', NO_FAULTS)).toBe(signatureFor(secret, body, '2', NO_FAULTS));
  });

  it('faults change the signature the way they claim', () => {
    const clean = signatureFor(secret, body, '1700000000', NO_FAULTS);
    expect(signatureFor(secret, body, '1700000000', faults('sign-uppercase'))).toBe(clean.toUpperCase());
    expect(signatureFor(secret, body, '1700000000', faults('sign-base64'))).toBe(
      Buffer.from(clean, 'hex').toString('base64'),
    );
    expect(signatureFor(secret, body, '1700000000', faults('sign-timestamp-body'))).toBe(
      hmacSha256Hex(secret, `1700000000.${body}`),
    );
    expect(signatureFor(secret, body, '1700000000', faults('sign-decoded-key'))).not.toBe(clean);
  });

  it('secrets are whsec_ plus base64 of 24 bytes, all different', () => {
    const a = newSigningSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(a.slice(6), 'base64')).toHaveLength(24);
    expect(newSigningSecret()).not.toBe(a);
  });

  it('timestamps are Unix seconds (milliseconds only under timestamp-ms)', () => {
    expect(timestampFor(1_700_000_000_999, NO_FAULTS)).toBe('1700000000');
    expect(timestampFor(1_700_000_000_999, faults('timestamp-ms'))).toBe('1700000000999');
  });
});
