import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { SignJWT, exportJWK, generateKeyPair, type JWTPayload } from 'jose';
import { Agent, request } from 'undici';
import { afterAll, beforeAll } from 'vitest';
import { makeSelfSignedCert } from '../../reference/dev/self-signed-cert.js';
import { startReference, type RunningReference } from '../../reference/index.js';
import { controlRequest } from './control.js';
import { listen, stop } from './servers.js';

// What the red team's direct tests share: one reference, a capturing HTTPS receiver that
// records the path each delivery came to and answers what the test scripts, a JWKS, and
// the control and public calls of one fault prefix ('' for the clean reference).

export interface Delivery {
  path: string;
  body: string;
  event: { id: string; type: string; data: Record<string, unknown> };
  headers: Record<string, string | string[] | undefined>;
  at: number;
}

export async function startRecordingReceiver() {
  const received: Delivery[] = [];
  /** Status answered per path (default 204), and the Location sent with it. */
  const statusOf = new Map<string, number>();
  const locationOf = new Map<string, string>();
  /** Body (and its Content-Type) answered per path; none by default. */
  const bodyOf = new Map<string, { text: string; contentType: string }>();
  const server = createHttpsServer(makeSelfSignedCert(), (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      received.push({ path, body, event: JSON.parse(body), headers: req.headers, at: Date.now() });
      res.statusCode = statusOf.get(path) ?? 204;
      const location = locationOf.get(path);
      if (location !== undefined) res.setHeader('location', location);
      const answer = bodyOf.get(path);
      if (answer !== undefined) res.setHeader('content-type', answer.contentType);
      res.end(answer?.text);
    });
  });
  const base = `https://127.0.0.1:${await listen(server)}`;
  let next = 0;
  return {
    /** A fresh path on the receiver, so each test reads only its own deliveries. */
    url(status = 204): { url: string; path: string } {
      const path = `/hook-${++next}`;
      statusOf.set(path, status);
      return { url: base + path, path };
    },
    /** From now on, `path` answers `status` (with a Location, for a redirect). */
    answer(path: string, status: number, location?: string): void {
      statusOf.set(path, status);
      if (location === undefined) locationOf.delete(path);
      else locationOf.set(path, location);
    },
    /** From now on, `path` answers `status` with this body. */
    answerWithBody(path: string, status: number, text: string, contentType = 'text/plain'): void {
      statusOf.set(path, status);
      bodyOf.set(path, { text, contentType });
    },
    at(path: string): Delivery[] {
      return received.filter((d) => d.path === path);
    },
    close: () => stop(server),
  };
}

/** A JWKS of two ES256 keys, k1 then k2; `sign` signs with either (k1 by default). */
export async function startKeySet() {
  const pairs = { k1: await generateKeyPair('ES256'), k2: await generateKeyPair('ES256') };
  const keys = await Promise.all(
    Object.entries(pairs).map(async ([kid, pair]) => ({
      ...(await exportJWK(pair.publicKey)),
      kid,
      alg: 'ES256',
      use: 'sig',
    })),
  );
  const server = createHttpServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys }));
  });
  const url = `http://127.0.0.1:${await listen(server)}/jwks.json`;
  const sign = (
    claims: JWTPayload & { iss: string; aud: string | string[]; sub: string; exp: number },
    kid: keyof typeof pairs = 'k1',
  ) => new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid }).sign(pairs[kid].privateKey);
  return { url, sign, close: () => stop(server) };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `ready` every 50 ms until it returns a value, or undefined after `timeoutMs`. */
export async function eventually<T>(ready: () => T | undefined, timeoutMs = 4000): Promise<T | undefined> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = ready();
    if (value !== undefined || Date.now() > until) return value;
    await sleep(50);
  }
}

/** The control and public calls of one fault prefix. */
export function client(reference: RunningReference, prefix: string) {
  const control = (method: string, path: string, body?: unknown) =>
    controlRequest(
      { controlUrl: `${reference.baseUrl}${prefix}/_control`, controlToken: reference.controlToken },
      method,
      path,
      body,
    );
  /** A public request on a fresh connection (fetch pools connections; this does not). */
  async function api(method: string, path: string, token?: string, body?: unknown, dispatcher?: Agent) {
    const headers: Record<string, string> = {};
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const fresh = dispatcher ?? new Agent({ pipelining: 0 });
    try {
      const res = await request(`${reference.baseUrl}${prefix}${path}`, {
        method: method as 'GET',
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        dispatcher: fresh,
      });
      const text = await res.body.text();
      return { status: res.statusCode, json: text ? JSON.parse(text) : null };
    } finally {
      if (!dispatcher) await fresh.close();
    }
  }
  async function workspace(body: Record<string, unknown> = {}) {
    const ws = await control('POST', '/workspaces', body);
    if (ws.status !== 201) throw new Error(`workspace: ${ws.status}`);
    return { id: ws.json.workspace_id as string, agents: ws.json.agent_ids as string[] };
  }
  async function token(ws: string, body: Record<string, unknown> = { label: 'red-team' }) {
    const created = await control('POST', `/workspaces/${ws}/tokens`, body);
    if (created.status !== 201) throw new Error(`token: ${created.status}`);
    return {
      id: created.json.token_id as string,
      token: created.json.token as string,
      scopes: created.json.scopes as string[],
    };
  }
  async function endpoint(ws: string, url: string, events: string[] = ['*']) {
    const created = await control('POST', `/workspaces/${ws}/webhook-endpoints`, { url, events });
    if (created.status !== 201) throw new Error(`endpoint: ${created.status} ${JSON.stringify(created.json)}`);
    return { id: created.json.endpoint_id as string, secret: created.json.secret as string };
  }
  /** Fires an event of `type` (workspace.plan.upgraded by default) through the control interface. */
  const fire = (ws: string, type = 'workspace.plan.upgraded', data: Record<string, unknown> = {}) =>
    control('POST', `/workspaces/${ws}/events`, { type, data });
  /** Places a call to the reserved test number with `credential`. */
  const placeCall = (credential: string, agent: string, metadata?: Record<string, unknown>) =>
    api('POST', '/v1/voice/calls', credential, {
      agent_id: agent,
      to: '+14155550100',
      ...(metadata ? { metadata } : {}),
    });
  /** Moves a call of a manual-progress workspace. */
  const progress = (ws: string, callId: string, body: Record<string, unknown>) =>
    control('POST', `/workspaces/${ws}/calls/${callId}/progress`, body);
  return { control, api, workspace, token, endpoint, fire, placeCall, progress };
}

