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
});
