import { ManualClock } from '../../reference/clock.js';
import type { FaultName, FaultSet } from '../../reference/faults.js';
import { Dispatcher, type AttemptRecord } from '../../reference/webhooks/dispatcher.js';
import { EndpointRegistry, type EndpointWorkspace } from '../../reference/webhooks/endpoints.js';
import type { DeliverySender, SendOutcome } from '../../reference/webhooks/transport.js';

// A dispatcher on a manual clock with a scripted receiver: no sockets, no waiting.

export class ScriptedSender implements DeliverySender {
  readonly sent: Array<{ url: string; body: string; headers: Record<string, string>; at: number }> = [];
  /** The answer to the next attempts; the last one repeats. */
  answers: SendOutcome[] = [{ kind: 'response', status: 500, elapsedMs: 1 }];

  constructor(private readonly clock: ManualClock) {}

  async send(url: URL, body: string, headers: Record<string, string>): Promise<SendOutcome> {
    this.sent.push({ url: url.href, body, headers, at: this.clock.now() });
    return this.answers.length > 1 ? this.answers.shift()! : this.answers[0]!;
  }

  async close(): Promise<void> {}
}

export function harness(faultNames: FaultName[] = [], timeScale = 1) {
  const clock = new ManualClock();
  const sender = new ScriptedSender(clock);
  const endpoints = new EndpointRegistry(clock);
  const attempts: AttemptRecord[] = [];
  const dispatcher = new Dispatcher({
    clock,
    sender,
    endpoints,
    deliveryTimeoutMs: 2000,
    onAttempt: (r) => attempts.push(r),
  });
  const workspace: EndpointWorkspace = { id: 'ws_test', timeScale, faults: new Set(faultNames) as FaultSet };
  const created = endpoints.create(workspace, 'https://127.0.0.1:9/hook', ['*'], workspace.faults);
  if (!created.ok) throw new Error(created.message);
  /** Advances the clock in small steps, letting the (immediately resolving) sends settle in between. */
  async function advance(ms: number, step = Math.max(1, ms / 200)): Promise<void> {
    for (let elapsed = 0; elapsed < ms; elapsed += step) {
      clock.advance(Math.min(step, ms - elapsed));
      await dispatcher.settle();
    }
  }
  return { clock, sender, endpoints, dispatcher, workspace, endpoint: created.endpoint, attempts, advance };
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
