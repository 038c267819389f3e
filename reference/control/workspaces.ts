import { z } from 'zod';
import { revokeToken, suspensionLeftOnTokens, suspensionStampedTokens } from '../auth/tokens.js';
import { unionFaults } from '../faults.js';
import { CALLS_PER_GENERATION, CallRecords } from '../calls/records.js';
import { ALL_SCOPES, type Agent, type BearerToken, type Scope, type Workspace } from '../store.js';
import { latestTimeScale } from '../webhooks/dispatcher.js';
import { newSigningSecret } from '../webhooks/signing.js';
import { NO_WORKSPACE, invalid, refuse, workspaceOf, type ControlHandler } from './reply.js';

// Capabilities and the workspace lifecycle (create, suspend, reinstate, delete).

export const capabilities: ControlHandler = ({ app }) => ({
  status: 200,
  body: {
    contract: '1',
    max_time_scale: app.config.maxTimeScale,
    delivery_timeout_ms: app.config.deliveryTimeoutMs,
    environment: app.config.environment,
  },
});

const AGENTS_PER_WORKSPACE = 2;

/** Fault licensed-scopes-shared-default: the default licensed scopes, overwritten by each list given. */
const sharedLicensedDefault: Scope[] = [...ALL_SCOPES];

export const createWorkspace: ControlHandler = ({ app, body, faults, faultPrefix }) => {
  const schema = z.object({
    licensed_scopes: z.array(z.enum(ALL_SCOPES)).optional(),
    // Fault time-scale-max-refused: the upper bound is exclusive.
    time_scale: z
      .number()
      .min(1)
      .max(faults.has('time-scale-max-refused') ? app.config.maxTimeScale - 1 : app.config.maxTimeScale)
      .optional(),
    call_progress: z.enum(['auto', 'manual']).optional(),
  });
  const parsed = schema.safeParse(body);
  if (!parsed.success) return invalid(parsed.error.issues);
  const id = app.personality.newId('ws_');
  const agents = new Map<string, Agent>();
  for (let i = 1; i <= AGENTS_PER_WORKSPACE; i++) {
    const agent: Agent = { id: app.personality.newId('agt_'), workspaceId: id, name: `Agent ${i}` };
    agents.set(agent.id, agent);
  }
  // Fault retry-scale-of-latest-workspace: each creation writes its scale to the process-wide setting.
  if (faults.has('retry-scale-of-latest-workspace')) latestTimeScale.value = parsed.data.time_scale ?? 1;
  // Fault licensed-scopes-shared-default: the default list is the one object a given list was copied into.
  let licensedDefault: readonly Scope[] = ALL_SCOPES;
  if (faults.has('licensed-scopes-shared-default')) {
    if (parsed.data.licensed_scopes) sharedLicensedDefault.splice(0, Infinity, ...parsed.data.licensed_scopes);
    licensedDefault = sharedLicensedDefault;
  }
  const workspace: Workspace = {
    id,
    // Fault licensed-scopes-empty-all: an empty list is read as a list not given.
    licensedScopes: [
      ...new Set(
        faults.has('licensed-scopes-empty-all') && parsed.data.licensed_scopes?.length === 0
          ? ALL_SCOPES
          : (parsed.data.licensed_scopes ?? licensedDefault),
      ),
    ],
    timeScale: parsed.data.time_scale ?? 1,
    // Fault manual-progress-ignored-with-time-scale: a scaled (test) workspace is taken to want auto progress.
    callProgress:
      faults.has('manual-progress-ignored-with-time-scale') && (parsed.data.time_scale ?? 1) > 1
        ? 'auto'
        : (parsed.data.call_progress ?? 'auto'),
    suspended: false,
    faults,
    faultPrefix,
    agents,
    // Fault call-records-keep-two: the records turn over on every placement (a StrykerJS mutant).
    calls: new CallRecords(faults.has('call-records-keep-two') ? 1 : CALLS_PER_GENERATION),
    tokens: new Map(),
    members: new Map(),
    identityProvider: null,
    rejectAllTokens: { from: 0, until: 0 },
  };
  app.store.addWorkspace(workspace);
  return { status: 201, body: { workspace_id: id, agent_ids: [...agents.keys()] } };
};

/** Fault revoked-while-suspended-restored: each suspended workspace's token states when it was suspended. */
const tokenSnapshots = new WeakMap<
  Workspace,
  { t: BearerToken; revokedAt: number | null; effectiveAt: number | null }[]
>();

/** Fault suspension-holds-counted: the suspensions not yet lifted, per workspace. */
const suspensionHolds = new WeakMap<Workspace, number>();

