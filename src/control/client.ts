/**
 * Client of the control interface (../shared/contracts/control-interface.md).
 *
 * Depends on nothing beyond the contract: success is any 2xx, "refused" is any 4xx,
 * error codes are information only. Every resource it creates is reported to the
 * `onCreated` hook first, so that the run can remove it even if it is interrupted, and
 * every secret it receives is registered for masking before anything can print it.
 */
import { HttpClient, type HttpResponse } from '../http/client.js';
import type { NetworkOptions } from '../http/dispatcher.js';
import { registerSecret } from '../secrets/mask.js';
import { findAllIds, findFirstId, ID_PATTERNS } from '../ids.js';
import { ControlError } from '../errors.js';
import type { ControlAdapter } from './adapter.js';
import type {
  CallProgress,
  Capabilities,
  CreatedEndpoint,
  CreatedToken,
  CreatedWorkspace,
  EndpointStatus,
  EventType,
  Resource,
  WorkspaceOptions,
} from './types.js';

export interface ControlClientOptions {
  timeoutMs?: number;
  /** Proxy, certificate authorities and client certificate (SVC_CA_CERT, SVC_CLIENT_CERT/KEY). */
  network?: NetworkOptions;
  onCreated?: (resource: Resource) => void;
  onRemoved?: (resource: Resource) => void;
  /** Called before a creating request is sent; what it returns is called once its outcome is recorded. */
  onCreating?: () => () => void;
}

let refusing = false;

/**
 * From now on this process creates nothing more on the target (workspaces, tokens,
 * endpoints): called when the run is stopping, so that everything created is in the
 * ledger before the runner removes what the ledger lists.
 */
export function refuseNewResources(): void {
  refusing = true;
}

/** Whether refuseNewResources() was called: the run is stopping. */
export function refusesNewResources(): boolean {
  return refusing;
}

/** The control request that removes `resource`: what the clean-up sends, and what a report names for a leftover. */
export function removalPath(resource: Resource): string {
  if (resource.kind === 'workspace') return `/workspaces/${resource.workspaceId}`;
  if (resource.kind === 'token')
    return `/workspaces/${resource.workspaceId}/tokens/${encodeURIComponent(resource.tokenId)}`;
  return `/workspaces/${resource.workspaceId}/webhook-endpoints/${encodeURIComponent(resource.endpointId)}`;
}

/** The control interface over HTTP: the ControlAdapter of SVC_CONTROL_URL and SVC_CONTROL_TOKEN. */
export class ControlClient implements ControlAdapter {
  private readonly http: HttpClient;

  constructor(
    readonly controlUrl: string,
    private readonly controlToken: string,
    private readonly options: ControlClientOptions = {},
  ) {
    registerSecret(controlToken);
    // The contract sets no rate limit on the control interface: a 429 from it is still waited out, never paced for.
    this.http = new HttpClient(controlUrl, {
      ...options.network,
      timeoutMs: options.timeoutMs ?? 15_000,
      paced: false,
      secretPlaceholder: '$SVC_CONTROL_TOKEN',
      lastRateLimitIsAnswer: true,
    });
  }

  async capabilities(): Promise<Capabilities> {
    const body = await this.call('GET', '/capabilities');
    return body as Capabilities;
  }

  /** A creating request: refused once the run is stopping, and marked under way until its resource is recorded. */
  private async creating<T>(what: string, create: () => Promise<T>): Promise<T> {
    if (refusing) throw new ControlError(`not creating ${what}: the run is stopping`, undefined, undefined);
    const settled = this.options.onCreating?.();
    try {
      return await create();
    } finally {
      settled?.();
    }
  }

  createWorkspace(options: WorkspaceOptions = {}): Promise<CreatedWorkspace> {
    return this.creating('a workspace', () => this.postWorkspace(options));
  }

