/** One reference process serves every fault run: each run selects its fault by URL prefix. */
import type { TestProject } from 'vitest/node';
import { startReference, type RunningReference } from '../../reference/index.js';

let reference: RunningReference | undefined;

export async function setup(project: TestProject): Promise<void> {
  reference = await startReference({ quiet: true });
  project.provide('reference', { baseUrl: reference.baseUrl, controlUrl: reference.controlUrl, controlToken: reference.controlToken });
}

export async function teardown(): Promise<void> {
  await reference?.close();
}

declare module 'vitest' {
  export interface ProvidedContext {
    reference: { baseUrl: string; controlUrl: string; controlToken: string };
  }
}
