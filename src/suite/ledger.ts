/**
 * The ledger of resources a run created on the target, one JSON line per creation or
 * removal. It holds ids only, never secrets. The runner reads it at the end (or on an
 * interrupt) and removes whatever is still there.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import type { Resource } from '../control/types.js';

type LedgerLine = { op: 'created' | 'removed'; resource: Resource };

export function recordResource(ledgerPath: string, op: LedgerLine['op'], resource: Resource): void {
  appendFileSync(ledgerPath, `${JSON.stringify({ op, resource })}\n`, { mode: 0o600 });
}

const keyOf = (resource: Resource): string => JSON.stringify(resource);

/** Resources created and not yet removed, in creation order. */
export function outstandingResources(ledgerPath: string): Resource[] {
  if (!existsSync(ledgerPath)) return [];
  const live = new Map<string, Resource>();
  for (const line of readFileSync(ledgerPath, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    let entry: LedgerLine;
    try {
      entry = JSON.parse(line) as LedgerLine;
    } catch {
      continue; // a line cut by an interrupt
    }
    if (entry.op === 'created') live.set(keyOf(entry.resource), entry.resource);
    else live.delete(keyOf(entry.resource));
  }
  return [...live.values()];
}