  private async postWorkspace(options: WorkspaceOptions): Promise<CreatedWorkspace> {
    const body: Record<string, unknown> = {};
    if (options.licensedScopes) body.licensed_scopes = options.licensedScopes;
    if (options.timeScale !== undefined) body.time_scale = options.timeScale;
    if (options.callProgress) body.call_progress = options.callProgress;
    const json = (await this.call('POST', '/workspaces', body)) as { workspace_id?: unknown; agent_ids?: unknown };
    const workspaceId =
      typeof json.workspace_id === 'string' ? json.workspace_id : findFirstId(json, ID_PATTERNS.workspace);
    if (!workspaceId) throw new ControlError('POST /workspaces answered without a ws_ id', undefined, undefined);
    this.options.onCreated?.({ kind: 'workspace', workspaceId });
    const agentIds = findAllIds(json.agent_ids ?? json, ID_PATTERNS.agent);
    return { workspaceId, agentIds };
  }

  /** Whether the workspace was deleted: optional for an implementation, 404 and 405 mean "not supported", not a failure. */
  async deleteWorkspace(workspaceId: string): Promise<boolean> {
    let deleted = true;
    try {
      await this.call('DELETE', removalPath({ kind: 'workspace', workspaceId }));
    } catch (error) {
      if (!(error instanceof ControlError && (error.status === 404 || error.status === 405))) throw error;
      deleted = false;
    }
    this.options.onRemoved?.({ kind: 'workspace', workspaceId });
    return deleted;
  }

  async suspend(workspaceId: string): Promise<void> {
    await this.call('POST', `/workspaces/${workspaceId}/suspend`);
  }

  async reinstate(workspaceId: string): Promise<void> {
    await this.call('POST', `/workspaces/${workspaceId}/reinstate`);
  }

  createToken(workspaceId: string, label: string, scopes?: readonly string[]): Promise<CreatedToken> {
    return this.creating('a token', () => this.postToken(workspaceId, label, scopes));
  }

  private async postToken(workspaceId: string, label: string, scopes?: readonly string[]): Promise<CreatedToken> {
    const json = (await this.call(
      'POST',
      `/workspaces/${workspaceId}/tokens`,
      scopes ? { label, scopes } : { label },
    )) as Record<string, unknown>;
    const token = String(json.token ?? '');
    registerSecret(token);
    const tokenId = String(json.token_id ?? '');
    if (!token || !tokenId)
      throw new ControlError('POST /tokens answered without token and token_id', undefined, undefined);
    this.options.onCreated?.({ kind: 'token', workspaceId, tokenId });
    return {
      tokenId,
      token,
      ...(typeof json.label === 'string' ? { label: json.label } : {}),
      scopes: Array.isArray(json.scopes) ? json.scopes.map(String) : [],
    };
  }

  async revokeToken(workspaceId: string, tokenId: string): Promise<void> {
    await this.call('DELETE', removalPath({ kind: 'token', workspaceId, tokenId }));
    this.options.onRemoved?.({ kind: 'token', workspaceId, tokenId });
  }

  async setIdentityProvider(
    workspaceId: string,
    provider: { issuer: string; jwksUri: string; audience: string },
  ): Promise<void> {
    await this.call('PUT', `/workspaces/${workspaceId}/identity-provider`, {
      issuer: provider.issuer,
      jwks_uri: provider.jwksUri,
      audience: provider.audience,
    });
  }

  async addMember(workspaceId: string, subject: string, scopes: readonly string[]): Promise<string> {
    const json = (await this.call('POST', `/workspaces/${workspaceId}/members`, { subject, scopes })) as Record<
      string,
      unknown
    >;
    return String(json.member_id ?? '');
  }

  createEndpoint(workspaceId: string, url: string, events: readonly string[] = ['*']): Promise<CreatedEndpoint> {
    return this.creating('an endpoint', () => this.postEndpoint(workspaceId, url, events));
  }

