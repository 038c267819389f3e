/**
 * One reference serves every fault run of the fast tier: each run selects its fault by URL
 * prefix. The full tier's runs get a second one that declares the spec's real 30 s delivery
 * time-out, so that HOOK-TIMEOUT-30S measures it rather than skipping.
 */
import type { TestProject } from 'vitest/node';
import { startReference, type RunningReference } from '../../reference/index.js';

let reference: RunningReference | undefined;
let realTimeoutReference: RunningReference | undefined;

export async function setup(project: TestProject): Promise<void> {
  reference = await startReference({ quiet: true });
  realTimeoutReference = await startReference({ quiet: true, deliveryTimeoutMs: 30_000 });
  project.provide('reference', urlsOf(reference));
  project.provide('realTimeoutReference', urlsOf(realTimeoutReference));
}

export async function teardown(): Promise<void> {
  await reference?.close();
  await realTimeoutReference?.close();
}

function urlsOf(running: RunningReference): ReferenceUrls {
  return { baseUrl: running.baseUrl, controlUrl: running.controlUrl, controlToken: running.controlToken };
}

interface ReferenceUrls {
  baseUrl: string;
  controlUrl: string;
  controlToken: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    reference: ReferenceUrls;
    realTimeoutReference: ReferenceUrls;
  }
}
