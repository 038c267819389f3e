import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { App } from '../app.js';
import type { AuthOutcome, Principal } from '../auth/authenticate.js';
import { suspensionLeftOnTokens, suspensionStampedTokens } from '../auth/tokens.js';
import { transcriptText } from '../calls/lifecycle.js';
import type { FaultName, FaultSet } from '../faults.js';
import type { Agent, Scope } from '../store.js';
import { racySequenceId } from '../racy-sequence.js';
import { isPlainObject, readJsonBody, type BodyOutcome } from './body.js';
import { sendEmpty, sendJson, sendPublicError, type RequestContext } from './respond.js';

// The public API under /v1. Every operation runs the same gate in the spec's order:
// authentication → suspended workspace → scope → the operation's own validation.

/** Fault body-parsed-before-auth: the bodies a parser ahead of the authentication has read. */
const preReadBodies = new WeakMap<IncomingMessage, BodyOutcome>();
/** Fault session-keepalive-suspension-stale: the connection-memory key of a session token served while its workspace was active. */
const SESSION_ACTIVE_KEY = 'session-workspace-active ';
const FIRST_WORKSPACE_KEY = 'first-workspace';
/** Fault scope-cached-per-connection: the connection-memory key of a scope check passed. */
const SCOPE_PASSED_KEY = 'scope-passed ';

/**
 * Fault connection-first-workspace: the tenant is resolved once per connection, as a context
 * cached on the socket: every later credential on it is checked, then served in the first's workspace.
 */
function connectionWorkspace(principal: Principal, ctx: RequestContext): Principal {
  if (!principal.faults.has('connection-first-workspace') || !ctx.connectionMemory) return principal;
  const first = ctx.connectionMemory.get(FIRST_WORKSPACE_KEY) as Principal['workspace'] | undefined;
  if (!first) ctx.connectionMemory.set(FIRST_WORKSPACE_KEY, principal.workspace);
  return first ? { ...principal, workspace: first } : principal;
}
/** Fault transcript-gone-after-completion: how long a finished call's transcript is still served. */
const FINISHED_TRANSCRIPT_KEPT_MS = 5_000;

const E164 = /^\+[1-9]\d{6,14}$/;
/** Fault to-15-digits-refused: the pattern a digit short of E.164's 15. */
const E164_TO_14_DIGITS = /^\+[1-9]\d{6,13}$/;
const AGENT_ID = /^agt_[A-Za-z0-9]+$/;

interface Operation {
  /** Scope required, and the fault that skips the check. */
  scope: { name: Scope; uncheckedBy: FaultName } | null;
  run(
    app: App,
    req: IncomingMessage,
    res: ServerResponse,
    ctx: RequestContext,
    principal: Principal,
    params: string[],
  ): Promise<void> | void;
}

type RouteMatch =
  | { kind: 'found'; operation: Operation; params: string[] }
  | { kind: 'not_found' }
  | { kind: 'method_not_allowed'; allow: string };

const whoami: Operation = {
  scope: null,
  run(_app, _req, res, _ctx, principal) {
    if (principal.faults.has('whoami-204')) return sendEmpty(res, 204);
    sendJson(res, 200, {
      workspace_id: principal.workspace.id,
      credential: principal.scheme,
      credential_id: principal.credentialId,
      scopes: principal.scopes,
    });
  },
};

const listAgents: Operation = {
  scope: { name: 'voice:read', uncheckedBy: 'scope-agents-unchecked' },
  run(app, _req, res, _ctx, principal) {
    let agents = principal.faults.has('agents-list-empty') ? [] : [...principal.workspace.agents.values()];
    // Fault agents-list-all-workspaces: the agent table is read without the workspace filter.
    if (principal.faults.has('agents-list-all-workspaces')) agents = [...app.store.agentsById.values()];
    const data = agents.map((a) => ({ id: a.id, name: a.name }));
    sendJson(res, 200, { data });
  },
};

