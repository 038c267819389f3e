import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { App } from '../app.js';
import { NO_FAULTS, type FaultSet } from '../faults.js';
import { sendControlError, sendEmpty, sendJson, type RequestContext } from '../http/respond.js';
import { progressCall } from './calls.js';
import { addMember, createToken, putIdentityProvider, revokeTokenHandler } from './credentials.js';
import { readControlBody, type ControlHandler } from './reply.js';
import { createEndpoint, deleteEndpoint, enableEndpoint, fireEvent, getEndpoint, replayDelivery } from './webhooks.js';
import { capabilities, createWorkspace, deleteWorkspace, reinstateWorkspace, suspendWorkspace } from './workspaces.js';

// The control interface of contract 1, under /_control: bearer-authenticated with the
// control token, routed by method and path pattern.

interface ControlRoute {
  method: string;
  /** Path segments; `:name` captures one segment. */
  segments: string[];
  handler: ControlHandler;
}

const ROUTES: ControlRoute[] = [
  ['GET', '/capabilities', capabilities],
  ['POST', '/workspaces', createWorkspace],
  ['DELETE', '/workspaces/:ws', deleteWorkspace],
  ['POST', '/workspaces/:ws/suspend', suspendWorkspace],
  ['POST', '/workspaces/:ws/reinstate', reinstateWorkspace],
  ['POST', '/workspaces/:ws/tokens', createToken],
  ['DELETE', '/workspaces/:ws/tokens/:token', revokeTokenHandler],
  ['PUT', '/workspaces/:ws/identity-provider', putIdentityProvider],
  ['POST', '/workspaces/:ws/members', addMember],
  ['POST', '/workspaces/:ws/webhook-endpoints', createEndpoint],
  ['GET', '/workspaces/:ws/webhook-endpoints/:endpoint', getEndpoint],
  ['DELETE', '/workspaces/:ws/webhook-endpoints/:endpoint', deleteEndpoint],
  ['POST', '/workspaces/:ws/webhook-endpoints/:endpoint/enable', enableEndpoint],
  ['POST', '/workspaces/:ws/events', fireEvent],
  ['POST', '/workspaces/:ws/deliveries/replay', replayDelivery],
  ['POST', '/workspaces/:ws/calls/:call/progress', progressCall],
].map(([method, path, handler]) => ({
  method: method as string,
  segments: (path as string).split('/').slice(1),
  handler: handler as ControlHandler,
}));

type Match =
  | { kind: 'found'; handler: ControlHandler; params: Record<string, string> }
  | { kind: 'not_found' }
  | { kind: 'method_not_allowed'; allow: string };

function match(method: string, path: string): Match {
  const segments = path.split('/').slice(1);
  const allowed: string[] = [];
  for (const route of ROUTES) {
    if (route.segments.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const fits = route.segments.every((pattern, i) => {
      const segment = segments[i]!;
      if (pattern.startsWith(':')) {
        params[pattern.slice(1)] = decodeSegment(segment);
        return segment.length > 0;
      }
      return pattern === segment;
    });
    if (!fits) continue;
    if (route.method === method) return { kind: 'found', handler: route.handler, params };
    allowed.push(route.method);
  }
  return allowed.length > 0 ? { kind: 'method_not_allowed', allow: allowed.join(', ') } : { kind: 'not_found' };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Fault control-token-prefix-compared: how many leading bytes of the control token are compared. */
const COMPARED_CONTROL_TOKEN_BYTES = 16;

export function controlTokenMatches(
  header: string | undefined,
  expected: Buffer,
  faults: FaultSet = NO_FAULTS,
): boolean {
  if (!header?.startsWith('Bearer ')) return false;
  const given = Buffer.from(header.slice(7).trim(), 'utf8');
  if (faults.has('control-token-prefix-compared') && given.length >= COMPARED_CONTROL_TOKEN_BYTES) {
    // Fault: a comparison of a fixed-width prefix, as a truncating column or a strncmp would make it.
    return timingSafeEqual(
      given.subarray(0, COMPARED_CONTROL_TOKEN_BYTES),
      expected.subarray(0, COMPARED_CONTROL_TOKEN_BYTES),
    );
  }
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export async function handleControlRequest(
  app: App,
  controlToken: Buffer,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  ctx: RequestContext,
): Promise<void> {
  // Fault control-progress-unauthenticated: the progress route answers before the token is looked at.
  const mountedBeforeAuth =
    ctx.faults.has('control-progress-unauthenticated') && /\/calls\/[^/]+\/progress$/.test(path);
  if (!mountedBeforeAuth && !controlTokenMatches(req.headers.authorization, controlToken, ctx.faults)) {
    return sendControlError(
      res,
      401,
      'unauthorized',
      'the control interface needs Authorization: Bearer <control token>',
      { 'WWW-Authenticate': 'Bearer' },
    );
  }
  const found = match(req.method ?? 'GET', path === '' ? '/' : path);
  if (found.kind === 'not_found') return sendControlError(res, 404, 'not_found', 'no such control path');
  if (found.kind === 'method_not_allowed')
    return sendControlError(res, 405, 'method_not_allowed', 'method not allowed here', { Allow: found.allow });
  let body: unknown = {};
  if (req.method === 'POST' || req.method === 'PUT') {
    const read = await readControlBody(req);
    if (!read.ok) return sendJson(res, read.reply.status, read.reply.body);
    body = read.value;
  }
  const reply = await found.handler({
    app,
    params: found.params,
    body,
    faults: ctx.faults,
    faultPrefix: ctx.faultPrefix,
  });
  if (reply.body === undefined) sendEmpty(res, reply.status);
  else sendJson(res, reply.status, reply.body);
}
