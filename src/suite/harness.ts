/**
 * The per-process state the suites share: clients for the target, built once from the
 * run context the runner provided. Every selected suite runs in one worker process, side by
 * side (suites/selected.ts), so these are shared by all of them for the whole run.
 */
import { UsageError } from '../errors.js';
import { inject } from 'vitest';
import { ServiceApi } from '../api/service.js';
import { loadControlAdapter, type ControlAdapter } from '../control/adapter.js';
import { ControlClient } from '../control/client.js';
import type { Capabilities } from '../control/types.js';
import { HttpClient } from '../http/client.js';
import { watchStaleConnections } from '../http/reuse.js';
import { registerSecret } from '../secrets/mask.js';
import { recordPendingCreation, recordResource } from '../run-state/created-resources.js';
import type { RunContext } from './run-context.js';

export interface Harness {
  run: RunContext;
  http: HttpClient;
  api: ServiceApi;
  control: ControlAdapter | undefined;
  capabilities(): Promise<Capabilities | undefined>;
}

let current: Promise<Harness> | undefined;

export function harness(): Promise<Harness> {
  current ??= start();
  return current;
}

async function start(): Promise<Harness> {
  const run = inject('certify');
  if (!run) throw new UsageError('no run context: start the suites with `npm run certify`, not with vitest directly');
  registerSecret(run.controlToken);
  registerSecret(run.svcToken);
  watchStaleConnections();
  const http = new HttpClient(run.baseUrl, { ...run.network, ...(run.rateLimit ? { rateLimit: run.rateLimit } : {}) });
  // An adapter's resources are removed by each check's clean-up; the record of created resources (and the runner's
  // sweep of leftovers) covers the HTTP control interface, whose ids the runner can delete.
  const control = run.controlAdapter
    ? await loadControlAdapter(run.controlAdapter)
    : run.controlUrl && run.controlToken
      ? new ControlClient(run.controlUrl, run.controlToken, {
          network: run.network,
          onCreated: (resource) => recordResource(run.createdResourcesPath, 'created', resource),
          onRemoved: (resource) => recordResource(run.createdResourcesPath, 'removed', resource),
          onCreating: () => recordPendingCreation(run.createdResourcesPath),
        })
      : undefined;
  let capabilities: Promise<Capabilities | undefined> | undefined;
  return {
    run,
    http,
    api: new ServiceApi(http),
    control,
    capabilities: () => (capabilities ??= control ? control.capabilities() : Promise.resolve(undefined)),
  };
}

export async function closeHarness(): Promise<void> {
  const closing = await current?.catch(() => undefined);
  current = undefined;
  if (!closing) return;
  await Promise.all([closing.http.close(), closing.control?.close()]);
}