const placeCall: Operation = {
  scope: { name: 'voice:write', uncheckedBy: 'scope-calls-unchecked' },
  async run(app, req, res, ctx, principal) {
    const faults = principal.faults;
    const { personality } = app;
    const body =
      preReadBodies.get(req) ?? (await readJsonBody(req, personality.maxBodyBytes, personality.lenientContentType));
    if (!body.ok) {
      if (body.code === 'malformed_json' && faults.has('malformed-json-500')) {
        return sendPublicError(res, ctx, faults, 500, 'internal_error', 'unexpected error');
      }
      if (body.code === 'malformed_json' && faults.has('malformed-json-accepted'))
        return sendJson(res, 201, { status: 'queued' });
      return sendPublicError(
        res,
        ctx,
        faults,
        body.status,
        body.code,
        body.message,
        body.status === 413 ? { Connection: 'close' } : undefined,
      );
    }
    if (!isPlainObject(body.value)) {
      return sendPublicError(res, ctx, faults, 400, 'invalid_body', 'the body must be a JSON object');
    }
    const { agent_id: agentId, to, metadata } = body.value;
    const workspace = principal.workspace;
    let agent: Agent | undefined;
    if (faults.has('invalid-call-accepted')) {
      // Fault: whatever arrives is dialled, with the workspace's first agent if need be.
      agent =
        (typeof agentId === 'string' ? workspace.agents.get(agentId) : undefined) ??
        workspace.agents.values().next().value;
      if (!agent) return sendPublicError(res, ctx, faults, 404, 'agent_not_found', 'no agents');
      const call = app.calls.place(
        workspace,
        agent,
        typeof to === 'string' ? to : String(to),
        isPlainObject(metadata) ? metadata : {},
      );
      return sendJson(res, 201, { call_id: call.id, status: call.state, agent_id: call.agentId, to: call.to });
    }
    if (typeof agentId !== 'string' || !AGENT_ID.test(agentId)) {
      return sendPublicError(res, ctx, faults, 422, 'validation_failed', 'agent_id must be a string agt_<id>');
    }
    const e164 = faults.has('to-15-digits-refused') ? E164_TO_14_DIGITS : E164;
    if (typeof to !== 'string' || !e164.test(to)) {
      return sendPublicError(
        res,
        ctx,
        faults,
        422,
        'validation_failed',
        'to must be a phone number in E.164 form, e.g. +14155550100',
      );
    }
    if (metadata !== undefined && !isPlainObject(metadata)) {
      return sendPublicError(res, ctx, faults, 422, 'validation_failed', 'metadata must be a JSON object');
    }
    if (
      metadata !== undefined &&
      personality.metadataStringValuesOnly &&
      !Object.values(metadata).every((v) => typeof v === 'string')
    ) {
      return sendPublicError(res, ctx, faults, 422, 'validation_failed', 'metadata values must be strings');
    }
    agent = workspace.agents.get(agentId);
    // Fault second-agent-unusable: the agent index was built from the workspace's first agent only.
    if (agent && faults.has('second-agent-unusable') && agent !== workspace.agents.values().next().value)
      agent = undefined;
    if (!agent && faults.has('tenant-agent-leak')) agent = app.store.agentsById.get(agentId);
    // Fault agent-id-normalised: the lookup trims and folds case, as a case-insensitive database column would.
    if (!agent && faults.has('agent-id-normalised'))
      agent = [...workspace.agents.values()].find((a) => a.id.toLowerCase() === agentId.trim().toLowerCase());
    if (!agent) return sendPublicError(res, ctx, faults, 404, 'agent_not_found', 'no such agent in this workspace');
    const id = faults.has('call-id-sequence-race') ? await racySequenceId(workspace, 'call_') : undefined;
    // Fault session-call-metadata-dropped: the session route's body schema lists agent_id and to only.
    const sessionDropped = principal.scheme === 'session_token' && faults.has('session-call-metadata-dropped');
    const call = app.calls.place(workspace, agent, to, sessionDropped ? {} : (metadata ?? {}), id);
    if (faults.has('call-id-missing'))
      return sendJson(res, 202, { status: call.state, agent_id: call.agentId, to: call.to });
    sendJson(res, 201, {
      call_id: call.id,
      status: call.state,
      agent_id: call.agentId,
      to: call.to,
      metadata: call.metadata,
    });
  },
};

