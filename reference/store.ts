import type { JWTVerifyGetKey } from 'jose';
import type { FaultSet } from './faults.js';
import type { Call } from './calls/call.js';
import type { CallRecords } from './calls/records.js';
import type { Outbound } from './outbound.js';

// The in-memory state of the service: workspaces and what they own. Plain Maps (a
// workspace's calls: two bounded generations of them, calls/records.ts),
// indexed the ways the hot path looks things up (token secret, agent id).

export const ALL_SCOPES = ['voice:read', 'voice:write', 'mailer:read', 'mailer:write', 'webhooks:write'] as const;
export type Scope = (typeof ALL_SCOPES)[number];

export function isScope(value: unknown): value is Scope {
  return typeof value === 'string' && (ALL_SCOPES as readonly string[]).includes(value);
}

export type CallProgressMode = 'auto' | 'manual';

export interface Agent {
  id: string;
  workspaceId: string;
  name: string;
}

export interface BearerToken {
  id: string;
  secret: string;
  workspaceId: string;
  label: string;
  scopes: readonly Scope[];
  revokedAt: number | null;
  /** When the revocation reaches the authoritative store (equals revokedAt unless a fault delays it). */
  revocationEffectiveAt: number | null;
  /** Fault suspended-revoke-keeps-slot: revoked while suspended, it still counts toward the limit. */
  holdsSlot?: boolean;
  /** Fault suspended-create-uncounted: created while suspended, it does not count toward the limit. */
  uncounted?: boolean;
  /** Fault double-revoke-frees-slot: revoked once more after its revocation, it frees another token's slot. */
  revokedAgain?: boolean;
  /** Fault old-token-blip-after-rotation: refused in this window, though active. */
  refusedDuring?: { from: number; until: number };
}

export interface Member {
  id: string;
  subject: string;
  scopes: readonly Scope[];
}

export interface IdentityProvider {
  issuer: string;
  jwksUri: string;
  audience: string;
  keySet: JWTVerifyGetKey;
  /** How its JWKS is fetched (only where the reference may connect: reference/outbound.ts). */
  fetch: Outbound['fetch'];
}

export interface Workspace {
  id: string;
  licensedScopes: readonly Scope[];
  timeScale: number;
  callProgress: CallProgressMode;
  suspended: boolean;
  /** Faults of the control prefix the workspace was created under. */
  faults: FaultSet;
  /** That prefix (`/faults/a,b` or ''), so URLs the workspace hands out stay in its run. */
  faultPrefix: string;
  agents: Map<string, Agent>;
  /** The calls kept: every call in progress, and the latest finished ones (calls/records.ts). */
  calls: CallRecords;
  tokens: Map<string, BearerToken>;
  members: Map<string, Member>;
  identityProvider: IdentityProvider | null;
  /** Fault idp-previous-kept-alongside: the providers a later PUT should have replaced. */
  previousProviders?: IdentityProvider[];
  /** Faults rotation-flush and rotation-flush-late: every token of the workspace is refused in this window. */
  rejectAllTokens: { from: number; until: number };
}

export class Store {
  readonly workspaces = new Map<string, Workspace>();
  readonly tokensBySecret = new Map<string, BearerToken>();
  readonly agentsById = new Map<string, Agent>();
  /** Fault delete-workspace-token-alive: workspaces deleted from the control interface's view only. */
  readonly softDeleted = new Map<string, Workspace>();
  private readonly workspacesByIssuer = new Map<string, Set<Workspace>>();

  workspace(id: string): Workspace | undefined {
    return this.workspaces.get(id);
  }

  addWorkspace(workspace: Workspace): void {
    this.workspaces.set(workspace.id, workspace);
    for (const agent of workspace.agents.values()) this.agentsById.set(agent.id, agent);
  }

  addCall(workspace: Workspace, call: Call): void {
    workspace.calls.add(call);
  }

  /**
   * A call of any workspace, for the faults that leak across tenants. A walk of the
   * workspaces rather than an index of every call: placing a call updates no second Map.
   */
  callInAnyWorkspace(id: string): Call | undefined {
    for (const workspace of this.workspaces.values()) {
      const call = workspace.calls.get(id);
      if (call) return call;
    }
    return undefined;
  }

  addToken(workspace: Workspace, token: BearerToken): void {
    workspace.tokens.set(token.id, token);
    this.tokensBySecret.set(token.secret, token);
  }

  /** Removes the workspace and everything indexed under it; pending call timers are cancelled. */
  deleteWorkspace(id: string): Workspace | undefined {
    const workspace = this.workspaces.get(id);
    if (!workspace) return undefined;
    this.workspaces.delete(id);
    if (workspace.faults.has('delete-workspace-token-alive')) {
      this.softDeleted.set(id, workspace);
      return workspace;
    }
    for (const token of workspace.tokens.values()) this.tokensBySecret.delete(token.secret);
    for (const call of workspace.calls.values()) for (const timer of call.timers) timer.cancel();
    for (const agent of workspace.agents.values()) this.agentsById.delete(agent.id);
    // Fault delete-workspace-session-alive: the issuer index keeps the deleted workspace's entry.
    if (!workspace.faults.has('delete-workspace-session-alive')) this.setIdentityProvider(workspace, null);
    return workspace;
  }

  setIdentityProvider(workspace: Workspace, provider: IdentityProvider | null): void {
    const previous = workspace.identityProvider;
    if (previous) this.workspacesByIssuer.get(previous.issuer)?.delete(workspace);
    workspace.identityProvider = provider;
    if (!provider) return;
    let set = this.workspacesByIssuer.get(provider.issuer);
    if (!set) this.workspacesByIssuer.set(provider.issuer, (set = new Set()));
    set.add(workspace);
  }

  /** Workspaces whose identity provider has this issuer (several may share one). */
  workspacesWithIssuer(issuer: string): Iterable<Workspace> {
    return this.workspacesByIssuer.get(issuer) ?? [];
  }
}
