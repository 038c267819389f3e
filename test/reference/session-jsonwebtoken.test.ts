import { createHmac, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../../reference/index.js';
import { controlRequest } from './control.js';

// The `jsonwebtoken` personality (reference/README.md, "Personalities"): session tokens
// verified with jsonwebtoken + jwks-rsa as a careful integrator would. One valid token per
// test with one thing changed; every refusal is 401 invalid_token in the usual error body.

const ISSUER = 'https://idp.jsonwebtoken.test';
const AUDIENCE = 'svc-jsonwebtoken';
const MEMBER = 'user_jwt_member';

let reference: RunningReference;
let jwksServer: Server;
let jwksUri: string;
let workspaceId: string;
const keys = {
  RS256: { kid: 'kid-rs256', ...generateKeyPairSync('rsa', { modulusLength: 2048 }) },
  ES256: { kid: 'kid-es256', ...generateKeyPairSync('ec', { namedCurve: 'P-256' }) },
};

const b64 = (data: string | Buffer) => Buffer.from(data).toString('base64url');

/** A compact JWS of exactly these header and payload bytes (node:crypto: any alg, any payload, any crit). */
function jws(header: Record<string, unknown>, payload: string, key: KeyObject | Buffer): string {
  const input = `${b64(JSON.stringify(header))}.${b64(payload)}`;
  const alg = String(header.alg);
  const hash = `sha${alg.slice(2)}`;
  let signature: Buffer;
  if (alg.startsWith('HS'))
    signature = createHmac(hash, key as Buffer)
      .update(input)
      .digest();
  else
    signature = sign(
      hash,
      Buffer.from(input),
      alg.startsWith('ES') ? { key: key as KeyObject, dsaEncoding: 'ieee-p1363' } : (key as KeyObject),
    );
  return `${input}.${b64(signature)}`;
}

const control = (method: string, path: string, body?: unknown) => controlRequest(reference, method, path, body);

async function whoami(token: string): Promise<{ status: number; json: any }> {
  const res = await fetch(`${reference.baseUrl}/v1/whoami`, { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

async function expectRefused(token: string): Promise<void> {
  const res = await whoami(token);
  expect(res.status).toBe(401);
  expect(res.json).toEqual({
    error: { code: 'invalid_token', message: expect.any(String), request_id: expect.stringMatching(/^req_/) },
  });
}

const now = () => Math.floor(Date.now() / 1000);

/** A valid session token of the member, RS256 by default; `claims` overrides (undefined removes one). */
function mint(
  options: { alg?: 'RS256' | 'ES256'; claims?: Record<string, unknown>; header?: Record<string, unknown> } = {},
): string {
  const alg = options.alg ?? 'RS256';
  // JSON.stringify drops a claim set to undefined.
  const claims = { iss: ISSUER, aud: AUDIENCE, sub: MEMBER, iat: now(), exp: now() + 60, ...options.claims };
  return jws({ alg, kid: keys[alg].kid, typ: 'JWT', ...options.header }, JSON.stringify(claims), keys[alg].privateKey);
}

beforeAll(async () => {
  const listed = (['RS256', 'ES256'] as const).map((alg) => ({
    ...keys[alg].publicKey.export({ format: 'jwk' }),
    kid: keys[alg].kid,
    alg,
    use: 'sig',
  }));
  jwksServer = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: listed })),
  );
  await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
  jwksUri = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/jwks.json`;
  reference = await startReference({ quiet: true, personality: 'jsonwebtoken' });
  const ws = await control('POST', '/workspaces', {});
  expect(ws.status).toBe(201);
  workspaceId = ws.json.workspace_id;
  expect(
    (
      await control('PUT', `/workspaces/${workspaceId}/identity-provider`, {
        issuer: ISSUER,
        jwks_uri: jwksUri,
        audience: AUDIENCE,
      })
    ).status,
  ).toBe(204);
  expect(
    (await control('POST', `/workspaces/${workspaceId}/members`, { subject: MEMBER, scopes: ['voice:read'] })).status,
  ).toBe(201);
});

afterAll(async () => {
  await reference?.close();
  jwksServer?.closeAllConnections();
  await new Promise<void>((resolve) => (jwksServer ? jwksServer.close(() => resolve()) : resolve()));
});

describe('jsonwebtoken personality: session tokens', () => {
  it('accepts RS256 and ES256 tokens of a member, aud as a string or in an array', async () => {
    for (const token of [mint(), mint({ alg: 'ES256' }), mint({ claims: { aud: ['other', AUDIENCE] } })]) {
      const res = await whoami(token);
      expect(res.status).toBe(200);
      expect(res.json.workspace_id).toBe(workspaceId);
    }
  });

  it('accepts a token whose crit names an unknown extension (jsonwebtoken ignores crit)', async () => {
    expect((await whoami(mint({ header: { crit: ['x-unknown'], 'x-unknown': true } }))).status).toBe(200);
  });

  it('answers 401, not 500, to a correctly signed token whose payload is not JSON', async () => {
    for (const payload of ['not json', '{"sub":', ''])
      await expectRefused(jws({ alg: 'RS256', kid: keys.RS256.kid, typ: 'JWT' }, payload, keys.RS256.privateKey));
  });

  it('refuses a payload that is JSON but not an object', async () => {
    for (const payload of ['null', '42', '"text"', '[]'])
      await expectRefused(jws({ alg: 'RS256', kid: keys.RS256.kid, typ: 'JWT' }, payload, keys.RS256.privateKey));
  });

  it('refuses an algorithm other than RS256 and ES256, even signed by the listed key', async () => {
    const claims = JSON.stringify({ iss: ISSUER, aud: AUDIENCE, sub: MEMBER, exp: now() + 60 });
    await expectRefused(jws({ alg: 'RS384', kid: keys.RS256.kid, typ: 'JWT' }, claims, keys.RS256.privateKey));
    await expectRefused(jws({ alg: 'ES384', kid: keys.ES256.kid, typ: 'JWT' }, claims, keys.ES256.privateKey));
    // HS256 keyed with the listed public key's PEM: the key-confusion forgery.
    const pem = Buffer.from(keys.RS256.publicKey.export({ format: 'pem', type: 'spki' }));
    await expectRefused(jws({ alg: 'HS256', kid: keys.RS256.kid, typ: 'JWT' }, claims, pem));
    await expectRefused(`${b64(JSON.stringify({ alg: 'none', kid: keys.RS256.kid }))}.${b64(claims)}.`);
  });

  it('refuses a wrong issuer or audience', async () => {
    await expectRefused(mint({ claims: { iss: `${ISSUER}/other` } }));
    await expectRefused(mint({ claims: { aud: 'another-service' } }));
  });

  it('allows 5 s of clock leeway on exp, no more', async () => {
    expect((await whoami(mint({ claims: { iat: now() - 63, exp: now() - 3 } }))).status).toBe(200);
    await expectRefused(mint({ claims: { iat: now() - 70, exp: now() - 10 } }));
    await expectRefused(mint({ claims: { nbf: now() + 30 } }));
  });

  it('refuses a token without exp, or with exp as a string', async () => {
    await expectRefused(mint({ claims: { exp: undefined } }));
    await expectRefused(mint({ claims: { exp: String(now() + 60) } }));
  });

  it('refuses a sub that is not a member, an unknown kid and a tampered signature', async () => {
    await expectRefused(mint({ claims: { sub: 'user_nobody' } }));
    await expectRefused(mint({ header: { kid: 'kid-unknown' } }));
    const [header, payload, signature] = mint().split('.');
    await expectRefused(`${header}.${payload}.${signature!.slice(0, -4)}AAAA`);
  });
});