const getTranscript: Operation = {
  scope: { name: 'voice:read', uncheckedBy: 'scope-transcript-unchecked' },
  run(app, _req, res, ctx, principal, params) {
    const callId = params[0]!;
    let call = principal.workspace.calls.get(callId);
    if (!call && principal.faults.has('tenant-transcript-leak')) call = app.store.callInAnyWorkspace(callId);
    if (!call && principal.faults.has('tenant-transcript-redirect') && app.store.callInAnyWorkspace(callId)) {
      return sendEmpty(res, 302, { Location: `/v1/voice/calls/${callId}/transcript?owner=other` });
    }
    // Fault transcript-gone-after-completion: finished calls leave the live table the transcript route reads.
    if (
      call?.finishedAt !== undefined &&
      principal.faults.has('transcript-gone-after-completion') &&
      app.config.clock.now() - call.finishedAt > FINISHED_TRANSCRIPT_KEPT_MS
    )
      call = undefined;
    if (!call)
      return sendPublicError(res, ctx, principal.faults, 404, 'call_not_found', 'no such call in this workspace');
    if (principal.faults.has('transcript-always-403'))
      return sendPublicError(res, ctx, principal.faults, 403, 'forbidden', 'transcripts are not available');
    sendJson(res, 200, { call_id: call.id, status: call.state, transcript: transcriptText(call) });
  },
};

const TRANSCRIPT_PATH = /^\/v1\/voice\/calls\/([^/]+)\/transcript$/;

function route(method: string, path: string, transcriptMethod: 'GET' | 'POST'): RouteMatch {
  const only = (allowed: string, operation: Operation, params: string[] = []): RouteMatch => {
    if (method === allowed || (allowed === 'GET' && method === 'HEAD')) return { kind: 'found', operation, params };
    return { kind: 'method_not_allowed', allow: allowed === 'GET' ? 'GET, HEAD' : allowed };
  };
  switch (path) {
    case '/v1/voice/calls':
      return only('POST', placeCall);
    case '/v1/whoami':
      return only('GET', whoami);
    case '/v1/voice/agents':
      return only('GET', listAgents);
  }
  const transcript = TRANSCRIPT_PATH.exec(path);
  if (transcript) return only(transcriptMethod, getTranscript, [transcript[1]!]);
  return { kind: 'not_found' };
}

/** Whether `scopes` grant `scope` (fault scope-write-implies-read: an area's :write grants its :read). */
function holdsScope(scopes: readonly Scope[], scope: Scope, faults: FaultSet): boolean {
  if (scopes.includes(scope)) return true;
  // Fault scope-verb-any-area: only the part after the colon is compared.
  if (faults.has('scope-verb-any-area') && scopes.some((held) => held.split(':')[1] === scope.split(':')[1]))
    return true;
  return (
    faults.has('scope-write-implies-read') &&
    scope.endsWith(':read') &&
    scopes.includes(scope.replace(/:read$/, ':write') as Scope)
  );
}

/** Fault suspension-cached-per-credential: until when each credential's workspace is taken for active. */
const credentialSeenActive = new Map<string, number>();
const CREDENTIAL_STATUS_CACHE_MS = 90_000;
const CREDENTIAL_STATUS_CACHE_SIZE = 10_000;

/** Counts Authorization headers (node keeps only the first one in req.headers). */
function authorizationHeaderCount(req: IncomingMessage): number {
  const raw = req.rawHeaders;
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 13 && name.toLowerCase() === 'authorization') count++;
  }
  return count;
}

