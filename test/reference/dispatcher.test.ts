/**
 * What the dispatcher (reference/webhooks/dispatcher.ts) records: an event fired through the
 * control interface always, since its id is answered and a replay may name it; an event the
 * public API caused only when some endpoint takes it, since nothing else shows its id.
 */
import { describe, expect, it } from 'vitest';
import type { FaultSet } from '../../reference/faults.js';
import { Dispatcher } from '../../reference/webhooks/dispatcher.js';
import type { EndpointWorkspace } from '../../reference/webhooks/endpoints.js';
import { harness, HOUR } from './support.js';

const CALL_DATA = { call_id: 'call_test', agent_id: 'agt_test', to: '+14155550100', metadata: {} };

/** A harness whose workspace has no endpoint, with a count of the event ids minted. */
function withoutEndpoints() {
  const { clock, sender, endpoints } = harness();
  let minted = 0;
  const dispatcher = new Dispatcher({
    clock,
    sender,
    endpoints,
    deliveryTimeoutMs: 2000,
    newId: (prefix) => `${prefix}test${++minted}`,
  });
  const workspace: EndpointWorkspace = { id: 'ws_empty', timeScale: 1, faults: new Set() as FaultSet };
  return { dispatcher, workspace, sender, minted: () => minted };
}

describe('publishIfReceived', () => {
  it('records nothing, and builds no data, when no endpoint takes the event', async () => {
    const { dispatcher, workspace, sender, minted } = withoutEndpoints();
    let built = 0;
    dispatcher.publishIfReceived(workspace, 'voice.call.queued', () => (built++, CALL_DATA));
    await dispatcher.settle();
    expect({ built, minted: minted(), sent: sender.sent.length }).toEqual({ built: 0, minted: 0, sent: 0 });
  });

  it('records the event once and delivers it when an endpoint takes it', async () => {
    const { dispatcher, workspace, sender } = harness();
    let built = 0;
    dispatcher.publishIfReceived(workspace, 'voice.call.queued', () => (built++, CALL_DATA));
    await dispatcher.settle();
    expect(built).toBe(1);
    expect(sender.sent).toHaveLength(1);
    const delivered = JSON.parse(sender.sent[0]!.body) as { id: string; data: unknown };
    expect(delivered.data).toEqual(CALL_DATA);
    expect(dispatcher.events.get(workspace.id, delivered.id)?.data).toEqual(CALL_DATA);
  });

  it('records nothing when the only endpoint is disabled', async () => {
    const { dispatcher, workspace, endpoint, sender, clock } = harness();
    endpoint.health.recordFailure();
    clock.advance(24 * HOUR);
    expect(endpoint.health.acceptsDeliveries()).toBe(false);
    let built = 0;
    dispatcher.publishIfReceived(workspace, 'voice.call.queued', () => (built++, CALL_DATA));
    await dispatcher.settle();
    expect({ built, sent: sender.sent.length }).toEqual({ built: 0, sent: 0 });
  });
});

describe('publish', () => {
  it('records the event even when no endpoint takes it, for a replay to name later', () => {
    const { dispatcher, workspace, minted } = withoutEndpoints();
    const event = dispatcher.publish(workspace, 'mailer.email.sent', { email_id: 'em_test' });
    expect(minted()).toBe(1);
    expect(dispatcher.events.get(workspace.id, event.id)?.data).toEqual({ email_id: 'em_test' });
  });
});
