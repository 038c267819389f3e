import { createHmac, X509Certificate } from 'node:crypto';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  EmbeddedJWK,
  importX509,
  jwtVerify,
  UnsecuredJWT,
} from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  ALG_NONE_SPELLINGS,
  PSYCHIC_SIGNATURES,
  attackerCertificate,
  attackerJwks,
  repeatClaim,
  withEmbeddedJwk,
  withHs256,
  withSignatureBytes,
  signWithForeignKey,
  stripSignature,
  tamperPayload,
  tamperSignature,
  TestIdentityProvider,
  withAlgNone,
  withHeader,
  withHs256PublicKey,
  withKid,
} from '../../src/idp/index.js';

// Each forge changes one thing of a valid token; each must fail verification by jose
// against the served JWKS, and each must still be the forgery it claims to be.
describe('forge', () => {
  let idp: TestIdentityProvider;
  let valid: string;
  const verifyAgainstJwks = (token: string) =>
    jwtVerify(token, createRemoteJWKSet(new URL(idp.jwksUri)), { issuer: idp.issuer, audience: idp.audience });

  beforeAll(async () => {
    idp = await TestIdentityProvider.start();
    valid = await idp.mint({ sub: 'user_1' });
  });
  afterAll(async () => {
    await idp.close();
  });

  test('the valid token itself verifies', async () => {
    await expect(verifyAgainstJwks(valid)).resolves.toBeDefined();
  });

  test.each(ALG_NONE_SPELLINGS)('alg %s is unsigned and fails', async (spelling) => {
    const token = withAlgNone(idp.claimsFor({ sub: 'user_1' }), { spelling, kid: idp.kidFor('RS256') });
    expect(token.endsWith('.')).toBe(true);
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: spelling, kid: idp.kidFor('RS256') });
    await expect(verifyAgainstJwks(token)).rejects.toThrow();
  });

  test('alg none is a well-formed unsecured JWT', () => {
    const token = withAlgNone(idp.claimsFor({ sub: 'user_1' }));
    expect(UnsecuredJWT.decode(token).payload.sub).toBe('user_1');
  });

  test('HS256 keyed with the public key PEM fails against the JWKS but verifies with the PEM as secret', async () => {
    const kid = idp.kidFor('RS256');
    const pem = await idp.publicKeyPem(kid);
    expect(pem).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----$/);
    const token = withHs256PublicKey(idp.claimsFor({ sub: 'user_1' }), pem, { kid });
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'HS256', kid });
    await expect(verifyAgainstJwks(token)).rejects.toThrow();
    await expect(jwtVerify(token, new TextEncoder().encode(pem))).resolves.toBeDefined();
  });

  test('a tampered payload keeps the signature and fails', async () => {
    const token = tamperPayload(valid, { sub: 'user_admin', exp: undefined });
    expect(decodeJwt(token).sub).toBe('user_admin');
    expect('exp' in decodeJwt(token)).toBe(false);
    expect(token.split('.')[2]).toBe(valid.split('.')[2]);
    await expect(verifyAgainstJwks(token)).rejects.toMatchObject({ code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' });
  });

  test('a tampered signature has the original length and fails', async () => {
    const token = tamperSignature(valid);
    expect(token.split('.').slice(0, 2)).toEqual(valid.split('.').slice(0, 2));
    expect(token.split('.')[2]).toHaveLength(valid.split('.')[2]!.length);
    expect(token).not.toBe(valid);
    await expect(verifyAgainstJwks(token)).rejects.toMatchObject({ code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' });
  });

  test('an ES256 tampered signature fails', async () => {
    await expect(verifyAgainstJwks(tamperSignature(await idp.mint({ sub: 'u', alg: 'ES256' })))).rejects.toThrow();
  });

  test('a stripped signature fails', async () => {
    await expect(verifyAgainstJwks(stripSignature(valid))).rejects.toThrow();
  });

  test('withKid renames the key, keeps the signature, and fails', async () => {
    const other = withKid(valid, idp.kidFor('ES256'));
    expect(decodeProtectedHeader(other).kid).toBe(idp.kidFor('ES256'));
    await expect(verifyAgainstJwks(other)).rejects.toThrow();
    await expect(verifyAgainstJwks(withKid(valid, 'nobody'))).rejects.toThrow();
    expect('kid' in decodeProtectedHeader(withKid(valid, undefined))).toBe(false);
  });

  test('withHeader can switch alg and fails', async () => {
    await expect(verifyAgainstJwks(withHeader(valid, { alg: 'RS512' }))).rejects.toThrow();
  });

  test.each(['RS256', 'ES256'] as const)('a foreign %s key under a listed kid fails', async (alg) => {
    const kid = idp.kidFor(alg);
    const token = await signWithForeignKey(idp.claimsFor({ sub: 'user_1' }), alg, kid);
    expect(decodeProtectedHeader(token)).toMatchObject({ alg, kid });
    await expect(verifyAgainstJwks(token)).rejects.toMatchObject({ code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' });
  });

  test.each(['RS256', 'ES256'] as const)(
    'an embedded %s jwk verifies the token by itself and fails against the JWKS',
    async (alg) => {
      const token = await withEmbeddedJwk(idp.claimsFor({ sub: 'user_1' }), alg, { kid: idp.kidFor(alg) });
      const header = decodeProtectedHeader(token);
      expect(header).toMatchObject({ alg, kid: idp.kidFor(alg) });
      expect(header.jwk).toBeDefined();
      expect('d' in header.jwk!).toBe(false);
      await expect(jwtVerify(token, EmbeddedJWK)).resolves.toBeDefined();
      await expect(verifyAgainstJwks(token)).rejects.toThrow();
    },
  );

  test("an attacker JWKS verifies the attacker's token, which fails against the real JWKS", async () => {
    const attacker = await attackerJwks('RS256', idp.kidFor('RS256'));
    const token = await attacker.sign(idp.claimsFor({ sub: 'user_1' }), { jku: 'http://127.0.0.1:1/jwks.json' });
    expect(decodeProtectedHeader(token)).toMatchObject({
      kid: idp.kidFor('RS256'),
      jku: 'http://127.0.0.1:1/jwks.json',
    });
    await expect(jwtVerify(token, createLocalJWKSet(attacker.jwks))).resolves.toBeDefined();
    await expect(verifyAgainstJwks(token)).rejects.toThrow();
  });

  test("an attacker certificate verifies the attacker's token, and x5c is its DER", async () => {
    const cert = await attackerCertificate();
    const token = await cert.sign(idp.claimsFor({ sub: 'user_1' }), { x5c: [cert.x5c] });
    expect(new X509Certificate(Buffer.from(cert.x5c, 'base64')).fingerprint256).toBe(
      new X509Certificate(cert.pem).fingerprint256,
    );
    await expect(jwtVerify(token, await importX509(cert.pem, 'ES256'))).resolves.toBeDefined();
    await expect(verifyAgainstJwks(token)).rejects.toThrow();
  });

  test('HS256 with an empty secret is what an HMAC of /dev/null gives, and fails', async () => {
    const token = withHs256(idp.claimsFor({ sub: 'user_1' }), new Uint8Array(0), { kid: '/dev/null' });
    const [header, payload, signature] = token.split('.');
    expect(signature).toBe(createHmac('sha256', '').update(`${header}.${payload}`).digest('base64url'));
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'HS256', kid: '/dev/null' });
    await expect(verifyAgainstJwks(token)).rejects.toThrow();
  });

  test.each(PSYCHIC_SIGNATURES.map(([what, signature]) => [what, signature] as const))(
    'an ES256 signature %s fails',
    async (_what, signature) => {
      const token = withSignatureBytes(
        { alg: 'ES256', kid: idp.kidFor('ES256') },
        idp.claimsFor({ sub: 'user_1' }),
        signature,
      );
      expect(Buffer.from(token.split('.')[2]!, 'base64url')).toEqual(Buffer.from(signature));
      await expect(verifyAgainstJwks(token)).rejects.toThrow();
    },
  );

  test('a repeated claim is signed as text, verifies, and a standard parser keeps its last value', async () => {
    const text = repeatClaim(idp.claimsFor({ sub: 'user_1' }), 'sub', 'user_2');
    expect(text.match(/"sub"/g)).toHaveLength(2);
    expect(text.indexOf('"user_1"')).toBeLessThan(text.indexOf('"user_2"'));
    const token = await idp.mintText(text);
    expect(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')).toBe(text);
    await expect(verifyAgainstJwks(token)).resolves.toMatchObject({ payload: { sub: 'user_2' } });
  });

  test('forges of a non-JWT are programming errors', () => {
    expect(() => tamperSignature('a.b')).toThrow(/3/);
    expect(() => tamperSignature(stripSignature(valid))).toThrow(/no signature/);
  });

  test('a local JWKS set refuses a forgery as the remote one does', async () => {
    // Sanity of the fixture: the local set built from the same document refuses them too.
    await expect(jwtVerify(tamperSignature(valid), createLocalJWKSet(idp.jwks()))).rejects.toThrow();
  });
});
