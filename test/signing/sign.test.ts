import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { hmacDigest, signBody, signingKey, verifySignature } from '../../src/signing/index.js';
import { loadVectors, vectorBody } from './vectors.js';

const { vectors } = loadVectors();

describe('signBody', () => {
  it('has known-answer vectors to check against', () => {
    expect(vectors.length).toBeGreaterThanOrEqual(10);
    for (const vector of vectors) expect(vector.expected).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each(vectors.map((v) => [v.name, v] as const))('matches openssl for: %s', (_name, vector) => {
    expect(signBody(vector.secret, vectorBody(vector))).toBe(vector.expected);
  });

  it('signs a string body as its UTF-8 bytes', () => {
    const body = '{"body":"Café 😀"}';
    expect(signBody('k', body)).toBe(signBody('k', Buffer.from(body, 'utf8')));
  });

  it('an empty secret is a programming error', () => {
    expect(() => signBody('', '{}')).toThrow(TypeError);
  });
});

describe('signingKey', () => {
  it.each(vectors.map((v) => [v.name, v] as const))(
    'gives the HMAC its secret gives, and verifies as it does, for: %s',
    (_name, vector) => {
      const key = signingKey(vector.secret);
      expect(hmacDigest(key, vectorBody(vector)).toString('hex')).toBe(vector.expected);
      expect(verifySignature(key, vectorBody(vector), vector.expected)).toEqual({ ok: true });
      expect(verifySignature(key, vectorBody(vector), signBody(`${vector.secret}x`, vectorBody(vector)))).toEqual({
        ok: false,
        reason: 'mismatch',
      });
    },
  );

  it('takes a secret as its UTF-8 bytes, as signBody does', () => {
    expect(hmacDigest(signingKey('clé 😀'), '{}').toString('hex')).toBe(signBody('clé 😀', '{}'));
  });

  it('refuses an empty secret, and shows no key material when inspected', () => {
    expect(() => signingKey('')).toThrow(TypeError);
    const shown =
      inspect(signingKey('whsec_fake_do_not_show'), { showHidden: true, depth: 5 }) +
      JSON.stringify(signingKey('whsec_fake_do_not_show'));
    expect(shown).not.toContain('do_not_show');
    expect(shown).not.toContain(Buffer.from('whsec_fake_do_not_show').toString('hex'));
  });
});
