/**
 * One reference serves every fault run of the fast tier: each run selects its fault by URL
 * prefix. The full tier's runs get a second one that declares the spec's real 30 s delivery
 * time-out, so that HOOK-TIMEOUT-30S measures it rather than skipping. A third serves only the
 * faults at the early edge of a tolerance (`calm` in the registry): the shared one, busy with
 * every other run, fires its timers late enough to hide a retry early by a tenth. It runs in a
 * process of its own (`svc-harness reference`): the other two share this one's event loop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startReference, type RunningReference } from '../../reference/index.js';
import { BIN, ROOT, withoutSettings } from '../support/child.js';

const CALM_START_LIMIT_MS = 60_000;

let reference: RunningReference | undefined;
let realTimeoutReference: RunningReference | undefined;
let calmReference: { process: ChildProcess; urls: ReferenceUrls } | undefined;
let calmTokenDir: string | undefined;

/** `svc-harness reference` in a process of its own, once its banner names its URLs. */
function startReferenceProcess(tokenDir: string): Promise<{ process: ChildProcess; urls: ReferenceUrls }> {
  const controlToken = `ctl_test_fake_${randomBytes(16).toString('hex')}`;
  const child = spawn(process.execPath, [BIN, 'reference'], {
    cwd: ROOT,
    env: {
      ...withoutSettings(),
      REFERENCE_PORT: '0',
      REFERENCE_CONTROL_TOKEN: controlToken,
      // Written where nothing else reads it, and removed with its folder.
      REFERENCE_TOKEN_FILE: join(tokenDir, 'control-token'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let banner = '';
  return new Promise((done, failed) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      failed(new Error(`the calm reference did not listen within ${CALM_START_LIMIT_MS} ms: ${banner}`));
    }, CALM_START_LIMIT_MS);
    const read = (chunk: Buffer) => {
      if (banner.length < 65_536) banner += chunk.toString('utf8');
      const base = /base URL:\s+(\S+)/.exec(banner);
      const control = /control URL:\s+(\S+)/.exec(banner);
      if (!base || !control) return;
      clearTimeout(timer);
      child.stdout!.off('data', read);
      child.stdout!.resume();
      child.stderr!.resume();
      done({ process: child, urls: { baseUrl: base[1]!, controlUrl: control[1]!, controlToken } });
    };
    child.stdout!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      failed(new Error(`the calm reference exited (${code}) before listening: ${banner}`));
    });
  });
}

export async function setup(project: TestProject): Promise<void> {
  reference = await startReference({ quiet: true });
  realTimeoutReference = await startReference({ quiet: true, deliveryTimeoutMs: 30_000 });
  calmTokenDir = mkdtempSync(join(tmpdir(), 'calm-reference-'));
  calmReference = await startReferenceProcess(calmTokenDir);
  project.provide('reference', urlsOf(reference));
  project.provide('realTimeoutReference', urlsOf(realTimeoutReference));
  project.provide('calmReference', calmReference.urls);
}

export async function teardown(): Promise<void> {
  await reference?.close();
  await realTimeoutReference?.close();
  if (calmReference && calmReference.process.exitCode === null) {
    const exited = new Promise((done) => calmReference!.process.once('exit', done));
    calmReference.process.kill('SIGTERM');
    await exited;
  }
  if (calmTokenDir) rmSync(calmTokenDir, { recursive: true, force: true });
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
    calmReference: ReferenceUrls;
  }
}
