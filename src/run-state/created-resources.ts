/**
 * The record of resources a run created on the target, one JSON line per creation or
 * removal, written by the suites' worker (and the runner's probe). It holds ids only, never
 * secrets. The runner reads it at the end (or on an interrupt) and removes whatever is still
 * there.
 *
 * A creating request is also marked `pending` before it is sent and `settled` once its
 * answer (and the resource it created) is recorded: a stopping run waits for the pending
 * ones before it ends the worker, since a resource whose answer was never read could not
 * be removed.
 */
import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import type { Resource } from '../control/types.js';

type RecordLine = { op: 'created' | 'removed'; resource: Resource } | { op: 'pending' | 'settled'; key: string };

function append(path: string, line: RecordLine): void {
  appendFileSync(path, `${JSON.stringify(line)}\n`, { mode: 0o600 });
}

export function recordResource(path: string, op: 'created' | 'removed', resource: Resource): void {
  append(path, { op, resource });
}

/** Marks a creating request as under way; the returned function marks it settled. */
export function recordPendingCreation(path: string): () => void {
  const key = randomBytes(6).toString('hex');
  append(path, { op: 'pending', key });
  return () => append(path, { op: 'settled', key });
}

function readLines(path: string): RecordLine[] {
  if (!existsSync(path)) return [];
  const lines: RecordLine[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      lines.push(JSON.parse(line) as RecordLine);
    } catch {
      // a line cut by an interrupt
    }
  }
  return lines;
}

/** How many creating requests are under way (marked pending, not yet settled). */
export function pendingCreations(path: string): number {
  const pending = new Set<string>();
  for (const line of readLines(path)) {
    if (line.op === 'pending') pending.add(line.key);
    else if (line.op === 'settled') pending.delete(line.key);
  }
  return pending.size;
}

const keyOf = (resource: Resource): string => JSON.stringify(resource);

/** Resources created and not yet removed, in creation order. */
export function outstandingResources(path: string): Resource[] {
  const live = new Map<string, Resource>();
  for (const entry of readLines(path)) {
    if (entry.op === 'created') live.set(keyOf(entry.resource), entry.resource);
    else if (entry.op === 'removed') {
      live.delete(keyOf(entry.resource));
      // A workspace removed takes its tokens and endpoints with it: none is left to remove, nor removable.
      const { kind, workspaceId } = entry.resource;
      if (kind === 'workspace')
        for (const [key, resource] of live) if (resource.workspaceId === workspaceId) live.delete(key);
    }
  }
  return [...live.values()];
}
