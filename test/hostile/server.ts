/**
 * A hostile target: a proxy in front of the reference implementation that misbehaves at
 * the transport level, switched on per run by a path prefix, like the reference's faults:
 *
 *   <origin>/h/<run>/<behaviour>.<where>/v1/…        the public API
 *   <origin>/h/<run>/<behaviour>.<where>/_control/…  the control interface
 *
 * `slow-create` forwards everything but answers the control interface's creating POSTs
 * (workspaces, tokens, endpoints) SLOW_CREATE_MS late, after the target created them.
 *
 * `hostile-json` and `hostile-bytes` forward everything but replace the body of every error
 * answer (status 400 and up) with HOSTILE_TEXT (hostile-text.ts), keeping the status: as
 * JSON escapes inside valid JSON, or as raw bytes (with a CESU-8 lone surrogate and an
 * invalid UTF-8 byte) under `application/json`.
 *
 * `<run>` names one certification run (what it created is recorded under it), `<where>`
 * is `api`, `control`, `delete` (control DELETEs only) or `all`. The probe of a run
 * (GET /v1/whoami without credentials, GET /_control/capabilities) is always answered
 * honestly, so the run gets past its start and meets the fault in its checks.
 *
 * Everything else is forwarded to the reference on a new connection, and the recorder
 * notes every workspace, token, endpoint and credential that passes through, so a test
 * can check afterwards that the run removed them and printed none of them.
 */
