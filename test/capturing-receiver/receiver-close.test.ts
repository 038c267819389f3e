import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CapturingReceiver } from '../../src/capturing-receiver/index.js';
import { deliver, insecureAgent } from './helpers.js';

// Alone in its file (vitest runs each file in its own process), so that no other test's
// servers or keep-alive sockets come and go while the handles are counted.
const count = (pattern: RegExp): number => process.getActiveResourcesInfo().filter((r) => pattern.test(r)).length;
const sockets = (): number => count(/^(TCPServerWrap|TCPSocketWrap|TLSWrap)$/);
// The test runner's own timers come and go, so timers can only be bounded, not matched.
const timers = (): number => count(/^Timeout$/);

describe('capturing receiver: close', () => {
  it('close() leaves no open server, socket, timer or private key behind, even with an answer pending', async () => {
    const client = insecureAgent();
    const baseline = { sockets: sockets(), timers: timers() };
    const receiver = await CapturingReceiver.start();
    const ep = receiver.createEndpoint().respond({ status: 204, delayMs: 30_000 });
    const pending = deliver(client, ep, '{}');
    await ep.waitFor((ds) => ds.length === 1, { timeoutMs: 2_000 });
    expect(sockets()).toBeGreaterThan(baseline.sockets);
    expect(timers()).toBeGreaterThan(baseline.timers);
    await receiver.close();
    expect((await pending).error).toBeDefined();
    await client.close();
    expect(existsSync(receiver.certificatePath!)).toBe(false);
    expect(sockets()).toBe(baseline.sockets);
    expect(timers()).toBeLessThanOrEqual(baseline.timers);
  });
});