  private async postEndpoint(workspaceId: string, url: string, events: readonly string[]): Promise<CreatedEndpoint> {
    const json = (await this.call('POST', `/workspaces/${workspaceId}/webhook-endpoints`, { url, events })) as Record<
      string,
      unknown
    >;
    const secret = String(json.secret ?? '');
    registerSecret(secret);
    const endpointId = String(json.endpoint_id ?? '');
    if (!endpointId || !secret)
      throw new ControlError('POST /webhook-endpoints answered without endpoint_id and secret', undefined, undefined);
    this.options.onCreated?.({ kind: 'endpoint', workspaceId, endpointId });
    return { endpointId, secret, state: String(json.state ?? '') };
  }

  async getEndpoint(workspaceId: string, endpointId: string): Promise<EndpointStatus> {
    const json = (await this.call(
      'GET',
      `/workspaces/${workspaceId}/webhook-endpoints/${encodeURIComponent(endpointId)}`,
    )) as Record<string, unknown>;
    return {
      endpointId: String(json.endpoint_id ?? endpointId),
      url: String(json.url ?? ''),
      events: Array.isArray(json.events) ? json.events.map(String) : [],
      state: String(json.state ?? ''),
      flagged: json.flagged === true,
    };
  }

  async enableEndpoint(workspaceId: string, endpointId: string): Promise<void> {
    await this.call('POST', `/workspaces/${workspaceId}/webhook-endpoints/${encodeURIComponent(endpointId)}/enable`);
  }

  async deleteEndpoint(workspaceId: string, endpointId: string): Promise<void> {
    await this.call('DELETE', removalPath({ kind: 'endpoint', workspaceId, endpointId }));
    this.options.onRemoved?.({ kind: 'endpoint', workspaceId, endpointId });
  }

  async fireEvent(
    workspaceId: string,
    type: EventType | string,
    data: Record<string, unknown> | undefined,
  ): Promise<string> {
    const json = await this.call(
      'POST',
      `/workspaces/${workspaceId}/events`,
      data === undefined ? { type } : { type, data },
    );
    const eventId = findFirstId(json, ID_PATTERNS.event);
    if (!eventId) throw new ControlError('POST /events answered without an evt_ id', undefined, undefined);
    return eventId;
  }

  async replay(workspaceId: string, eventId: string, endpointId: string): Promise<void> {
    await this.call('POST', `/workspaces/${workspaceId}/deliveries/replay`, {
      event_id: eventId,
      endpoint_id: endpointId,
    });
  }

  async progressCall(workspaceId: string, callId: string, progress: CallProgress): Promise<void> {
    const body =
      progress.state === 'completed'
        ? { state: 'completed', outcome: progress.outcome, duration_seconds: progress.durationSeconds }
        : { state: progress.state };
    await this.call('POST', `/workspaces/${workspaceId}/calls/${encodeURIComponent(callId)}/progress`, body);
  }

  async close(): Promise<void> {
    await this.http.close();
  }

  /** One request; any 2xx is success, anything else a ControlError naming the operation. */
  private async call(method: string, path: string, body?: unknown): Promise<unknown> {
    let res: HttpResponse;
    try {
      res = await this.http.request({
        method,
        path,
        headers: { authorization: `Bearer ${this.controlToken}` },
        ...(body === undefined ? {} : { json: body }),
      });
    } catch (error) {
      // The HTTP client's message starts with the request already.
      const reason = (error as Error).message.replace(`${method} ${path}: `, '');
      throw new ControlError(`control ${method} ${path}: ${reason}`, undefined, undefined);
    }
    if (res.status >= 200 && res.status < 300) return res.json ?? {};
    const code = (res.json as { error?: { code?: unknown } } | undefined)?.error?.code;
    throw new ControlError(
      `control ${method} ${path} answered ${res.status}${typeof code === 'string' ? ` ${code}` : ''}`,
      res.status,
      typeof code === 'string' ? code : undefined,
    );
  }
}
