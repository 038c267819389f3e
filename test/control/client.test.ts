/** ControlClient.deleteWorkspace (src/control/client.ts): deletion is optional in the contract, and the answer says whether it happened. */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControlClient } from '../../src/control/client.js';
import { ControlError } from '../../src/errors.js';

const FAKE_CONTROL_TOKEN = 'ctl_test_fake_client_0000000000';
/** Answers a DELETE of `/workspaces/<status>` with that status. */
let server: Server;
let controlUrl: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const status = Number(req.url?.split('/').at(-1));
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(status === 204 ? undefined : JSON.stringify({ error: { code: 'fake', message: 'fake answer' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  controlUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('ControlClient.deleteWorkspace', () => {
  const withClient = async (use: (client: ControlClient) => Promise<void>) => {
    const client = new ControlClient(controlUrl, FAKE_CONTROL_TOKEN, { timeoutMs: 5_000 });
    try {
      await use(client);
    } finally {
      await client.close();
    }
  };

  it('resolves true on a 2xx: the workspace was deleted', () =>
    withClient(async (client) => {
      await expect(client.deleteWorkspace('204')).resolves.toBe(true);
    }));

  it.each(['404', '405'])('resolves false on a %s: deletion is not supported, not a failure', (status) =>
    withClient(async (client) => {
      await expect(client.deleteWorkspace(status)).resolves.toBe(false);
    }),
  );

  it('rejects on another refusal', () =>
    withClient(async (client) => {
      await expect(client.deleteWorkspace('409')).rejects.toThrow(ControlError);
    }));
});
