import { createServer } from 'node:net';
import { createLocalJWKSet, createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { JwksServer, TestIdentityProvider } from '../../src/idp/index.js';

// A fresh remote set per verification: jose caches a JWKS, and these tests want each
// verification to see the document as served now.
const verifyRemote = (idp: TestIdentityProvider, token: string) =>
  jwtVerify(token, createRemoteJWKSet(new URL(idp.jwksUri)), { issuer: idp.issuer, audience: idp.audience });

describe('TestIdentityProvider', () => {
  let idp: TestIdentityProvider;
  beforeAll(async () => {
    idp = await TestIdentityProvider.start();
  });
  afterAll(async () => {
    await idp.close();
  });

  test('start lists one RS256 and one ES256 key under a random loopback path', () => {
    expect(idp.jwksUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/idp\/[0-9a-f]{12}\/jwks\.json$/);
    expect(idp.jwksUri.startsWith(idp.issuer)).toBe(true);
    expect(idp.audience).toMatch(/^https:\/\/API\.certify\.example\/Aud-[0-9a-f]{12}$/);
    expect(
      idp
        .jwks()
        .keys.map((key) => key.alg)
        .sort(),
    ).toEqual(['ES256', 'RS256']);
    expect(idp.jwks().keys.every((key) => !('d' in key))).toBe(true);
  });

  test('an RS256 token verifies with jose against the served JWKS', async () => {
    const token = await idp.mint({ sub: 'user_rs' });
    const { payload, protectedHeader } = await verifyRemote(idp, token);
    expect(protectedHeader).toMatchObject({ alg: 'RS256', typ: 'JWT', kid: idp.kidFor('RS256') });
    expect(payload.sub).toBe('user_rs');
    expect(payload.exp! - payload.iat!).toBe(60);
  });

  test('an ES256 token verifies with jose against the served JWKS', async () => {
    const token = await idp.mint({ sub: 'user_es', alg: 'ES256' });
    await expect(verifyRemote(idp, token)).resolves.toMatchObject({ protectedHeader: { alg: 'ES256' } });
  });

  test('the JWKS is served as application/json and each fetch is counted', async () => {
    const before = idp.jwksFetchCount;
    const res = await fetch(idp.jwksUri);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(((await res.json()) as { keys: unknown[] }).keys).toHaveLength(idp.activeKids.length);
    expect(idp.jwksFetchCount).toBe(before + 1);
  });

  test('other paths are 404 and not counted', async () => {
    const before = idp.jwksFetchCount;
    expect((await fetch(new URL('/jwks.json', idp.jwksUri))).status).toBe(404);
    expect(idp.jwksFetchCount).toBe(before);
  });

  test('a foreign document is served beside the JWKS with a count of its own', async () => {
    const before = idp.jwksFetchCount;
    const hosted = idp.hostForeign('attacker-cert.pem', 'application/pem-certificate-chain', 'not a key');
    expect(new URL(hosted.url).origin).toBe(new URL(idp.jwksUri).origin);
    expect(hosted.url.startsWith(new URL('.', idp.jwksUri).href)).toBe(true);
    expect(hosted.url.endsWith('-attacker-cert.pem')).toBe(true);
    expect(hosted.fetchCount).toBe(0);
    const res = await fetch(hosted.url, { signal: AbortSignal.timeout(5_000) });
    expect(res.headers.get('content-type')).toBe('application/pem-certificate-chain');
    expect(await res.text()).toBe('not a key');
    expect(hosted.fetchCount).toBe(1);
    expect(idp.jwksFetchCount).toBe(before);
  });

  test('a token with crit is signed, and jose refuses the unknown extension', async () => {
    const token = await idp.mint({ sub: 'user_crit', header: { crit: ['x-unknown'], 'x-unknown': true } });
    expect(decodeProtectedHeader(token)).toMatchObject({ crit: ['x-unknown'], 'x-unknown': true });
    await expect(verifyRemote(idp, token)).rejects.toMatchObject({ code: 'ERR_JOSE_NOT_SUPPORTED' });
  });

  test('issued-at offset moves iat, nbf and exp together', async () => {
    const token = await idp.mint({ sub: 'user_old', issuedAtOffsetSec: -61 });
    await expect(verifyRemote(idp, token)).rejects.toMatchObject({ code: 'ERR_JWT_EXPIRED' });
  });

  test('claims override the standard ones and undefined removes one', async () => {
    const claims = idp.claimsFor({ sub: 'u', claims: { iss: 'https://other.example', nbf: undefined, role: 'admin' } });
    expect(claims).toMatchObject({ iss: 'https://other.example', role: 'admin', aud: idp.audience });
    expect('nbf' in claims).toBe(false);
  });

  test('a header override keeps a valid signature under an unknown kid', async () => {
    const token = await idp.mint({ sub: 'u', header: { kid: 'no-such-kid' } });
    expect(decodeProtectedHeader(token).kid).toBe('no-such-kid');
    await expect(verifyRemote(idp, token)).rejects.toMatchObject({ code: 'ERR_JWKS_NO_MATCHING_KEY' });
  });

  test('a removed key is no longer listed and its tokens fail; a new key works', async () => {
    const rotating = await TestIdentityProvider.start();
    try {
      const oldKid = rotating.kidFor('RS256');
      const newKid = await rotating.addKey('RS256');
      expect(rotating.activeKids).toContain(newKid);
      expect(rotating.kidFor('RS256')).toBe(newKid);
      await expect(verifyRemote(rotating, await rotating.mint({ sub: 'u' }))).resolves.toBeDefined();
      rotating.removeKey(oldKid);
      expect(rotating.jwks().keys.map((key) => key.kid)).not.toContain(oldKid);
      const stale = await rotating.mint({ sub: 'u', kid: oldKid });
      await expect(verifyRemote(rotating, stale)).rejects.toMatchObject({ code: 'ERR_JWKS_NO_MATCHING_KEY' });
    } finally {
      await rotating.close();
    }
  });

  test('mint refuses a kid of the wrong algorithm', async () => {
    await expect(idp.mint({ sub: 'u', alg: 'ES256', kid: idp.kidFor('RS256') })).rejects.toThrow(/not ES256/);
  });

  test('issuer and audience can be chosen', async () => {
    const chosen = await TestIdentityProvider.start({ issuer: 'https://idp.example/tenant', audience: 'svc' });
    try {
      const token = await chosen.mint({ sub: 'u' });
      const { payload } = await jwtVerify(token, createLocalJWKSet(chosen.jwks()), {
        issuer: 'https://idp.example/tenant',
        audience: 'svc',
      });
      expect(payload.sub).toBe('u');
    } finally {
      await chosen.close();
    }
  });

  test('close frees the port', async () => {
    const temporary = await TestIdentityProvider.start();
    const port = Number(new URL(temporary.jwksUri).port);
    await fetch(temporary.jwksUri); // leaves a kept-alive connection that close must drop
    await temporary.close();
    await expect(fetch(temporary.jwksUri)).rejects.toThrow();
    const server = createServer();
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  test('providers on one shared server each serve their own JWKS by path, and count their own fetches', async () => {
    const server = await JwksServer.listen();
    const [a, b] = await Promise.all([TestIdentityProvider.start({ server }), TestIdentityProvider.start({ server })]);
    try {
      expect(new URL(a.jwksUri).origin).toBe(new URL(b.jwksUri).origin);
      expect(a.jwksUri).not.toBe(b.jwksUri);
      const kidsOf = async (uri: string) =>
        ((await (await fetch(uri)).json()) as { keys: Array<{ kid: string }> }).keys.map((key) => key.kid);
      expect(await kidsOf(a.jwksUri)).toEqual(a.activeKids);
      expect(await kidsOf(b.jwksUri)).toEqual(b.activeKids);
      expect([a.jwksFetchCount, b.jwksFetchCount]).toEqual([1, 1]);
      await a.close();
      // Closing one provider removes its path and leaves the server to the others.
      expect((await fetch(a.jwksUri)).status).toBe(404);
      expect((await fetch(b.jwksUri)).status).toBe(200);
    } finally {
      await b.close();
      await server.close();
    }
  });

  test('a public URL with a path prefix announces it and the server accepts paths with or without it', async () => {
    const server = await JwksServer.listen({ publicUrl: 'https://tunnel.example.test/prefix/' });
    const provider = await TestIdentityProvider.start({ server });
    try {
      expect(provider.jwksUri).toMatch(/^https:\/\/tunnel\.example\.test\/prefix\/idp\/[0-9a-f]{12}\/jwks\.json$/);
      expect(provider.issuer).toBe(provider.jwksUri.replace(/\/jwks\.json$/, ''));
      const path = new URL(provider.jwksUri).pathname;
      const { port } = server;
      expect((await fetch(`http://127.0.0.1:${port}${path}`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}${path.replace('/prefix', '')}`)).status).toBe(200);
    } finally {
      await provider.close();
      await server.close();
    }
  });
});
