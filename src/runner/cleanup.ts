/**
 * Removes what the record of created resources says the run left on the target: endpoints, tokens, then
 * workspaces. Bounded whatever the target does: removals of one kind run a few at a time,
 * each with its own time-out, and none starts after the clean-up's time budget. An endpoint
 * or token the target no longer knows (404) is gone. What is still there afterwards is
 * listed, each with the control call that would remove it.
 */
import type { NetworkOptions } from '../http/dispatcher.js';
import { ControlClient, removalPath } from '../control/client.js';
import { ControlError } from '../errors.js';
import type { Resource } from '../control/types.js';
import type { Leftover } from '../report/model.js';
import { outstandingResources, recordResource } from '../run-state/created-resources.js';

const ORDER: Resource['kind'][] = ['endpoint', 'token', 'workspace'];
const REQUEST_TIMEOUT_MS = 5_000;
const CONCURRENCY = 8;
/** No removal starts after this; the whole clean-up ends within it plus one request time-out. */
export const CLEANUP_BUDGET_MS = 20_000;

export interface CleanupOutcome {
  removed: number;
  failed: number;
  /** What the record still lists once the clean-up ended, in removal order. */
  leftovers: Leftover[];
}

export async function removeLeftovers(
  createdResourcesPath: string,
  controlUrl: string | undefined,
  controlToken: string | undefined,
  network: NetworkOptions = {},
): Promise<CleanupOutcome> {
  const leftovers = outstandingResources(createdResourcesPath);
  if (leftovers.length === 0 || !controlUrl || !controlToken)
    return { removed: 0, failed: leftovers.length, leftovers: listed(leftovers) };
  const control = new ControlClient(controlUrl, controlToken, {
    timeoutMs: REQUEST_TIMEOUT_MS,
    network,
    onRemoved: (resource) => recordResource(createdResourcesPath, 'removed', resource),
  });
  const endBy = performance.now() + CLEANUP_BUDGET_MS;
  let removed = 0;
  let failed = 0;
  const remove = async (resource: Resource): Promise<void> => {
    if (performance.now() > endBy) {
      failed += 1;
      return;
    }
    try {
      if (resource.kind === 'endpoint') await control.deleteEndpoint(resource.workspaceId, resource.endpointId);
      else if (resource.kind === 'token') await control.revokeToken(resource.workspaceId, resource.tokenId);
      else await control.deleteWorkspace(resource.workspaceId);
      removed += 1;
    } catch (error) {
      // Not found: already gone (its workspace removed by a check's own clean-up, or a removal
      // whose answer was lost under load), so nothing is left to report.
      if (resource.kind !== 'workspace' && error instanceof ControlError && error.status === 404) {
        recordResource(createdResourcesPath, 'removed', resource);
        removed += 1;
      } else failed += 1;
    }
  };
  for (const kind of ORDER) {
    const queue = leftovers.filter((resource) => resource.kind === kind);
    await Promise.all(
      Array.from({ length: Math.min(CONCURRENCY, queue.length) }, async () => {
        for (let next = queue.shift(); next; next = queue.shift()) await remove(next);
      }),
    );
  }
  await control.close();
  return { removed, failed, leftovers: listed(outstandingResources(createdResourcesPath)) };
}

/** In the order they can be removed (endpoints and tokens before their workspace), so the calls can be run top to bottom. */
function listed(resources: Resource[]): Leftover[] {
  return [...resources].sort((a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind)).map(asLeftover);
}

function asLeftover(resource: Resource): Leftover {
  const id =
    resource.kind === 'workspace'
      ? resource.workspaceId
      : resource.kind === 'token'
        ? resource.tokenId
        : resource.endpointId;
  return {
    kind: resource.kind,
    id,
    workspace_id: resource.workspaceId,
    remove_with: `DELETE ${removalPath(resource)}`,
  };
}
