import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeLeftovers } from '../../src/runner/cleanup.js';
import { outstandingResources, recordResource } from '../../src/run-state/created-resources.js';

// A control interface that knows one workspace with endpoint we_live and token tok_live;
// everything else is 404, and we_broken answers 500.
const KNOWN = new Set([
  '/workspaces/ws_1/webhook-endpoints/we_live',
  '/workspaces/ws_1/tokens/tok_live',
  '/workspaces/ws_1',
]);
let server: Server;
let controlUrl: string;
const dir = mkdtempSync(join(tmpdir(), 'cleanup-'));

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '';
    res.statusCode = path.endsWith('/we_broken') ? 500 : KNOWN.has(path) ? 204 : 404;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  controlUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

describe('removeLeftovers', () => {
  it('removes what is there, takes an endpoint or token the target no longer knows as gone, and lists what failed', async () => {
    const created = join(dir, 'created-resources.jsonl');
    recordResource(created, 'created', { kind: 'workspace', workspaceId: 'ws_1' });
    recordResource(created, 'created', { kind: 'endpoint', workspaceId: 'ws_1', endpointId: 'we_live' });
    recordResource(created, 'created', { kind: 'token', workspaceId: 'ws_1', tokenId: 'tok_live' });
    // Gone with a workspace a check removed itself: not left over, so not sent.
    recordResource(created, 'created', { kind: 'workspace', workspaceId: 'ws_gone' });
    recordResource(created, 'created', { kind: 'endpoint', workspaceId: 'ws_gone', endpointId: 'we_gone' });
    recordResource(created, 'created', { kind: 'token', workspaceId: 'ws_gone', tokenId: 'tok_gone' });
    recordResource(created, 'removed', { kind: 'workspace', workspaceId: 'ws_gone' });
    // Gone without a record of it (a removal whose answer was lost): 404 now.
    recordResource(created, 'created', { kind: 'endpoint', workspaceId: 'ws_1', endpointId: 'we_lost' });
    // In a workspace the run did not create (the ready-made token's): no workspace removal takes it.
    recordResource(created, 'created', { kind: 'endpoint', workspaceId: 'ws_given', endpointId: 'we_broken' });

    const outcome = await removeLeftovers(created, controlUrl, 'ctl_fake_token_for_tests');

    expect(outcome.failed).toBe(1);
    expect(outcome.removed).toBe(4);
    expect(outcome.leftovers).toEqual([
      {
        kind: 'endpoint',
        id: 'we_broken',
        workspace_id: 'ws_given',
        remove_with: 'DELETE /workspaces/ws_given/webhook-endpoints/we_broken',
      },
    ]);
    expect(outstandingResources(created)).toEqual([
      { kind: 'endpoint', workspaceId: 'ws_given', endpointId: 'we_broken' },
    ]);
  });
});
