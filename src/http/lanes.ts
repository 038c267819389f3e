/**
 * Which credentials share a rate-limit lane. A target's limit is commonly per workspace, and
 * a workspace has several credentials (two tokens during a rotation, members' session tokens);
 * pacing them as one lane keeps their sum under the limit. Credentials nobody grouped are a
 * lane of their own.
 */

/** Enough for every credential alive in a run at once; the oldest are forgotten first. */
const MAX_GROUPED = 10_000;
const laneOfCredential = new Map<string, string>();

/** `credential` (a bearer token or JWT) belongs to `workspaceId`'s lane from now on. */
export function joinLane(credential: string, workspaceId: string): void {
  if (laneOfCredential.size >= MAX_GROUPED) laneOfCredential.delete(laneOfCredential.keys().next().value!);
  laneOfCredential.set(credential, `ws:${workspaceId}`);
}

/** The lane of a request, from its Authorization header; undefined without one. */
export function laneOf(headers: Record<string, string | string[]> | undefined): string | undefined {
  if (!headers) return undefined;
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() !== 'authorization') continue;
    const first = Array.isArray(value) ? value[0] : value;
    if (first === undefined) return undefined;
    const credential = first.replace(/^Bearer\s+/i, '');
    return laneOfCredential.get(credential) ?? `credential:${credential}`;
  }
  return undefined;
}
