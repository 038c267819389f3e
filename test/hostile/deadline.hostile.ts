/**
 * The whole-run deadline (src/runner/deadline.ts): a target that keeps every check at its
 * time-out cannot hold a run past it. Shown with a short deadline on a target that never answers.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../../reference/index.js';
import { runCertifyChild } from './child.js';
import { hasStackTrace } from './scan.js';
import { startHostileServer, type HostileServer } from './server.js';
import { leftovers } from './target-state.js';

let reference: RunningReference;
let hostile: HostileServer;

beforeAll(async () => {
  reference = await startReference({ quiet: true });
  hostile = await startHostileServer(reference.baseUrl);
});

afterAll(async () => {
  await hostile?.close();
  await reference?.close();
});

it('a run that reaches its deadline stops, cleans up, reports the unfinished checks as failed, exit 1', async () => {
  const deadlineMs = 8_000;
  const urls = hostile.urls('deadline', 'hang', 'api');
  const run = await runCertifyChild({
    script: 'test/hostile/certify-deadline.ts',
    settings: {
      SVC_BASE_URL: urls.baseUrl,
      SVC_CONTROL_URL: urls.controlUrl,
      SVC_CONTROL_TOKEN: reference.controlToken,
      CERTIFY_CHECKS: 'AUTH-WHOAMI-ACCEPTED,SCOPE-AGENTS-READ,REVOKE-PROPAGATION',
    },
    env: { HOSTILE_DEADLINE_MS: String(deadlineMs) },
    mark: /deadline of 8 s passed/,
  });
  const output = `${run.stdout}\n${run.stderr}`;
  expect(run.exitCode, output).toBe(1);
  expect(output).toMatch(/deadline of 8 s passed/);
  // From the deadline: the grace for running checks, closing the runner and the clean-up.
  // Timed from the run's own stop line, not its spawn: a CI machine loaded by the other
  // hostile runs can take longer to start the child than this bound allows.
  expect(run.afterMarkMs).toBeLessThan(20_000);
  const unfinished = run.report!.checks.filter((check) => /deadline/.test(check.detail ?? ''));
  expect(unfinished.length).toBeGreaterThan(0);
  for (const check of unfinished) expect(check.verdict).toBe('fail');
  expect(hasStackTrace(output), output).toBe(false);
  expect(await leftovers(reference, hostile.record('deadline'))).toEqual([]);
});