import {
  createServer as createHttpServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import {
  connect as netConnect,
  createServer as createNetServer,
  type Server as NetServer,
  type Socket,
} from 'node:net';
import type { AddressInfo } from 'node:net';
import { HOSTILE_TEXT } from './hostile-text.js';

export const BEHAVIOURS = [
  'none',
  'hang',
  'headers-stall',
  'drip',
  'huge',
  'endless',
  'invalid-json',
  'wrong-type',
  'reset',
  'garbage',
  'huge-headers',
  'redirect-loop',
  'retry-after',
  'echo-secrets',
  'slow-create',
  'hostile-json',
  'hostile-bytes',
] as const;
export type Behaviour = (typeof BEHAVIOURS)[number];
export type Where = 'api' | 'control' | 'delete' | 'all';

export interface RunRecord {
  workspaces: Set<string>;
  tokens: Map<string, { workspaceId: string; tokenId: string; secret: string }>;
  endpoints: Map<string, { workspaceId: string; endpointId: string; secret: string }>;
  /** Every credential and secret seen: bearer tokens and JWTs sent to the API, tokens and signing secrets handed out. */
  secrets: Set<string>;
  /** Control requests as they were answered (method, path without the prefix, status). */
  control: Array<{ method: string; path: string; status: number }>;
  /** Called on every request of the run, after the recorder has seen it. */
  onRequest?: (method: string, path: string) => void;
}

export interface HostileServer {
  origin: string;
  /** Base URL and control URL of one run under one behaviour. */
  urls(run: string, behaviour: Behaviour, where?: Where): { baseUrl: string; controlUrl: string };
  record(run: string): RunRecord;
  close(): Promise<void>;
}

const FIFTY_MB = 50 * 1024 * 1024;
/** `slow-create`: the target creates at once and answers this much later. */
export const SLOW_CREATE_MS = 3_000;
const CREATING = /^\/workspaces(\/[^/]+\/(tokens|webhook-endpoints))?$/;
const CHUNK = Buffer.alloc(64 * 1024, 0x61);
/** Error bodies of `hostile-json` and `hostile-bytes`: the text in the code, the message and the request id. */
const HOSTILE_BODY = {
  'hostile-json': Buffer.from(
    JSON.stringify({ error: { code: HOSTILE_TEXT, message: HOSTILE_TEXT, request_id: `req_${HOSTILE_TEXT}` } }),
    'utf8',
  ),
  'hostile-bytes': Buffer.concat([
    Buffer.from(`{"error":{"code":"${HOSTILE_TEXT}","message":"`, 'utf8'),
    Buffer.from([0xed, 0xa0, 0x80, 0xff, 0xfe, 0x00, 0x1b, 0x5b, 0x32, 0x4a]), // a CESU-8 surrogate, invalid UTF-8, NUL, ESC [2J
    Buffer.from(`${HOSTILE_TEXT}","request_id":"req_x"}}`, 'utf8'),
  ]),
} as const;

export async function startHostileServer(referenceBaseUrl: string): Promise<HostileServer> {
  const reference = new URL(referenceBaseUrl);
  const records = new Map<string, RunRecord>();
  const record = (run: string): RunRecord => {
    let entry = records.get(run);
    if (!entry)
      records.set(
        run,
        (entry = { workspaces: new Set(), tokens: new Map(), endpoints: new Map(), secrets: new Set(), control: [] }),
      );
    return entry;
  };
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();

  const server: Server = createHttpServer({ requestTimeout: 0, headersTimeout: 10_000, keepAliveTimeout: 5_000 });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    res.on('error', () => undefined);
    const match = /^\/h\/([^/]+)\/([a-z-]+)\.(api|control|delete|all)(\/.*)$/.exec(req.url ?? '');
    if (!match)
      return void res
        .writeHead(404, { 'content-type': 'application/json' })
        .end('{"error":{"code":"not_found","message":"no such hostile path"}}');
    const [, run, behaviour, where, rest] = match as unknown as [string, string, Behaviour, Where, string];
    const entry = record(run);
    const isControl = rest.startsWith('/_control/');
    const path = isControl ? rest.slice('/_control'.length) : rest;
    const auth = req.headers.authorization;
    if (!isControl && auth?.startsWith('Bearer ') && auth.length > 12) entry.secrets.add(auth.slice(7));
    entry.onRequest?.(req.method ?? 'GET', rest);
    const probe = isControl
      ? req.method === 'GET' && path === '/capabilities'
      : req.method === 'GET' && path.split('?')[0] === '/v1/whoami' && auth === undefined;
    const affected =
      !probe &&
      behaviour !== 'none' &&
      (where === 'all' ||
        (where === 'api' && !isControl) ||
        (where === 'control' && isControl) ||
        (where === 'delete' && isControl && req.method === 'DELETE'));
    if (!affected) return forward(req, res, rest, isControl ? entry : undefined, path);
    if (behaviour === 'slow-create') {
      const creating = isControl && req.method === 'POST' && CREATING.test(path);
      return forward(req, res, rest, isControl ? entry : undefined, path, creating ? SLOW_CREATE_MS : 0);
    }
    if (behaviour === 'hostile-json' || behaviour === 'hostile-bytes')
      return forward(req, res, rest, isControl ? entry : undefined, path, 0, HOSTILE_BODY[behaviour]);
    misbehave(behaviour, req, res, `${req.headers.host ?? ''}${req.url ?? ''}`);
  });

  function forward(
    req: IncomingMessage,
    res: ServerResponse,
    rest: string,
    entry: RunRecord | undefined,
    controlPath: string,
    answerDelayMs = 0,
    errorBody?: Buffer,
  ): void {
    const upstream = httpRequest(
      {
        host: reference.hostname,
        port: reference.port,
        method: req.method,
        path: rest,
        headers: { ...req.headers, host: reference.host },
        agent: false,
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const body = Buffer.concat(chunks);
          if (entry) noteControl(entry, req.method ?? 'GET', controlPath, answer.statusCode ?? 0, body);
          const status = answer.statusCode ?? 502;
          const send = () =>
            errorBody && status >= 400
              ? void res
                  .writeHead(status, { 'content-type': 'application/json', 'content-length': String(errorBody.length) })
                  .end(errorBody)
              : void res.writeHead(status, answer.headers).end(body);
          if (answerDelayMs === 0) return send();
          const timer = setTimeout(() => {
            timers.delete(timer);
            send();
          }, answerDelayMs);
          timers.add(timer);
        });
        answer.on('error', () => res.destroy());
      },
    );
    upstream.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
    req.pipe(upstream);
  }

  function misbehave(behaviour: Behaviour, req: IncomingMessage, res: ServerResponse, self: string): void {
    const socket = req.socket;
    const later = (ms: number, fn: () => void) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        fn();
      }, ms);
      timers.add(timer);
      return timer;
    };
    req.resume();
    switch (behaviour) {
      case 'hang':
        return; // the request is read, the socket stays open, no byte is ever sent
      case 'headers-stall':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        res.write('{"workspace_id":');
        return;
      case 'drip': {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"pad":"');
        const drip = setInterval(() => (res.destroyed ? clearInterval(drip) : res.write('x')), 1_000);
        res.once('close', () => clearInterval(drip));
        return;
      }
      case 'huge':
      case 'endless': {
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (behaviour === 'huge') headers['content-length'] = String(FIFTY_MB);
        res.writeHead(200, headers);
        let sent = 0;
        const pump = (): void => {
          while (!res.destroyed && (behaviour === 'endless' || sent < FIFTY_MB)) {
            const piece = behaviour === 'huge' ? CHUNK.subarray(0, Math.min(CHUNK.length, FIFTY_MB - sent)) : CHUNK;
            sent += piece.length;
            if (!res.write(piece)) return void res.once('drain', pump);
          }
          if (!res.destroyed) res.end();
        };
        return pump();
      }
      case 'invalid-json':
        return void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end('{"workspace_id": "ws_x", "token": svc_test_… , ]');
      case 'wrong-type':
        return void res
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end('<!doctype html><html><body><h1>It works!</h1></body></html>');
      case 'reset':
        return void socket.resetAndDestroy();
      case 'garbage':
        socket.write(
          'HTTP/1.1 200 OK\r\nContent-Length: banana\r\nX-\u0000Bad: \u0001\u0002\r\n\r\n\u0000\u0000garbage',
        );
        return void later(50, () => socket.destroy());
      case 'huge-headers':
        res.writeHead(200, { 'content-type': 'application/json', 'x-padding': 'p'.repeat(1024 * 1024) });
        return void res.end('{}');
      case 'redirect-loop':
        return void res.writeHead(307, { location: `http://${self}`, 'content-type': 'application/json' }).end('{}');
      case 'retry-after':
        return void res
          .writeHead(429, { 'retry-after': '3600', 'content-type': 'application/json' })
          .end('{"error":{"code":"rate_limited","message":"slow down","request_id":"req_storm"}}');
      case 'echo-secrets': {
        // A target that echoes credentials back: the harness must mask them wherever they land.
        const echoed = `${req.headers.authorization ?? ''} ${req.url ?? ''}`;
        return void res
          .writeHead(400, { 'content-type': 'application/json', 'x-echo': echoed.slice(0, 2_000) })
          .end(JSON.stringify({ error: { code: 'echo', message: `you sent ${echoed}`, request_id: 'req_echo' } }));
      }
      case 'none':
      case 'slow-create':
      case 'hostile-json':
      case 'hostile-bytes':
        return;
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    urls: (run, behaviour, where = 'api') => {
      const base = `${origin}/h/${run}/${behaviour}.${where}`;
      return { baseUrl: base, controlUrl: `${base}/_control` };
    },
    record,
    async close() {
      for (const timer of timers) clearTimeout(timer);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

function noteControl(entry: RunRecord, method: string, path: string, status: number, body: Buffer): void {
  entry.control.push({ method, path, status });
  if (method !== 'POST' || status !== 201) return;
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
  } catch {
    return;
  }
  const ws = /^\/workspaces\/([^/]+)/.exec(path)?.[1];
  if (path === '/workspaces' && typeof json.workspace_id === 'string') entry.workspaces.add(json.workspace_id);
  else if (ws && path.endsWith('/tokens') && typeof json.token === 'string') {
    entry.tokens.set(String(json.token_id), { workspaceId: ws, tokenId: String(json.token_id), secret: json.token });
    entry.secrets.add(json.token);
  } else if (ws && path.endsWith('/webhook-endpoints') && typeof json.secret === 'string') {
    entry.endpoints.set(String(json.endpoint_id), {
      workspaceId: ws,
      endpointId: String(json.endpoint_id),
      secret: json.secret,
    });
    entry.secrets.add(json.secret);
  }
}

/**
 * A TLS-level fault for the public API: the first connection (the run's probe) is served
 * over TLS and forwarded to `upstreamOrigin`; every later connection gets a TLS alert
 * instead of a ServerHello. The certificate must be trusted by the run (NODE_EXTRA_CA_CERTS).
 */
export async function startTlsFaultServer(
  upstreamOrigin: string,
  pem: { cert: string; key: string },
): Promise<{ origin: string; close(): Promise<void> }> {
  const upstream = new URL(upstreamOrigin);
  const sockets = new Set<Socket>();
  const tls: TlsServer = createTlsServer({ cert: pem.cert, key: pem.key }, (clear) => {
    clear.on('error', () => undefined);
    const plain = netConnect(Number(upstream.port), upstream.hostname);
    plain.on('error', () => clear.destroy());
    clear.pipe(plain).pipe(clear);
  });
  tls.on('tlsClientError', () => undefined);
  let connections = 0;
  const front: NetServer = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('close', () => sockets.delete(socket));
    connections += 1;
    if (connections === 1) return void tls.emit('connection', socket);
    // A fatal TLS alert (handshake_failure), then the connection ends.
    socket.end(Buffer.from([0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x28]));
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  return {
    origin: `https://127.0.0.1:${(front.address() as AddressInfo).port}`,
    async close() {
      const closed = new Promise<void>((resolve) => front.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
