import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { App } from '../app.js';
import { handleControlRequest } from '../control/router.js';
import { clockAheadMs, parseFaultPrefix } from '../faults.js';
import { handlePublicRequest } from './public-api.js';
import { sendControlError, sendPublicError, setRequestId, type RequestContext } from './respond.js';
import { NO_FAULTS } from '../faults.js';

// One node:http server for the public API (/v1) and the control interface (/_control),
// either behind an optional /faults/<names> prefix. Each new TCP connection is pinned
// to one of the in-process nodes (round-robin); a kept-alive connection stays there.

const CONTROL_PREFIX = '/_control';

export function createReferenceServer(app: App, controlToken: Buffer, log: (line: string) => void): Server {
  const nodeOfSocket = new WeakMap<Socket, number>();
  const server = createServer({ keepAliveTimeout: 5_000, requestTimeout: 30_000, headersTimeout: 20_000 });

  server.on('connection', (socket: Socket) => {
    nodeOfSocket.set(socket, app.nodes.assign());
  });

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const requestId = app.personality.newId('req_');
    setRequestId(res, requestId);
    const ctx: RequestContext = { requestId, faults: NO_FAULTS, faultPrefix: '', node: nodeOfSocket.get(req.socket) ?? 0, personality: app.personality };
    route(app, controlToken, req, res, ctx).catch((error: unknown) => {
      // Never a crash: an unexpected exception is a 500 with the usual error body.
      log(`reference: unexpected error on ${req.method} ${ctx.faultPrefix}…: ${(error as Error)?.stack ?? String(error)}`);
      if (!res.headersSent) sendPublicError(res, ctx, NO_FAULTS, 500, 'internal_error', 'unexpected error');
      else res.destroy();
    });
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
      ? JSON.stringify({ type: `https://reference.invalid/problems/${code}`, title: reason, status, detail: 'the request could not be parsed' })
      : JSON.stringify({ error: { code, message: 'the request could not be parsed', request_id: requestId } });
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\n` +
        `Content-Type: ${problem ? 'application/problem+json' : 'application/json'}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  });

  return server;
}

async function route(app: App, controlToken: Buffer, req: IncomingMessage, res: ServerResponse, ctx: RequestContext): Promise<void> {
  const url = req.url ?? '/';
  const query = url.indexOf('?');
  const fullPath = query === -1 ? url : url.slice(0, query);
  const prefix = parseFaultPrefix(fullPath);
  if (!prefix.ok) return sendPublicError(res, ctx, NO_FAULTS, 404, 'unknown_fault', `no fault named "${prefix.unknown}"`);
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
