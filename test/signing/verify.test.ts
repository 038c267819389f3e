import { describe, expect, it } from 'vitest';
import { signBody, verifySignature } from '../../src/signing/index.js';

// One valid signed message; each test changes exactly one thing about it.
const secret = 'whsec_test_5f1c2a';
const body = Buffer.from('{"id":"evt_1","type":"voice.call.queued","data":{}}');
const signature = signBody(secret, body);

describe('verifySignature', () => {
  it('a valid signature passes', () => {
    expect(verifySignature(secret, body, signature)).toEqual({ ok: true });
  });

  it('a missing header fails as missing', () => {
    expect(verifySignature(secret, body, undefined)).toEqual({ ok: false, reason: 'missing' });
  });

  it('an empty header fails as missing', () => {
    expect(verifySignature(secret, body, '')).toEqual({ ok: false, reason: 'missing' });
  });

  it('a truncated signature fails on length', () => {
    expect(verifySignature(secret, body, signature.slice(0, 63))).toEqual({ ok: false, reason: 'length' });
  });

  it('a signature with a scheme prefix fails on length', () => {
    expect(verifySignature(secret, body, `sha256=${signature}`)).toEqual({ ok: false, reason: 'length' });
  });

  it('an upper-case hex signature fails as not lowercase hex', () => {
    expect(verifySignature(secret, body, signature.toUpperCase())).toEqual({ ok: false, reason: 'not-lowercase-hex' });
  });

  it('a base64 signature of the right length fails as not lowercase hex', () => {
    const base64ish = Buffer.from(signature, 'hex').toString('base64').padEnd(64, 'A');
    expect(verifySignature(secret, body, base64ish)).toEqual({ ok: false, reason: 'not-lowercase-hex' });
  });

  it('a signature made with another secret fails as mismatch', () => {
    expect(verifySignature(secret, body, signBody('whsec_other', body))).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('one changed body byte fails as mismatch', () => {
    const changed = Buffer.from(body);
    changed[changed.length - 2] = 0x20;
    expect(verifySignature(secret, changed, signature)).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('a re-serialised body fails as mismatch', () => {
    const reserialised = JSON.stringify(JSON.parse(body.toString()), null, 1);
    expect(verifySignature(secret, reserialised, signature)).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('a signature over the timestamp and body fails as mismatch', () => {
    expect(verifySignature(secret, body, signBody(secret, `1700000000.${body.toString()}`))).toEqual({
      ok: false,
      reason: 'mismatch',
    });
  });
});
