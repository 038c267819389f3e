/** The record of what a run created: what is still there, and what is still under way. */
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import {
  outstandingResources,
  pendingCreations,
  recordPendingCreation,
  recordResource,
} from '../../src/run-state/created-resources.js';
import { stopMarkerPath } from '../../src/run-state/stop.js';
import type { Resource } from '../../src/control/types.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function recordPath(): string {
  dir = mkdtempSync(join(tmpdir(), 'created-resources-'));
  return join(dir, 'created.jsonl');
}

const workspace = (id: string) => ({ kind: 'workspace', workspaceId: id }) as unknown as Resource;

describe('the record of created resources', () => {
  test('a missing record holds nothing', () => {
    const path = recordPath();
    expect(outstandingResources(path)).toEqual([]);
    expect(pendingCreations(path)).toBe(0);
  });

  test('what was created and not removed is outstanding, in creation order', () => {
    const path = recordPath();
    recordResource(path, 'created', workspace('ws_a'));
    recordResource(path, 'created', workspace('ws_b'));
    recordResource(path, 'created', workspace('ws_c'));
    recordResource(path, 'removed', workspace('ws_b'));
    expect(outstandingResources(path)).toEqual([workspace('ws_a'), workspace('ws_c')]);
  });

  test("a workspace removed takes its tokens and endpoints with it, and no other workspace's", () => {
    const path = recordPath();
    const token = (ws: string, id: string) => ({ kind: 'token', workspaceId: ws, tokenId: id }) as Resource;
    const endpoint = (ws: string, id: string) => ({ kind: 'endpoint', workspaceId: ws, endpointId: id }) as Resource;
    recordResource(path, 'created', workspace('ws_a'));
    recordResource(path, 'created', token('ws_a', 'tok_1'));
    recordResource(path, 'created', endpoint('ws_a', 'we_1'));
    recordResource(path, 'created', workspace('ws_b'));
    recordResource(path, 'created', token('ws_b', 'tok_2'));
    recordResource(path, 'removed', workspace('ws_a'));
    expect(outstandingResources(path)).toEqual([workspace('ws_b'), token('ws_b', 'tok_2')]);
  });

  test('a creating request is pending until settled', () => {
    const path = recordPath();
    const settleFirst = recordPendingCreation(path);
    const settleSecond = recordPendingCreation(path);
    expect(pendingCreations(path)).toBe(2);
    settleFirst();
    expect(pendingCreations(path)).toBe(1);
    settleSecond();
    expect(pendingCreations(path)).toBe(0);
  });

  test('a line cut by an interrupt is passed over, the rest still read', () => {
    const path = recordPath();
    recordResource(path, 'created', workspace('ws_a'));
    appendFileSync(path, '{"op":"created","resource":{"kind":"work');
    expect(outstandingResources(path)).toEqual([workspace('ws_a')]);
  });

  test('the stop marker sits beside the record', () => {
    expect(stopMarkerPath('/tmp/run/created.jsonl')).toBe('/tmp/run/created.jsonl.stop');
  });
});
