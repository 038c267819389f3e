import { setTimeout as sleep } from 'node:timers/promises';
import { STORE_ROUND_TRIP_MS } from './auth/tokens.js';

// Faults call-id-sequence-race and event-id-sequence-race: ids numbered from a per-workspace
// sequence that is read, then written back after a store round trip (a SELECT of the last
// number, then the INSERT), so requests of the workspace at once read the same number and
// get the same id. Kept per workspace object, so a deleted workspace's sequences go with it.

const sequences = new WeakMap<object, Map<string, number>>();

/** The next id of the workspace's `prefix` sequence, written back only after the round trip. */
export async function racySequenceId(workspace: { id: string }, prefix: 'call_' | 'evt_'): Promise<string> {
  let own = sequences.get(workspace);
  if (!own) sequences.set(workspace, (own = new Map()));
  const next = (own.get(prefix) ?? 0) + 1;
  await sleep(STORE_ROUND_TRIP_MS);
  own.set(prefix, next);
  return `${prefix}${workspace.id.replace(/^ws_/, '')}n${next}`;
}
