import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import type { App } from '../app.js';
import { handleControlRequest } from '../control/router.js';
import { clockAheadMs, parseFaultPrefix } from '../faults.js';
import type { ConditionedNetwork } from './conditions.js';
import { handlePublicRequest } from './public-api.js';
import { sendControlError, sendPublicError, setRequestId, type RequestContext } from './respond.js';
import { NO_FAULTS } from '../faults.js';

// One node:http server for the public API (/v1) and the control interface (/_control),
// either behind an optional /faults/<names> prefix. Each new TCP connection is pinned
// to one of the in-process nodes (round-robin); a kept-alive connection stays there.
// Optionally HTTPS (with or without client certificates) and behind network conditions.

const CONTROL_PREFIX = '/_control';

export interface ServerTls {
  cert: string | Buffer;
  key: string | Buffer;
  /** When set, a client must present a certificate issued by this CA; the handshake fails otherwise. */
  clientCa?: string | Buffer;
}

export interface ReferenceServerOptions {
  conditions?: ConditionedNetwork;
  tls?: ServerTls;
}

export function createReferenceServer(
  app: App,
  controlToken: Buffer,
  log: (line: string) => void,
  options: ReferenceServerOptions = {},
): Server {
  const nodeOfSocket = new WeakMap<Socket, number>();
  const memoryOfSocket = new WeakMap<Socket, Map<string, unknown>>();
  const timeouts = { keepAliveTimeout: 5_000, requestTimeout: 30_000, headersTimeout: 20_000 };
  const { tls, conditions } = options;
  const server: Server = tls
    ? createHttpsServer({
        ...timeouts,
        cert: tls.cert,
        key: tls.key,
        ...(tls.clientCa !== undefined ? { ca: tls.clientCa, requestCert: true, rejectUnauthorized: true } : {}),
      })
    : createServer(timeouts);

  // Under TLS a request's socket is the TLS socket, not the TCP one 'connection' sees.
  server.on(tls ? 'secureConnection' : 'connection', (socket: Socket) => {
    nodeOfSocket.set(socket, app.nodes.assign());
    memoryOfSocket.set(socket, new Map());
  });

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const requestId = app.personality.newId('req_');
    setRequestId(res, requestId);
    const ctx: RequestContext = {
      requestId,
      faults: NO_FAULTS,
      faultPrefix: '',
      node: nodeOfSocket.get(req.socket) ?? 0,
      personality: app.personality,
      connectionMemory: memoryOfSocket.get(req.socket),
    };
    const handle = () =>
      route(app, controlToken, req, res, ctx).catch((error: unknown) => {
        // Never a crash: an unexpected exception is a 500 with the usual error body.
        log(
          `reference: unexpected error on ${req.method} ${ctx.faultPrefix}…: ${(error as Error)?.stack ?? String(error)}`,
        );
        if (!res.headersSent) sendPublicError(res, ctx, NO_FAULTS, 500, 'internal_error', 'unexpected error');
        else res.destroy();
      });
    if (conditions) conditions.handle(req, res, ctx, handle);
    else void handle();
  });

  // Requests node's parser refuses (oversized headers, garbage) still get a JSON 4xx.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable) return socket.destroy();
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const requestId = app.personality.newId('req_');
    const code = status === 431 ? 'headers_too_large' : 'bad_request';
    const reason = status === 431 ? 'Request Header Fields Too Large' : 'Bad Request';
    const problem = app.personality.problemDetails;
    const body = problem
      ? JSON.stringify({
          type: `https://reference.invalid/problems/${code}`,
          title: reason,
          status,
          detail: 'the request could not be parsed',
        })
      : JSON.stringify({ error: { code, message: 'the request could not be parsed', request_id: requestId } });
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\n` +
        `Content-Type: ${problem ? 'application/problem+json' : 'application/json'}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  });

  return server;
}

async function route(
  app: App,
  controlToken: Buffer,
  req: IncomingMessage,
  res: ServerResponse,
  ctx: RequestContext,
): Promise<void> {
  const url = req.url ?? '/';
  const query = url.indexOf('?');
  const fullPath = query === -1 ? url : url.slice(0, query);
  const prefix = parseFaultPrefix(fullPath);
  if (!prefix.ok)
    return sendPublicError(res, ctx, NO_FAULTS, 404, 'unknown_fault', `no fault named "${prefix.unknown}"`);
  ctx.faults = prefix.faults;
  ctx.faultPrefix = prefix.prefix;
  const aheadMs = clockAheadMs(ctx.faults);
  if (aheadMs !== 0) res.setHeader('Date', new Date(Date.now() + aheadMs).toUTCString());
  const path = prefix.rest;
  if (path === '/v1' || path.startsWith('/v1/')) return handlePublicRequest(app, req, res, path, ctx);
  if (path === CONTROL_PREFIX || path.startsWith(CONTROL_PREFIX + '/')) {
    return handleControlRequest(app, controlToken, req, res, path.slice(CONTROL_PREFIX.length), ctx);
  }
  if (path === '/' || path === '') return sendControlError(res, 404, 'not_found', 'the API lives under /v1');
  return sendPublicError(res, ctx, ctx.faults, 404, 'not_found', 'no such path');
}
