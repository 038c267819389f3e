/**
 * Resolving the target of a run: the service the settings name, or the bundled reference
 * implementation started on a free loopback port. Checks that it answers, and refuses a
 * production target unless the user allowed it explicitly.
 */
import { ControlClient } from '../control/client.js';
import { HttpClient } from '../http/client.js';
import type { Settings } from '../config/settings.js';
import { registerSecret } from '../secrets/mask.js';
import { RunAbort } from './errors.js';

export interface ResolvedTarget {
  baseUrl: string;
  controlUrl?: string;
  controlToken?: string;
  svcToken?: string;
  embeddedReference: boolean;
  environment?: 'staging' | 'production';
  stop(): Promise<void>;
}

const PROBE_TIMEOUT_MS = 5_000;

export async function resolveTarget(settings: Settings, allowProduction: boolean): Promise<ResolvedTarget> {
  const target = settings.SVC_BASE_URL ? fromSettings(settings) : await startEmbeddedReference();
  try {
    await probe(target, allowProduction);
  } catch (error) {
    await target.stop();
    throw error;
  }
  return target;
}

function fromSettings(settings: Settings): ResolvedTarget {
  registerSecret(settings.SVC_CONTROL_TOKEN);
  registerSecret(settings.SVC_TOKEN);
  return {
    baseUrl: settings.SVC_BASE_URL!,
    controlUrl: settings.SVC_CONTROL_URL,
    controlToken: settings.SVC_CONTROL_TOKEN,
    svcToken: settings.SVC_TOKEN,
    embeddedReference: false,
    stop: async () => undefined,
  };
}

async function startEmbeddedReference(): Promise<ResolvedTarget> {
  // Loaded on demand: a run against another implementation never loads the reference.
  const { startReference } = await import('../../reference/index.js');
  const reference = await startReference({ quiet: true });
  registerSecret(reference.controlToken);
  return {
    baseUrl: reference.baseUrl,
    controlUrl: reference.controlUrl,
    controlToken: reference.controlToken,
    embeddedReference: true,
    stop: () => reference.close(),
  };
}

async function probe(target: ResolvedTarget, allowProduction: boolean): Promise<void> {
  const http = new HttpClient(target.baseUrl, { timeoutMs: PROBE_TIMEOUT_MS });
  try {
    await http.request({ path: '/v1/whoami' });
  } catch (error) {
    throw new RunAbort(`target unreachable: ${target.baseUrl} (${(error as Error).message}); check SVC_BASE_URL`);
  } finally {
    await http.close();
  }
  if (target.svcToken?.startsWith('svc_live_') && !allowProduction) {
    throw new RunAbort('SVC_TOKEN is a production (svc_live_) token; certify staging, or pass --allow-production');
  }
  if (!target.controlUrl || !target.controlToken) return;
  const control = new ControlClient(target.controlUrl, target.controlToken, { timeoutMs: PROBE_TIMEOUT_MS });
  try {
    const capabilities = await control.capabilities();
    if (String(capabilities.contract) !== '1') {
      throw new RunAbort(`control interface speaks contract ${String(capabilities.contract)}, this harness contract 1`);
    }
    target.environment = capabilities.environment;
  } catch (error) {
    if (error instanceof RunAbort) throw error;
    throw new RunAbort(`control interface unusable at ${target.controlUrl}: ${(error as Error).message}; check SVC_CONTROL_URL and SVC_CONTROL_TOKEN`);
  } finally {
    await control.close();
  }
  if (target.environment === 'production' && !allowProduction) {
    throw new RunAbort('the control interface reports a production environment; certify staging, or pass --allow-production');
  }
}