export type FaultClient = ReturnType<typeof client>;

type KeySet = Awaited<ReturnType<typeof startKeySet>>;

/**
 * Sets the key set up as the identity provider of `ws` (an issuer per workspace, `audience`)
 * and adds member u1 with `scopes`; `jwt` signs a session token for u1 that expires `lifetime`
 * seconds from now.
 */
export async function sessionSetup(c: FaultClient, keys: KeySet, ws: string, scopes: string[], audience = 'svc') {
  const issuer = `https://idp.example/${ws}`;
  await c.control('PUT', `/workspaces/${ws}/identity-provider`, { issuer, jwks_uri: keys.url, audience });
  await c.control('POST', `/workspaces/${ws}/members`, { subject: 'u1', scopes });
  const jwt = (aud: string | string[] = audience, lifetime = 60) =>
    keys.sign({ iss: issuer, aud, sub: 'u1', exp: Math.floor(Date.now() / 1000) + lifetime });
  return { issuer, jwt };
}

/** Creates a token labelled `label` in a new workspace: the creation's status and the label it answers. */
export async function tokenLabelAnswered(c: FaultClient, label: string): Promise<[number, unknown]> {
  const ws = await c.workspace();
  const created = await c.control('POST', `/workspaces/${ws.id}/tokens`, { label });
  return [created.status, created.json.label];
}

/** `/faults/<fault>`: the prefix that switches a fault on. */
export const prefixOf = (fault: string): string => `/faults/${fault}`;

/** Runs `observe` clean and under `fault` at the same time (the slow ones wait tens of seconds), and returns both. */
export async function both<T>(
  reference: RunningReference,
  fault: string,
  observe: (c: FaultClient, prefix: string) => Promise<T>,
): Promise<{ clean: T; faulted: T }> {
  const [clean, faulted] = await Promise.all([
    observe(client(reference, ''), ''),
    observe(client(reference, prefixOf(fault)), prefixOf(fault)),
  ]);
  return { clean, faulted };
}

export async function startAll() {
  const [reference, receiver, keys] = await Promise.all([
    startReference({ quiet: true, propagationMs: 300 }),
    startRecordingReceiver(),
    startKeySet(),
  ]);
  return {
    reference,
    receiver,
    keys,
    close: async () => {
      await reference.close();
      await receiver.close();
      await keys.close();
    },
  };
}

type Started = Awaited<ReturnType<typeof startAll>>;
type RecordingReceiver = Awaited<ReturnType<typeof startRecordingReceiver>>;

/** A receiver's ordinary acknowledgement, beside the 200 under test. */
export const RECEIPT = '{"received":true}';

/**
 * One event fired to endpoints that answer 200 with each of `answers`, at time scale 3600, and
 * each endpoint's deliveries once its first retries had time to come (17 ms, 83 ms and 500 ms
 * after each failure): 1 where the 200 acknowledged the event, 2 (capped) where it was taken
 * for a failure and retried.
 */
export async function deliveriesAfter200(
  c: FaultClient,
  receiver: RecordingReceiver,
  answers: ReadonlyArray<{ text: string; contentType?: string }>,
): Promise<number[]> {
  const ws = await c.workspace({ time_scale: 3600 });
  const paths: string[] = [];
  for (const { text, contentType } of answers) {
    const { url, path } = receiver.url();
    receiver.answerWithBody(path, 200, text, contentType);
    await c.endpoint(ws.id, url);
    paths.push(path);
  }
  await c.fire(ws.id);
  await sleep(1500);
  return paths.map((path) => Math.min(receiver.at(path).length, 2));
}

/**
 * A red-team round's setup: the reference, the recording receiver and the key set started
 * before the file's tests and closed after them, and `both` bound to that reference.
 */
export function redTeamRound() {
  let started: Started | undefined;
  beforeAll(async () => {
    started = await startAll();
  });
  afterAll(async () => {
    await started?.close();
  });
  const all = (): Started => {
    if (!started) throw new Error('the round has not started: use it inside a test');
    return started;
  };
  return {
    get reference() {
      return all().reference;
    },
    get receiver() {
      return all().receiver;
    },
    get keys() {
      return all().keys;
    },
    both: <T>(fault: string, observe: (c: FaultClient, prefix: string) => Promise<T>) =>
      both(all().reference, fault, observe),
  };
}
