import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Agent } from 'undici';
import { CapturingReceiver } from '../../src/capturing-receiver/index.js';
import { deliver, envelope, insecureAgent } from './helpers.js';

let receiver: CapturingReceiver;
let agent: Agent;

beforeAll(async () => {
  receiver = await CapturingReceiver.start();
  agent = insecureAgent();
});

afterAll(async () => {
  await agent.close();
  await receiver.close();
});

describe('capturing receiver: attempts without an answer', () => {
  it('a delivery to the refusing URL is refused at connect and reaches no endpoint', async () => {
    const url = await receiver.refusingUrl();
    const result = await deliver(agent, url, JSON.stringify(envelope()));
    expect(result.status).toBeUndefined();
    expect(result.error).toBe('ECONNREFUSED');
    expect(receiver.stats().total).toBe(0);
  });

  it('the refusing URL keeps the public host and scheme, on another port', async () => {
    const url = new URL(await receiver.refusingUrl());
    const own = new URL(receiver.publicUrl);
    expect(url.protocol).toBe('https:');
    expect(url.hostname).toBe(own.hostname);
    expect(url.port).not.toBe(own.port);
    expect(url.pathname).toBe('/hooks/refused');
  });

  it('a reset attempt ends with no HTTP answer, and the delivery is still captured', async () => {
    const ep = receiver.createEndpoint().respond({ reset: true });
    const result = await deliver(agent, ep, JSON.stringify(envelope({ id: 'evt_reset1' })));
    expect(result.status).toBeUndefined();
    expect(result.error).toBeDefined();
    expect(ep.deliveries).toHaveLength(1);
    expect(ep.deliveries[0]).toMatchObject({ answer: 'reset', answeredStatus: null, attempt: 1 });
  });
});
