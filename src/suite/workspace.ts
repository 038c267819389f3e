/**
 * A workspace created for one check through the control interface, with everything
 * created in it remembered so the check can remove it when it ends, pass or fail.
 */
import type { ControlAdapter } from '../control/adapter.js';
import { joinLane } from '../http/lanes.js';
import { mapLimit } from '../async/map-limit.js';
import type { CallProgress, CreatedEndpoint, CreatedToken, EventType, WorkspaceOptions } from '../control/types.js';
import { ControlError } from '../errors.js';

/** Removals of one kind sent at once, per workspace and per check. */
export const REMOVALS_AT_ONCE = 8;

/**
 * A control call the target may refuse where the contract leaves it open (any 4xx): `done`
 * (or the word given), else `refused <status>`; any other error is thrown on.
 */
export async function doneOrRefused(call: () => Promise<unknown>, done = 'done'): Promise<string> {
  try {
    await call();
    return done;
  } catch (error) {
    if (!(error instanceof ControlError) || !error.refused) throw error;
    return `refused ${error.status}`;
  }
}

export class TestWorkspace {
  private readonly tokens = new Map<string, CreatedToken>();
  private readonly endpoints = new Set<string>();

  constructor(
    private readonly control: ControlAdapter,
    readonly id: string,
    readonly agentIds: string[],
    readonly options: WorkspaceOptions,
  ) {}

  static async create(control: ControlAdapter, options: WorkspaceOptions = {}): Promise<TestWorkspace> {
    const created = await control.createWorkspace(options);
    return new TestWorkspace(control, created.workspaceId, created.agentIds, options);
  }

  /** The first agent of the workspace; the contract promises at least one. */
  get agentId(): string {
    const agent = this.agentIds[0];
    if (!agent)
      throw new ControlError(
        `control POST /workspaces: workspace ${this.id} was created without an agt_ id in its answer (the contract promises at least one)`,
        201,
        undefined,
      );
    return agent;
  }

  async createToken(label: string, scopes?: readonly string[]): Promise<CreatedToken> {
    const token = await this.control.createToken(this.id, label, scopes);
    this.tokens.set(token.tokenId, token);
    // A target's rate limit is commonly per workspace: its tokens are paced together.
    joinLane(token.token, this.id);
    return token;
  }

  async revokeToken(token: CreatedToken): Promise<void> {
    await this.control.revokeToken(this.id, token.tokenId);
    this.tokens.delete(token.tokenId);
  }

  suspend(): Promise<void> {
    return this.control.suspend(this.id);
  }

  reinstate(): Promise<void> {
    return this.control.reinstate(this.id);
  }

  async createEndpoint(url: string, events: readonly string[] = ['*']): Promise<CreatedEndpoint> {
    const endpoint = await this.control.createEndpoint(this.id, url, events);
    this.endpoints.add(endpoint.endpointId);
    return endpoint;
  }

  async deleteEndpoint(endpointId: string): Promise<void> {
    await this.control.deleteEndpoint(this.id, endpointId);
    this.endpoints.delete(endpointId);
  }

  getEndpoint(endpointId: string) {
    return this.control.getEndpoint(this.id, endpointId);
  }

  enableEndpoint(endpointId: string): Promise<void> {
    return this.control.enableEndpoint(this.id, endpointId);
  }

  setIdentityProvider(provider: { issuer: string; jwksUri: string; audience: string }): Promise<void> {
    return this.control.setIdentityProvider(this.id, provider);
  }

  addMember(subject: string, scopes: readonly string[]): Promise<string> {
    return this.control.addMember(this.id, subject, scopes);
  }

  fireEvent(type: EventType | string, data: Record<string, unknown> = {}): Promise<string> {
    return this.control.fireEvent(this.id, type, data);
  }

  /** Fires an event with a body of its type alone: the contract shows `data` but does not say it is required. */
  fireEventWithoutData(type: EventType | string): Promise<string> {
    return this.control.fireEvent(this.id, type, undefined);
  }

  replay(eventId: string, endpointId: string): Promise<void> {
    return this.control.replay(this.id, eventId, endpointId);
  }

  progressCall(callId: string, progress: CallProgress): Promise<void> {
    return this.control.progressCall(this.id, callId, progress);
  }

  /**
   * Removes endpoints, then tokens, then the workspace; every step is attempted. The removals
   * of one kind go out together: across a network, one after another costs a round trip each.
   */
  async dispose(): Promise<void> {
    const attempt = (remove: () => Promise<unknown>) => remove().catch(() => undefined);
    await mapLimit([...this.endpoints], REMOVALS_AT_ONCE, (endpointId) =>
      attempt(() => this.control.deleteEndpoint(this.id, endpointId)),
    );
    await mapLimit([...this.tokens.keys()], REMOVALS_AT_ONCE, (tokenId) =>
      attempt(() => this.control.revokeToken(this.id, tokenId)),
    );
    await attempt(() => this.control.deleteWorkspace(this.id));
    this.endpoints.clear();
    this.tokens.clear();
  }
}
