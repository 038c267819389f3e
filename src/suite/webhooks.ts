/**
 * The capturing receiver as the suites use it: one receiver for the whole run (every suite
 * runs in one worker, suites/selected.ts), started on first use with the run's port,
 * certificate and public URL, and closed when the last open suite ends (src/suite/check.ts).
 */
import { readFileSync } from 'node:fs';
import { CapturingReceiver, type ReceiverEndpoint } from '../capturing-receiver/index.js';
import type { CreatedEndpoint } from '../control/types.js';
import type { RunContext } from './run-context.js';
import type { TestWorkspace } from './workspace.js';

let receiver: Promise<CapturingReceiver> | undefined;

export function sharedReceiver(run: RunContext): Promise<CapturingReceiver> {
  receiver ??= CapturingReceiver.start({
    ...(run.receiver.host ? { host: run.receiver.host } : {}),
    port: run.receiver.port,
    tls: { cert: readFileSync(run.receiver.certPath, 'utf8'), key: readFileSync(run.receiver.keyPath, 'utf8') },
    ...(run.receiver.publicUrl ? { publicUrl: run.receiver.publicUrl } : {}),
  });
  return receiver;
}

export async function closeSharedReceiver(): Promise<void> {
  const closing = receiver;
  receiver = undefined;
  if (closing) await (await closing).close();
}

/** An endpoint of the receiver registered with the service, its signing secret set on both sides. */
export interface HookedEndpoint {
  /** The receiver's side: deliveries, programmed answers, waitFor. */
  inbox: ReceiverEndpoint;
  /** The service's side: endpoint id and signing secret. */
  registered: CreatedEndpoint;
}

export async function hookEndpoint(
  run: RunContext,
  workspace: TestWorkspace,
  events: readonly string[] = ['*'],
  name?: string,
): Promise<HookedEndpoint> {
  const receiver = await sharedReceiver(run);
  let inbox = receiver.createEndpoint(name ? { name } : {});
  const registered = await workspace.createEndpoint(inbox.url, events);
  if (registered.url && registered.url !== inbox.url) {
    // Registered by hand (a control adapter's): the receiver listens where the service delivers.
    inbox = receiver.createEndpoint({
      ...(name ? { name: `${name} (registered by hand)` } : {}),
      path: new URL(registered.url).pathname,
    });
  }
  inbox.setSecret(registered.secret);
  return { inbox, registered };
}
