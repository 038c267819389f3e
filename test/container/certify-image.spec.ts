/**
 * `SVC_IMAGE=… npm run certify` on a real engine: the reference image certified through
 * testcontainers with no failure, a never-ready image refused with exit 2 within its
 * start-up time-out, and no container of the harness left afterwards. Without a reachable
 * engine every test here is skipped with the reason, never passed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { engineProblem, harnessContainers } from './engine.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildImage, chooseBuilder, DEFAULT_IMAGE } from '../../scripts/image.js';
import { runCertify } from '../faults/certify-child.js';

const NEVER_READY_IMAGE = 'localhost/svc-never-ready:test';
const BROKEN_TIMEOUT_MS = 5_000;

let noEngine: string | undefined;

/** The reference image with an entry point that never listens. */
function buildNeverReadyImage(base: string): void {
  const context = mkdtempSync(join(tmpdir(), 'never-ready-'));
  try {
    const containerfile = `FROM ${base}\nENTRYPOINT ["/usr/bin/node", "-e", "console.log('never ready'); setInterval(() => {}, 1 << 30)"]\n`;
    writeFileSync(join(context, 'Containerfile'), containerfile);
    const result = spawnSync(
      chooseBuilder(),
      ['build', '-q', '-t', NEVER_READY_IMAGE, '-f', join(context, 'Containerfile'), context],
      { encoding: 'utf8' },
    );
    if (result.status !== 0) throw new Error(`building ${NEVER_READY_IMAGE} failed: ${result.stderr}`);
  } finally {
    rmSync(context, { recursive: true, force: true });
  }
}

describe('certify a container image', () => {
  let image = DEFAULT_IMAGE;

  beforeAll(async () => {
    noEngine = await engineProblem();
    if (noEngine) {
      process.stderr.write(`test/container: skipped: ${noEngine}\n`);
      return;
    }
    image = await buildImage(process.env.IMAGE_NAME || DEFAULT_IMAGE, () => undefined);
    buildNeverReadyImage(image);
  });

  it('certifies the reference image with no failure and leaves no container', async (t) => {
    if (noEngine) return t.skip(noEngine);
    const run = await runCertify({ SVC_IMAGE: image });
    expect(run.exitCode, run.output.slice(-3000)).toBe(0);
    expect(run.report?.summary.fail).toBe(0);
    expect(run.report?.summary.pass).toBeGreaterThan(0);
    expect(run.report?.target.embedded_reference).toBe(false);
    // The reports name what was certified by the id the engine gives the image.
    const id = spawnSync(chooseBuilder(), ['image', 'inspect', '--format', '{{.Id}}', image], { encoding: 'utf8' })
      .stdout.trim()
      .replace(/^sha256:/, '');
    expect(run.report?.provenance?.image).toMatchObject({ reference: image, digest: `sha256:${id}` });
    expect(await harnessContainers()).toEqual([]);
  });

  it('refuses an image that never becomes ready with exit 2 and one line, within its start-up time-out', async (t) => {
    if (noEngine) return t.skip(noEngine);
    const started = performance.now();
    const run = await runCertify({
      SVC_IMAGE: NEVER_READY_IMAGE,
      SVC_IMAGE_STARTUP_TIMEOUT_MS: String(BROKEN_TIMEOUT_MS),
    });
    const elapsedMs = performance.now() - started;
    expect(run.exitCode, run.output).toBe(2);
    const reasons = run.output.split('\n').filter((line) => line.startsWith('certify: '));
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatch(/SVC_IMAGE_STARTUP_TIMEOUT_MS=5000.*never ready/);
    // The time-out, plus the child's start (tsx) and the container's creation and removal.
    expect(elapsedMs).toBeLessThan(BROKEN_TIMEOUT_MS + 15_000);
    expect(await harnessContainers()).toEqual([]);
  });
});
