import { describe, expect, it } from 'vitest';
import { signBody } from '../../src/signing/index.js';
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
