import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/http/client.js';
import { watchStaleConnections } from '../../src/http/reuse.js';
import { countedIn, emptyTally, emptyTraffic } from '../../src/http/tally.js';
import { registerSecret } from '../../src/secrets/mask.js';
import { CheckRecord } from '../../src/check/record.js';
import { HttpError } from '../../src/errors.js';

/** A server whose next answers are scripted: each request takes the next step, the last one repeats. */
type Step = (req: IncomingMessage, res: ServerResponse) => void;
let server: Server;
let base: string;
let steps: Step[] = [];
let seen: Array<{ method: string; url: string }> = [];

const ok: Step = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
const tooMany =
  (retryAfter?: string): Step =>
  (_req, res) =>
    res
      .writeHead(429, retryAfter === undefined ? {} : { 'retry-after': retryAfter })
      .end('{"error":{"code":"rate_limited"}}');
const reset: Step = (req) => req.socket.destroy();

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ method: req.method!, url: req.url! });
    const step = steps.length > 1 ? steps.shift()! : steps[0]!;
    req.resume();
    req.on('end', () => step(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(() => {
  seen = [];
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function withClient<T>(
  use: (client: HttpClient) => Promise<T>,
  options: ConstructorParameters<typeof HttpClient>[1] = {},
): Promise<T> {
  const client = new HttpClient(base, { timeoutMs: 2_000, ...options });
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

describe('HttpClient against a rate-limited target', () => {
  it('waits out a 429 with Retry-After in seconds, sends again, and counts what it cost', async () => {
    steps = [tooMany('1'), ok];
    const tally = emptyTally();
    const started = performance.now();
    const res = await countedIn(tally, () => withClient((client) => client.request({ path: '/v1/whoami' })));
    expect(res.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
    expect(res.sentAtMs - started).toBeGreaterThanOrEqual(990);
    expect(tally).toMatchObject({ requests: 2, rate_limited: 1, resent: 1, unanswered: 0 });
    expect(tally.waited_ms).toBeGreaterThanOrEqual(1000);
  });

  it('waits out a 429 with Retry-After as an HTTP date', async () => {
    steps = [tooMany(new Date(Date.now() + 1500).toUTCString()), ok];
    const started = performance.now();
    const res = await withClient((client) => client.request({ path: '/v1/whoami' }));
    expect(res.status).toBe(200);
    // An HTTP date has whole seconds: the wait is 0.5 to 1.5 s.
    expect(performance.now() - started).toBeGreaterThanOrEqual(400);
  });

  it('backs off from a 429 without Retry-After, and a POST is sent again too (a 429 is a refusal)', async () => {
    steps = [tooMany(), tooMany(), ok];
    const res = await withClient((client) => client.request({ method: 'POST', path: '/v1/voice/calls', json: {} }));
    expect(res.status).toBe(200);
    expect(seen.map((request) => request.method)).toEqual(['POST', 'POST', 'POST']);
  });

  it('ends unanswered, not with the 429 as the answer, when the target keeps refusing', async () => {
    steps = [tooMany('31')];
    const tally = emptyTally();
    const error = await countedIn(tally, () => withClient((client) => client.request({ path: '/v1/whoami' }))).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).kind).toBe('rate-limited');
    expect((error as HttpError).unanswered).toBe(true);
    expect(tally.unanswered).toBe(1);
  });

  it('returns a 429 without Retry-After itself once the waits are spent, when told 429 is an answer (the control interface)', async () => {
    steps = [tooMany()];
    const tally = emptyTally();
    const asAnswer = { paced: false, lastRateLimitIsAnswer: true, rateLimitWaitBudgetMs: 1_000 };
    const res = await countedIn(tally, () =>
      withClient((client) => client.request({ method: 'POST', path: '/workspaces/ws_1/tokens', json: {} }), asAnswer),
    );
    expect(res.status).toBe(429);
    expect(tally.unanswered).toBe(0);
    expect(tally.rate_limited).toBeGreaterThan(1);
    // A Retry-After says when to come back: a rate limit, no answer, whatever the client was told.
    steps = [tooMany('31')];
    const limited = await withClient((client) => client.request({ path: '/capabilities' }), asAnswer).catch(
      (caught: unknown) => caught,
    );
    expect((limited as HttpError).kind).toBe('rate-limited');
  });

  it('counts requests to the control interface apart from the public API', async () => {
    steps = [tooMany('0'), ok];
    const tally = emptyTally();
    await countedIn(tally, () => withClient((client) => client.request({ path: '/capabilities' }), { paced: false }));
    expect(tally).toMatchObject({ requests: 0, control_requests: 2, rate_limited: 1 });
  });

  it('hands a 429 over as it is when told not to resend (the harness playing the service)', async () => {
    steps = [tooMany('1')];
    const res = await withClient((client) => client.request({ path: '/hook' }), { resend: false });
    expect(res.status).toBe(429);
    expect(seen).toHaveLength(1);
  });
});

describe('HttpClient against a target that drops connections', () => {
  it('sends a GET again after a reset and returns the answer', async () => {
    steps = [reset, reset, ok];
    const tally = emptyTally();
    const res = await countedIn(tally, () => withClient((client) => client.request({ path: '/v1/voice/agents' })));
    expect(res.status).toBe(200);
    expect(seen).toHaveLength(3);
    expect(tally).toMatchObject({ requests: 3, resent: 2, unanswered: 0 });
  });

  it('does not send a POST again after a reset: it ends unanswered after one attempt', async () => {
    steps = [reset, ok];
    const tally = emptyTally();
    const error = await countedIn(tally, () =>
      withClient((client) => client.request({ method: 'POST', path: '/v1/voice/calls', json: {} })),
    ).catch((caught: unknown) => caught);
    expect((error as HttpError).kind).toBe('network');
    expect(seen).toHaveLength(1);
    expect(tally).toMatchObject({ requests: 1, unanswered: 1 });
    expect(tally.first_unanswered).toMatch(/POST \/v1\/voice\/calls/);
  });

  it('gives up on a GET after its bounded resends', async () => {
    steps = [reset];
    const error = await withClient((client) => client.request({ path: '/v1/whoami' })).catch(
      (caught: unknown) => caught,
    );
    expect((error as HttpError).unanswered).toBe(true);
    expect((error as Error).message).toMatch(/sent 4 times/);
    expect(seen).toHaveLength(4);
  });

  it('sends even a POST again when the connection was refused, and ends unanswered', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const client = new HttpClient(`http://127.0.0.1:${port}`, { timeoutMs: 1_000 });
    const tally = emptyTally();
    try {
      const error = await countedIn(tally, () =>
        client.request({ method: 'POST', path: '/v1/voice/calls', json: {} }),
      ).catch((caught: unknown) => caught);
      expect((error as HttpError).kind).toBe('network');
      expect(tally).toMatchObject({ requests: 4, resent: 3, unanswered: 1 });
    } finally {
      await client.close();
    }
  });
});

describe('HttpClient on kept-alive connections the other side closes', () => {
  watchStaleConnections();

  /**
   * Like tinyproxy: answers HTTP/1.1 without `Connection: close`, yet never serves a second
   * request on a connection. `onReused` decides what a connection's second request meets.
   */
  async function oneRequestPerConnection(
    onReused: 'close' | 'reset',
  ): Promise<{ url: string; served: string[]; close(): Promise<void> }> {
    const served: string[] = [];
    const perSocket = new WeakMap<object, number>();
    const closing = createServer((req, res) => {
      const nth = (perSocket.get(req.socket) ?? 0) + 1;
      perSocket.set(req.socket, nth);
      if (nth > 1) {
        if (onReused === 'close') req.socket.end();
        else req.socket.resetAndDestroy();
        return;
      }
      req.resume();
      req.on('end', () => {
        served.push(`${req.method} ${req.url}`);
        res.writeHead(201, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    await new Promise<void>((resolve) => closing.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(closing.address() as AddressInfo).port}`,
      served,
      close: async () => {
        closing.closeAllConnections();
        await new Promise((resolve) => closing.close(resolve));
      },
    };
  }

  /** Long enough for undici to see the connection idle: a request sent sooner takes a connection of its own. */
  const idle = () => new Promise((resolve) => setTimeout(resolve, 50));

  it('sends a POST again on a new connection when a reused one was closed before any byte of an answer', async () => {
    const target = await oneRequestPerConnection('close');
    const client = new HttpClient(target.url, { timeoutMs: 2_000, paced: false });
    const tally = emptyTally();
    try {
      for (let i = 1; i <= 3; i += 1) {
        const res = await countedIn(tally, () =>
          client.request({ method: 'POST', path: `/_control/workspaces/${i}`, json: {} }),
        );
        expect(res.status).toBe(201);
        await idle();
      }
    } finally {
      await client.close();
      await target.close();
    }
    expect(target.served).toEqual([
      'POST /_control/workspaces/1',
      'POST /_control/workspaces/2',
      'POST /_control/workspaces/3',
    ]);
    expect(tally).toMatchObject({ control_requests: 4, resent: 1, unanswered: 0 });
  });

  it('does the same through a forward proxy that closes its kept-alive connections (plain HTTP, tinyproxy)', async () => {
    const proxy = await oneRequestPerConnection('close');
    const client = new HttpClient('http://service.example.test:8080', {
      timeoutMs: 2_000,
      paced: false,
      env: { HTTP_PROXY: proxy.url },
    });
    const tally = emptyTally();
    try {
      for (let i = 1; i <= 3; i += 1) {
        expect(
          (
            await countedIn(tally, () =>
              client.request({ method: 'POST', path: `/_control/workspaces/${i}/tokens`, json: {} }),
            )
          ).status,
        ).toBe(201);
        await idle();
      }
    } finally {
      await client.close();
      await proxy.close();
    }
    expect(proxy.served).toEqual(
      [1, 2, 3].map((i) => `POST http://service.example.test:8080/_control/workspaces/${i}/tokens`),
    );
    expect(tally).toMatchObject({ control_requests: 4, resent: 1, unanswered: 0 });
  });

  it('does not send a POST again when a reused connection was reset: the target may have read it', async () => {
    const target = await oneRequestPerConnection('reset');
    const client = new HttpClient(target.url, { timeoutMs: 2_000, paced: false });
    const tally = emptyTally();
    try {
      await client.request({ method: 'POST', path: '/first', json: {} });
      await idle();
      const error = await countedIn(tally, () => client.request({ method: 'POST', path: '/second', json: {} })).catch(
        (caught: unknown) => caught,
      );
      expect(error, String(error)).toBeInstanceOf(HttpError);
      expect((error as HttpError).unanswered).toBe(true);
      expect((error as HttpError).causeCode).toBe('ECONNRESET');
    } finally {
      await client.close();
      await target.close();
    }
    expect(tally).toMatchObject({ control_requests: 1, resent: 0, unanswered: 1 });
  });
});

describe("HttpClient on a caller's own connection", () => {
  it('sends every request given one connection over it, while the shared pool opens others beside it', async () => {
    const sockets = new Set<object>();
    const requestsBySocket = new Map<object, number>();
    const counting = createServer((req, res) => {
      sockets.add(req.socket);
      requestsBySocket.set(req.socket, (requestsBySocket.get(req.socket) ?? 0) + 1);
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((resolve) => counting.listen(0, '127.0.0.1', resolve));
    const client = new HttpClient(`http://127.0.0.1:${(counting.address() as AddressInfo).port}`, { paced: false });
    const connection = client.ownConnection();
    try {
      // The pool's requests at once take connections of their own; the caller's three share one.
      const pooled = Promise.all([1, 2, 3].map((i) => client.request({ path: `/pooled/${i}` })));
      for (const i of [1, 2, 3]) expect((await client.request({ path: `/own/${i}`, connection })).status).toBe(200);
      await pooled;
      expect([...requestsBySocket.values()]).toContain(3);
      expect(sockets.size).toBeGreaterThan(1);
    } finally {
      await connection.close();
      await client.close();
      counting.closeAllConnections();
      await new Promise((resolve) => counting.close(resolve));
    }
  });
});

describe('HttpClient against a target that answers with what is not HTTP', () => {
  it('keeps bytes that are not HTTP as the target answer (a failure), not a lost one, and does not resend them', async () => {
    steps = [(req) => req.socket.end('HELLO this is not HTTP\r\n\r\n')];
    const tally = emptyTally();
    const error = await countedIn(tally, () => withClient((client) => client.request({ path: '/v1/whoami' }))).catch(
      (caught: unknown) => caught,
    );
    expect((error as HttpError).kind).toBe('malformed');
    expect((error as HttpError).unanswered).toBe(false);
    expect(seen).toHaveLength(1);
    expect(tally.unanswered).toBe(0);
  });
});

describe('HttpClient keeping evidence for a check', () => {
  it('keeps the last exchanges, bounded, and the check record masks them: request, status, telling headers, body', async () => {
    steps = [
      tooMany('0'),
      (_req, res) =>
        res
          .writeHead(401, { 'content-type': 'application/json', 'x-noise': 'n' })
          .end(`{"error":{"code":"invalid_token","message":"${'x'.repeat(5_000)}"}}`),
    ];
    const traffic = emptyTraffic();
    registerSecret('svc_test_FakeEvidenceToken0123456789');
    await countedIn(traffic, () =>
      withClient((client) =>
        client.request({
          path: '/v1/whoami',
          headers: { authorization: 'Bearer svc_test_FakeEvidenceToken0123456789' },
        }),
      ),
    );
    expect(traffic.exchanges.map((exchange) => exchange.answer)).toEqual([429, 401]);
    const recorded = new CheckRecord({ id: 'AUTH-UNKNOWN-TOKEN' }).toMeta(undefined, undefined, undefined, {
      exchanges: traffic.exchanges,
      rerun: 'svc-harness certify --checks AUTH-UNKNOWN-TOKEN --seed 1',
    });
    const last = recorded.evidence!.exchanges[1]!;
    expect(last.request).toMatch(/^GET \/v1\/whoami\nauthorization: Bearer svc_test_\*\*\*/);
    expect(JSON.stringify(recorded)).not.toContain('FakeEvidenceToken');
    expect(last.headers).toEqual({ 'content-type': 'application/json' });
    expect(last.body!.length).toBeLessThan(1_100);
    expect(last.body).toMatch(/^\{"error":\{"code":"invalid_token"/);
  });
});

describe('HttpClient behind a proxy', () => {
  it('sends through HTTP_PROXY, and straight to hosts in NO_PROXY', async () => {
    steps = [ok];
    const target = 'http://service.example.test:8080';
    const proxied = new HttpClient(target, { env: { HTTP_PROXY: base } });
    const bypassed = new HttpClient(base, { env: { HTTP_PROXY: 'http://127.0.0.1:9', NO_PROXY: '127.0.0.1' } });
    try {
      expect((await proxied.request({ path: '/v1/whoami' })).status).toBe(200);
      expect((await bypassed.request({ path: '/v1/whoami' })).status).toBe(200);
    } finally {
      await proxied.close();
      await bypassed.close();
    }
    // A forward proxy gets the absolute URL; the server reached directly gets the path.
    expect(seen.map((request) => request.url)).toEqual([`${target}/v1/whoami`, '/v1/whoami']);
  });
});
