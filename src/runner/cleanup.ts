/** Removes what the ledger says the run left on the target: endpoints, tokens, then workspaces. */
import { ControlClient } from '../control/client.js';
import type { Resource } from '../control/types.js';
import { outstandingResources, recordResource } from '../suite/ledger.js';

const ORDER: Record<Resource['kind'], number> = { endpoint: 0, token: 1, workspace: 2 };

export async function removeLeftovers(ledgerPath: string, controlUrl: string | undefined, controlToken: string | undefined): Promise<{ removed: number; failed: number }> {
  const leftovers = outstandingResources(ledgerPath).sort((a, b) => ORDER[a.kind] - ORDER[b.kind]);
  if (leftovers.length === 0 || !controlUrl || !controlToken) return { removed: 0, failed: leftovers.length };
  const control = new ControlClient(controlUrl, controlToken, {
    timeoutMs: 5_000,
    onRemoved: (resource) => recordResource(ledgerPath, 'removed', resource),
  });
  let removed = 0;
  let failed = 0;
  for (const resource of leftovers) {
    try {
      if (resource.kind === 'endpoint') await control.deleteEndpoint(resource.workspaceId, resource.endpointId);
      else if (resource.kind === 'token') await control.revokeToken(resource.workspaceId, resource.tokenId);
      else await control.deleteWorkspace(resource.workspaceId);
      removed += 1;
    } catch {
      failed += 1;
    }
  }
  await control.close();
  return { removed, failed };
}