export async function handlePublicRequest(
  app: App,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  ctx: RequestContext,
): Promise<void> {
  const match = route(req.method ?? 'GET', path, app.personality.transcriptMethod);
  if (match.kind === 'not_found') {
    if (ctx.faults.has('unknown-path-200')) return sendJson(res, 200, {});
    return sendPublicError(res, ctx, ctx.faults, 404, 'not_found', 'no such path');
  }
  if (match.kind === 'method_not_allowed') {
    return sendPublicError(res, ctx, ctx.faults, 405, 'method_not_allowed', 'method not allowed here', {
      Allow: match.allow,
    });
  }
  // Fault body-parsed-before-auth: a JSON body parser mounted ahead of the authentication.
  if (ctx.faults.has('body-parsed-before-auth') && match.operation === placeCall) {
    const body = await readJsonBody(req, app.personality.maxBodyBytes, app.personality.lenientContentType);
    if (!body.ok)
      return sendPublicError(
        res,
        ctx,
        ctx.faults,
        body.status,
        body.code,
        body.message,
        body.status === 413 ? { Connection: 'close' } : undefined,
      );
    preReadBodies.set(req, body);
  }
  if (req.headers.authorization === undefined && ctx.faults.has('no-credential-empty-401')) {
    return sendEmpty(res, 401, { 'WWW-Authenticate': 'Bearer', 'Content-Length': '0' });
  }
  const remembered =
    req.headers.authorization === undefined || !ctx.connectionMemory?.size
      ? undefined
      : (ctx.connectionMemory?.get(req.headers.authorization) as AuthOutcome | undefined);
  const pending =
    remembered ??
    app.auth.authenticate(
      req.headers.authorization,
      authorizationHeaderCount(req),
      ctx.node,
      ctx.faults,
      match.operation === whoami,
    );
  const auth = pending instanceof Promise ? await pending : pending;
  // Fault revocation-keepalive-stale: the connection remembers a credential it accepted, for its whole life.
  if (auth.ok && remembered === undefined && auth.principal.faults.has('revocation-keepalive-stale'))
    ctx.connectionMemory?.set(req.headers.authorization!, auth);
  if (!auth.ok) {
    const { failure } = auth;
    if (failure.crash) return sendPublicError(res, ctx, failure.faults, 500, 'internal_error', 'unexpected error');
    const status = failure.status ?? (failure.faults.has('bad-token-403') ? 403 : 401);
    return sendPublicError(
      res,
      // Fault session-error-request-id-uuid: the session middleware writes its own error body, with its own id.
      failure.session ? { ...ctx, requestId: randomUUID() } : ctx,
      failure.faults,
      status,
      failure.code,
      failure.message,
      status === 401 ? { 'WWW-Authenticate': 'Bearer' } : undefined,
    );
  }
  const principal = connectionWorkspace(auth.principal, ctx);
  const faults: FaultSet = principal.faults;
  const { operation } = match;
  // Fault scopeless-credential-invalid: the principal loader reads an empty scope list as no principal at all.
  if (principal.scopes.length === 0 && faults.has('scopeless-credential-invalid'))
    return sendPublicError(res, ctx, faults, 401, 'invalid_token', 'not a valid API token', {
      'WWW-Authenticate': 'Bearer',
    });
  // Fault suspension-cached-per-credential: the workspace status a credential was last served with, remembered 90 s.
  const statusCached = faults.has('suspension-cached-per-credential');
  const seenActiveUntil = statusCached ? credentialSeenActive.get(req.headers.authorization ?? '') : undefined;
  // Fault session-transcript-refused: the transcript route's guard knows bearer tokens only.
  if (operation === getTranscript && principal.scheme === 'session_token' && faults.has('session-transcript-refused'))
    return sendPublicError(res, ctx, faults, 401, 'invalid_token', 'not a valid API token', {
      'WWW-Authenticate': 'Bearer',
    });
  // Fault session-post-refused: the write routes' guard knows bearer tokens only.
  if (operation === placeCall && principal.scheme === 'session_token' && faults.has('session-post-refused'))
    return sendPublicError(res, ctx, faults, 401, 'invalid_token', 'not a valid API token', {
      'WWW-Authenticate': 'Bearer',
    });
  // Fault session-keepalive-suspension-stale: the connection remembers the workspace status it saw with this JWT.
  const staleSession = principal.scheme === 'session_token' && faults.has('session-keepalive-suspension-stale');
  const gateSkipped =
    faults.has('suspension-ignored') ||
    // Fault suspended-whoami-served: whoami, taken for a health check, skips the suspension gate.
    (operation === whoami && faults.has('suspended-whoami-served')) ||
    (operation === getTranscript && faults.has('suspended-transcript-served')) ||
    // Fault suspended-call-placed: the call route's gate list forgot the suspension check.
    (operation === placeCall && faults.has('suspended-call-placed')) ||
    // Fault suspended-agents-listed: the agents route's gate list forgot the suspension check.
    (operation === listAgents && faults.has('suspended-agents-listed')) ||
    (principal.scheme === 'session_token' && faults.has('session-suspension-ignored')) ||
    // Fault suspension-stamped-on-tokens: a token created after the suspension carries none.
    (principal.scheme === 'bearer_token' &&
      faults.has('suspension-stamped-on-tokens') &&
      !suspensionStampedTokens.get(principal.workspace)?.has(principal.credentialId)) ||
    // Fault suspended-scope-checked-first: the scope guard runs first, so a shortfall is answered before the gate.
    (faults.has('suspended-scope-checked-first') &&
      operation.scope &&
      !holdsScope(principal.scopes, operation.scope.name, faults)) ||
    (staleSession &&
      ctx.connectionMemory?.get(SESSION_ACTIVE_KEY + req.headers.authorization) === principal.workspace.id) ||
    (seenActiveUntil !== undefined && seenActiveUntil > Date.now());
  // Fault reinstate-first-token-only: the token row still carries the suspension a reinstatement left on it.
  const suspensionLeft =
    principal.scheme === 'bearer_token' &&
    faults.has('reinstate-first-token-only') &&
    suspensionLeftOnTokens.get(principal.workspace)?.has(principal.credentialId) === true;
  if ((principal.workspace.suspended || suspensionLeft) && !gateSkipped) {
    // Fault workspace-disabled-flat-error: the suspension gate writes its own, flat error body.
    if (faults.has('workspace-disabled-flat-error'))
      return sendJson(res, app.personality.workspaceDisabledStatus, {
        error: 'workspace_disabled',
        message: 'the workspace is suspended',
      });
    return sendPublicError(
      res,
      ctx,
      faults,
      app.personality.workspaceDisabledStatus,
      'workspace_disabled',
      'the workspace is suspended',
    );
  }
  if (
    statusCached &&
    !principal.workspace.suspended &&
    !(seenActiveUntil !== undefined && seenActiveUntil > Date.now())
  ) {
    if (credentialSeenActive.size >= CREDENTIAL_STATUS_CACHE_SIZE) credentialSeenActive.clear();
    credentialSeenActive.set(req.headers.authorization ?? '', Date.now() + CREDENTIAL_STATUS_CACHE_MS);
  }
  if (staleSession && !principal.workspace.suspended)
    ctx.connectionMemory?.set(SESSION_ACTIVE_KEY + req.headers.authorization, principal.workspace.id);
  let scope = operation.scope?.name;
  if (operation === whoami && faults.has('whoami-needs-scope')) scope = 'voice:read';
  // Fault transcript-needs-write: the transcript guard names the write scope.
  if (operation === getTranscript && faults.has('transcript-needs-write')) scope = 'voice:write';
  // Fault scope-cached-per-connection: the connection remembers the operations whose scope check passed.
  const scopeKey = SCOPE_PASSED_KEY + (scope ?? '');
  const scopeRemembered =
    scope !== undefined &&
    faults.has('scope-cached-per-connection') &&
    ctx.connectionMemory?.get(scopeKey) === principal.workspace.id;
  if (
    scope &&
    !scopeRemembered &&
    !holdsScope(principal.scopes, scope, faults) &&
    !(operation.scope && faults.has(operation.scope.uncheckedBy))
  ) {
    // Fault session-missing-scope-invalid-token: the session guard refuses any shortfall as an invalid credential.
    if (principal.scheme === 'session_token' && faults.has('session-missing-scope-invalid-token'))
      return sendPublicError(res, ctx, faults, 401, 'invalid_token', 'the session token is not valid here', {
        'WWW-Authenticate': 'Bearer',
      });
    const status = app.personality.missingScopeStatus;
    // A 401 names its scheme (RFC 9110); RFC 6750's error for this case is insufficient_scope.
    const headers =
      status === 401 ? { 'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${scope}"` } : undefined;
    return sendPublicError(
      res,
      ctx,
      faults,
      status,
      // Fault missing-scope-code-insufficient: the OAuth library's error name (RFC 6750) passed through.
      faults.has('missing-scope-code-insufficient') ? 'insufficient_scope' : 'missing_scope',
      `this operation requires the ${scope} scope`,
      headers,
    );
  }
  if (scope !== undefined && faults.has('scope-cached-per-connection'))
    ctx.connectionMemory?.set(scopeKey, principal.workspace.id);
  await operation.run(app, req, res, ctx, principal, match.params);
}