export const suspendWorkspace: ControlHandler = (request) => {
  const workspace = workspaceOf(request);
  if (!workspace) return NO_WORKSPACE;
  const faults = unionFaults(request.faults, workspace.faults);
  // Fault suspend-toggles: the suspend route flips the flag.
  if (faults.has('suspend-toggles')) workspace.suspended = !workspace.suspended;
  else if (!faults.has('suspension-ignored')) workspace.suspended = true;
  // Fault suspension-holds-counted: each suspension is a hold (billing, trust and safety) that a reinstatement lifts one at a time.
  if (faults.has('suspension-holds-counted')) suspensionHolds.set(workspace, (suspensionHolds.get(workspace) ?? 0) + 1);
  // Fault suspend-revokes-tokens: suspension implemented as revoking every credential of the workspace.
  if (faults.has('suspend-revokes-tokens'))
    for (const token of workspace.tokens.values()) revokeToken(workspace, token.id, request.app.config.clock, faults);
  // Fault suspension-stamped-on-tokens: the suspension is written onto the tokens the workspace holds now.
  if (faults.has('suspension-stamped-on-tokens'))
    suspensionStampedTokens.set(workspace, new Set(workspace.tokens.keys()));
  for (const other of sharingSettings(request.app.store.workspaces.values(), workspace)) other.suspended = true;
  // Fault suspend-disables-endpoints: deliveries are stopped by disabling the endpoints, which reinstatement forgets.
  // Fault revoked-while-suspended-restored: the token states at suspension, put back on reinstatement.
  if (faults.has('revoked-while-suspended-restored') && !tokenSnapshots.has(workspace))
    tokenSnapshots.set(
      workspace,
      [...workspace.tokens.values()].map((t) => ({ t, revokedAt: t.revokedAt, effectiveAt: t.revocationEffectiveAt })),
    );
  if (faults.has('suspend-disables-endpoints'))
    for (const endpoint of request.app.endpoints.allOf(workspace.id)) endpoint.health.disableForSuspension();
  // Fault suspend-answered-200: the suspension answers 200 with the workspace.
  if (faults.has('suspend-answered-200'))
    return { status: 200, body: { workspace_id: workspace.id, suspended: workspace.suspended } };
  return { status: 204 };
};

export const reinstateWorkspace: ControlHandler = (request) => {
  const workspace = workspaceOf(request);
  if (!workspace) return NO_WORKSPACE;
  const faults = unionFaults(request.faults, workspace.faults);
  // Fault reinstate-toggles: the dashboard's button flips the suspension, so an active workspace is suspended.
  if (faults.has('reinstate-toggles') && !workspace.suspended) {
    workspace.suspended = true;
    return { status: 204 };
  }
  const holdsLeft = Math.max(0, (suspensionHolds.get(workspace) ?? 0) - 1);
  suspensionHolds.set(workspace, holdsLeft);
  if (!faults.has('reinstate-ignored') && !(faults.has('suspension-holds-counted') && holdsLeft > 0))
    workspace.suspended = false;
  for (const other of sharingSettings(request.app.store.workspaces.values(), workspace))
    other.suspended = workspace.suspended;
  // Fault reinstate-first-token-only: the suspension stamped on each token row is cleared on the first row only.
  if (faults.has('reinstate-first-token-only') && !workspace.suspended)
    suspensionLeftOnTokens.set(
      workspace,
      new Set(
        [...workspace.tokens.values()]
          .filter((t) => t.revokedAt === null)
          .slice(1)
          .map((t) => t.id),
      ),
    );
  // Fault reinstate-every-suspended: "set suspended = false where suspended", the workspace left out of the condition.
  if (faults.has('reinstate-every-suspended'))
    for (const other of request.app.store.workspaces.values())
      if (other.faults.has('reinstate-every-suspended')) other.suspended = false;
  if (faults.has('reinstate-widens-scopes'))
    for (const token of workspace.tokens.values()) token.scopes = [...workspace.licensedScopes];
  if (faults.has('reinstate-widens-members'))
    for (const member of workspace.members.values()) member.scopes = [...workspace.licensedScopes];
  const snapshot = tokenSnapshots.get(workspace);
  if (snapshot && !workspace.suspended) {
    tokenSnapshots.delete(workspace);
    for (const { t, revokedAt, effectiveAt } of snapshot) {
      t.revokedAt = revokedAt;
      t.revocationEffectiveAt = effectiveAt;
    }
  }
  // Fault reinstate-rekeys-endpoints: a reinstated workspace's endpoints are re-keyed, and nobody is told.
  if (faults.has('reinstate-rekeys-endpoints'))
    for (const endpoint of request.app.endpoints.allOf(workspace.id)) endpoint.secret = newSigningSecret();
  // Fault reinstate-forgets-identity-provider: the reinstated workspace is rebuilt from its billing record, which holds no provider.
  if (faults.has('reinstate-forgets-identity-provider')) request.app.store.setIdentityProvider(workspace, null);
  if (faults.has('reinstate-resets-settings')) {
    // Fault: the workspace's settings record is written anew from the creation defaults.
    workspace.callProgress = 'auto';
    workspace.timeScale = 1;
  }
  // Fault reinstate-answered-200: the reinstatement answers 200 with the workspace.
  if (faults.has('reinstate-answered-200'))
    return { status: 200, body: { workspace_id: workspace.id, suspended: workspace.suspended } };
  return { status: 204 };
};

/** Fault suspension-shared-settings: the other workspaces whose settings object is the same one (those of the fault). */
function sharingSettings(workspaces: Iterable<Workspace>, workspace: Workspace): Workspace[] {
  if (!workspace.faults.has('suspension-shared-settings')) return [];
  return [...workspaces].filter((other) => other !== workspace && other.faults.has('suspension-shared-settings'));
}

export const deleteWorkspace: ControlHandler = (request) => {
  const workspace = workspaceOf(request);
  // Fault workspace-delete-reinstatable: the clean-up is the suspension flag, so a reinstatement undoes it.
  if (workspace && unionFaults(request.faults, workspace.faults).has('workspace-delete-reinstatable')) {
    workspace.suspended = true;
    return { status: 204 };
  }
  if (!request.app.deleteWorkspace(request.params.ws ?? ''))
    return refuse(404, 'workspace_not_found', 'no such workspace');
  return { status: 204 };
};
