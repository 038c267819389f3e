import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, UnsecuredJWT, exportJWK, exportSPKI, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULTS } from '../../reference/faults.js';
import { startReference, type RunningReference } from '../../reference/index.js';
import { controlRequest } from './control.js';

// Faults are switched on by a path prefix; a workspace created under it keeps them.
// A sample per family, checked over HTTP: each breaks its rule, the clean path does not.

let reference: RunningReference;
let jwksServer: Server;
let jwksUrl: string;
let keys: Awaited<ReturnType<typeof generateKeyPair>>;

beforeAll(async () => {
  reference = await startReference({ quiet: true });
  keys = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(keys.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  jwksServer = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((r) => jwksServer.listen(0, '127.0.0.1', r));
  jwksUrl = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/jwks`;
});

afterAll(async () => {
  await reference?.close();
  jwksServer?.closeAllConnections();
  await new Promise<void>((r) => (jwksServer ? jwksServer.close(() => r()) : r()));
});

const control = (prefix: string, method: string, path: string, body?: unknown) =>
  controlRequest(
    { controlUrl: `${reference.baseUrl}${prefix}/_control`, controlToken: reference.controlToken },
    method,
    path,
    body,
  );

async function api(prefix: string, path: string, token?: string) {
  const res = await fetch(`${reference.baseUrl}${prefix}${path}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const text = await res.text();
  return { status: res.status, contentType: res.headers.get('content-type'), text };
}

async function sessionWorkspace(prefix: string) {
  const ws = await control(prefix, 'POST', '/workspaces', {});
  const id = ws.json.workspace_id as string;
  await control(prefix, 'PUT', `/workspaces/${id}/identity-provider`, {
    issuer: 'https://idp.faults',
    jwks_uri: jwksUrl,
    audience: `aud-${id}`,
  });
  await control(prefix, 'POST', `/workspaces/${id}/members`, { subject: 'member', scopes: ['voice:read'] });
  return id;
}

describe('fault registry', () => {
  it('every fault has a one-line description', () => {
    for (const [name, description] of Object.entries(FAULTS)) {
      expect(name).toMatch(/^[a-z0-9-]+$/);
      expect(description.length).toBeGreaterThan(10);
      expect(description).not.toContain('\n');
    }
  });
});

describe('faults over HTTP', () => {
  it('error-shape faults apply to requests without any token', async () => {
    const clean = await api('', '/v1/whoami');
    expect(clean.status).toBe(401);
    expect(JSON.parse(clean.text).error.request_id).toMatch(/^req_/);
    expect((await api('/faults/bad-token-403', '/v1/whoami')).status).toBe(403);
    expect(JSON.parse((await api('/faults/no-request-id', '/v1/whoami')).text).error.request_id).toBeUndefined();
    expect((await api('/faults/error-text-plain', '/v1/whoami')).contentType).toMatch(/^text\/plain/);
    expect((await api('/faults/long-token-500', '/v1/whoami', 'svc_test_' + 'a'.repeat(3000))).status).toBe(500);
    const [a, b] = [
      await api('/faults/request-id-reused', '/v1/whoami'),
      await api('/faults/request-id-reused', '/v1/whoami'),
    ];
    expect(JSON.parse(a.text).error.request_id).toBe(JSON.parse(b.text).error.request_id);
  });

  it('a workspace created under a fault prefix keeps its faults', async () => {
    const prefix = '/faults/third-token,default-scopes-all';
    const ws = await control(prefix, 'POST', '/workspaces', { licensed_scopes: ['voice:read'] });
    const id = ws.json.workspace_id;
    const tokens = [];
    for (let i = 0; i < 3; i++) tokens.push(await control('', 'POST', `/workspaces/${id}/tokens`, { label: `t${i}` }));
    expect(tokens.map((t) => t.status)).toEqual([201, 201, 201]);
    expect(tokens[0]!.json.scopes).toHaveLength(5);
  });

  it('session-token faults open the holes they name, and only under their prefix', async () => {
    const now = Math.floor(Date.now() / 1000);
    const signed = (
      id: string,
      claims: { sub?: string; aud?: string; exp?: number; nbf?: number; kid?: string } = {},
    ) =>
      new SignJWT({ ...(claims.nbf ? { nbf: claims.nbf } : {}) })
        .setProtectedHeader({ alg: 'RS256', kid: claims.kid ?? 'k1' })
        .setIssuer('https://idp.faults')
        .setAudience(claims.aud ?? `aud-${id}`)
        .setSubject(claims.sub ?? 'member')
        .setExpirationTime(claims.exp ?? now + 60)
        .sign(keys.privateKey);

    const clean = await sessionWorkspace('');
    expect((await api('', '/v1/voice/agents', await signed(clean))).status).toBe(200);
    expect((await api('', '/v1/whoami', await signed(clean, { exp: now - 120 }))).status).toBe(401);
    expect((await api('', '/v1/whoami', await signed(clean, { kid: 'other' }))).status).toBe(401);

    const expired = await sessionWorkspace('/faults/jwt-ignore-exp');
    expect((await api('', '/v1/whoami', await signed(expired, { exp: now - 120 }))).status).toBe(200);

    const early = await sessionWorkspace('/faults/jwt-ignore-nbf');
    expect((await api('', '/v1/whoami', await signed(early, { nbf: now + 600, exp: now + 900 }))).status).toBe(200);

    const unknownKid = await sessionWorkspace('/faults/jwt-unknown-kid');
    expect((await api('', '/v1/whoami', await signed(unknownKid, { kid: 'other' }))).status).toBe(200);

    const anySub = await sessionWorkspace('/faults/jwt-any-sub');
    expect((await api('', '/v1/whoami', await signed(anySub, { sub: 'stranger' }))).status).toBe(200);

    const none = await sessionWorkspace('/faults/jwt-alg-none');
    const unsigned = new UnsecuredJWT({})
      .setIssuer('https://idp.faults')
      .setAudience(`aud-${none}`)
      .setSubject('member')
      .setExpirationTime(now + 60)
      .encode();
    expect((await api('', '/v1/whoami', unsigned)).status).toBe(200);
    const cleanUnsigned = new UnsecuredJWT({})
      .setIssuer('https://idp.faults')
      .setAudience(`aud-${clean}`)
      .setSubject('member')
      .setExpirationTime(now + 60)
      .encode();
    expect((await api('', '/v1/whoami', cleanUnsigned)).status).toBe(401);

    const confused = await sessionWorkspace('/faults/jwt-hs256-confusion');
    const pem = await exportSPKI(keys.publicKey);
    const forge = (id: string) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer('https://idp.faults')
        .setAudience(`aud-${id}`)
        .setSubject('member')
        .setExpirationTime(now + 60)
        .sign(new TextEncoder().encode(pem));
    expect((await api('', '/v1/whoami', await forge(confused))).status).toBe(200);
    expect((await api('', '/v1/whoami', await forge(clean))).status).toBe(401);
  });

  it('endpoint registration faults', async () => {
    const ws = await control('/faults/accept-http-url,accept-localhost', 'POST', '/workspaces', {});
    const id = ws.json.workspace_id;
    expect(
      (await control('', 'POST', `/workspaces/${id}/webhook-endpoints`, { url: 'http://127.0.0.1:9/x', events: ['*'] }))
        .status,
    ).toBe(201);
    expect(
      (
        await control('', 'POST', `/workspaces/${id}/webhook-endpoints`, {
          url: 'https://localhost:9/x',
          events: ['*'],
        })
      ).status,
    ).toBe(201);
  });

  it('an unknown fault name is a 404 on both interfaces', async () => {
    expect((await api('/faults/no-such-fault', '/v1/whoami')).status).toBe(404);
    expect((await control('/faults/no-such-fault', 'GET', '/capabilities')).status).toBe(404);
  });
});
