import { describe, expect, it } from 'vitest';
import { mask, maskDeep, registerSecret } from '../../src/secrets/mask.js';

describe('mask', () => {
  it('masks a registered secret wherever it appears', () => {
    registerSecret('fake-signing-secret-0001');
    expect(mask('key=fake-signing-secret-0001;')).toBe('key=***(24 chars);');
  });

  it('masks bearer tokens by their spec prefixes, keeping the prefix', () => {
    expect(mask('Bearer svc_test_FAKEFAKEFAKE123')).toBe('Bearer svc_test_***(24 chars)');
    expect(mask('svc_live_FAKE0000')).not.toContain('FAKE0000');
  });

  it('masks anything shaped like a JWT', () => {
    const jwt = 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJmYWtlIn0.c2lnbmF0dXJl';
    expect(mask(`token ${jwt} end`)).toBe(`token eyJ***(${jwt.length} chars) end`);
  });

  it('leaves ordinary text alone', () => {
    expect(mask('first 401 after 3.9 s')).toBe('first 401 after 3.9 s');
  });

  it('masks strings nested in objects and arrays', () => {
    registerSecret('fake-nested-secret-42');
    expect(maskDeep({ a: ['fake-nested-secret-42'], b: { c: 1 } })).toEqual({ a: ['***(21 chars)'], b: { c: 1 } });
  });

  it('masks every occurrence of each of many registered secrets, at either end of the text', () => {
    const secrets = Array.from({ length: 500 }, (_, i) => `fake-bulk-secret-${String(i).padStart(4, '0')}-end`);
    for (const secret of secrets) registerSecret(secret);
    const text = `${secrets[499]} and ${secrets[7]}, ${secrets[7]}; ${secrets[0]}`;
    expect(mask(text)).toBe('***(25 chars) and ***(25 chars), ***(25 chars); ***(25 chars)');
  });

  it('masks the longest secret where two start at one place, and one that shares its ending with another', () => {
    registerSecret('fake-overlap-secret-short');
    registerSecret('fake-overlap-secret-short-and-longer');
    registerSecret('other-prefix-secret-short');
    expect(mask('[fake-overlap-secret-short-and-longer]')).toBe('[***(36 chars)]');
    expect(mask('[other-prefix-secret-short|fake-overlap-secret-short]')).toBe('[***(25 chars)|***(25 chars)]');
  });

  it('masks a registered secret shorter than the index key', () => {
    registerSecret('fakeK9z');
    expect(mask('a fakeK9z b fakeK9z')).toBe('a ***(7 chars) b ***(7 chars)');
  });
});
