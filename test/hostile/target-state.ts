/** Watching a run through the hostile proxy's record, and asking the reference what it still holds. */
import type { RunningReference } from '../../reference/index.js';
import type { RunRecord } from './server.js';

/** Resolves `delayMs` after the run sends its `nth` request whose "METHOD path" matches. */
export function when(record: RunRecord, pattern: RegExp, delayMs: number, nth = 1): Promise<void> {
  return new Promise((resolve) => {
    let seen = 0;
    record.onRequest = (method, path) => {
      if (seen >= nth || !pattern.test(`${method} ${path}`)) return;
      seen += 1;
      if (seen === nth) setTimeout(resolve, delayMs);
    };
  });
}

/** What the record says the run created and the reference still holds. */
export async function leftovers(reference: RunningReference, record: RunRecord): Promise<string[]> {
  const control = (path: string) =>
    fetch(`${reference.controlUrl}${path}`, { headers: { authorization: `Bearer ${reference.controlToken}` } });
  const left: string[] = [];
  for (const ws of record.workspaces) {
    const res = await control(`/workspaces/${ws}/webhook-endpoints/we_probe`);
    const code = ((await res.json()) as { error?: { code?: string } }).error?.code;
    if (code !== 'workspace_not_found') left.push(`workspace ${ws} (${res.status} ${code})`);
  }
  for (const endpoint of record.endpoints.values()) {
    const res = await control(`/workspaces/${endpoint.workspaceId}/webhook-endpoints/${endpoint.endpointId}`);
    if (res.status !== 404) left.push(`endpoint ${endpoint.endpointId} (${res.status})`);
  }
  for (const token of record.tokens.values()) {
    const res = await fetch(`${reference.baseUrl}/v1/whoami`, { headers: { authorization: `Bearer ${token.secret}` } });
    if (res.status !== 401) left.push(`token ${token.tokenId} (whoami ${res.status})`);
  }
  return left;
}
