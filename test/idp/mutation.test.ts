import fc from 'fast-check';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { jwtMutation, TestIdentityProvider } from '../../src/idp/index.js';
import { decodeBytes } from '../../src/idp/jwt-parts.js';
import { mutateJwt } from '../../src/idp/mutation.js';

describe('jwtMutation', () => {
  let idp: TestIdentityProvider;
  let valid: string;
  beforeAll(async () => {
    idp = await TestIdentityProvider.start();
    valid = await idp.mint({ sub: 'user_1' });
  });
  afterAll(async () => {
    await idp.close();
  });

  test('every mutation changes the decoded bytes of exactly its part', () => {
    fc.assert(
      fc.property(jwtMutation(valid), (mutation) => {
        const before = valid.split('.');
        const after = mutation.token.split('.');
        expect(after).toHaveLength(3);
        const index = ['header', 'payload', 'signature'].indexOf(mutation.part);
        after.forEach((segment, i) => {
          if (i !== index) expect(segment).toBe(before[i]);
        });
        expect(Buffer.from(decodeBytes(after[index]!)).equals(Buffer.from(decodeBytes(before[index]!)))).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  test('every mutation fails verification with jose', async () => {
    const keys = createLocalJWKSet(idp.jwks());
    await fc.assert(
      fc.asyncProperty(jwtMutation(valid), async (mutation) => {
        await expect(jwtVerify(mutation.token, keys, { issuer: idp.issuer, audience: idp.audience })).rejects.toThrow();
      }),
      { numRuns: 200 },
    );
  });

  test('a mutation prints as its edits, never the token', () => {
    const [mutation] = fc.sample(jwtMutation(valid), { numRuns: 1, seed: 42 });
    const printed = fc.stringify(mutation);
    expect(printed).toBe(mutation!.description);
    expect(printed).not.toContain(valid.split('.')[2]!.slice(0, 20));
    expect(printed).toMatch(/^(header|payload|signature): /);
  });

  test('edits that cancel out are no mutation', () => {
    expect(
      mutateJwt(valid, 'payload', [
        { op: 'xor', at: 0.5, mask: 3 },
        { op: 'xor', at: 0.5, mask: 3 },
      ]),
    ).toBeUndefined();
  });

  test('an edit of an empty signature still yields a change', () => {
    const unsigned = `${valid.split('.').slice(0, 2).join('.')}.`;
    const mutation = mutateJwt(unsigned, 'signature', [
      { op: 'delete', at: 0 },
      { op: 'insert', at: 0, byte: 0 },
    ]);
    expect(mutation?.token).toBe(`${unsigned}AA`);
    expect(mutation?.description).toBe('signature: insert 0x00 at 0');
  });

  test('the same seed yields the same mutations', () => {
    const a = fc.sample(jwtMutation(valid), { numRuns: 5, seed: 7 }).map((m) => m.description);
    const b = fc.sample(jwtMutation(valid), { numRuns: 5, seed: 7 }).map((m) => m.description);
    expect(a).toEqual(b);
  });
});
