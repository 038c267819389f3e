/**
 * No secret in anything a run prints or writes: recognisable secrets are seeded (the
 * control token, SVC_TOKEN) and learned (tokens and signing secrets the target hands out,
 * JWTs the run sends), then every output line and every file the run left is scanned, in a
 * passing run, a failing run whose target echoes credentials back, and an interrupted run.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../../reference/index.js';
import { runCertifyChild, type ChildResult } from './child.js';
import { leaks } from './scan.js';
import { startHostileServer, type HostileServer } from './server.js';
import { when } from './target-state.js';

const CONTROL_TOKEN = `ctl_CANARYcontrol${randomBytes(16).toString('hex')}`;
/** Checks that handle every kind of secret: tokens, session JWTs, webhook signing secrets. */
const CHECKS =
  'AUTH-WHOAMI-ACCEPTED,AUTH-UNKNOWN-TOKEN,TOKEN-LIMIT-TWO,SESSION-VALID,SESSION-ALG-NONE,SESSION-EXPIRED,HOOK-SIGNATURE-RAW-BODY,HOOK-OWN-SECRET';

let reference: RunningReference;
let hostile: HostileServer;
let svcToken: string;

beforeAll(async () => {
  reference = await startReference({ quiet: true, controlToken: CONTROL_TOKEN });
  hostile = await startHostileServer(reference.baseUrl);
  const control = (path: string, body: unknown) =>
    fetch(`${reference.controlUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${CONTROL_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((res) => res.json() as Promise<Record<string, string>>);
  const { workspace_id: ws } = await control('/workspaces', {});
  svcToken = (await control(`/workspaces/${ws}/tokens`, { label: 'canary' })).token!;
});

afterAll(async () => {
  await hostile?.close();
  await reference?.close();
});

function expectNoLeak(run: ChildResult, name: string): void {
  const secrets = [CONTROL_TOKEN, svcToken, ...hostile.record(name).secrets];
  // The scan must have something to find: JWTs and signing secrets passed through the run.
  expect(
    secrets.some((secret) => secret.startsWith('eyJ')) || name === 'leak-interrupted',
    `${name}: no JWT was seen`,
  ).toBe(true);
  expect(run.files.size, `${name}: no file written`).toBeGreaterThan(0);
  expect(leaks(run, secrets)).toEqual([]);
}

const settings = (name: string, behaviour: 'none' | 'echo-secrets', checks = CHECKS) => {
  const urls = hostile.urls(name, behaviour, 'api');
  return {
    SVC_BASE_URL: urls.baseUrl,
    SVC_CONTROL_URL: urls.controlUrl,
    SVC_CONTROL_TOKEN: CONTROL_TOKEN,
    SVC_TOKEN: svcToken,
    CERTIFY_CHECKS: checks,
  };
};

describe.concurrent('secrets never leak', () => {
  it('in a passing run', async () => {
    const run = await runCertifyChild({ settings: settings('leak-pass', 'none') });
    expect(run.exitCode, run.stdout.slice(-3000) + run.stderr).toBe(0);
    expectNoLeak(run, 'leak-pass');
  });

  it('in a failing run whose target echoes every credential back', async () => {
    const run = await runCertifyChild({ settings: settings('leak-fail', 'echo-secrets') });
    expect(run.exitCode, run.stdout.slice(-3000) + run.stderr).toBe(1);
    expect(
      run.report!.checks.some((check) => /you sent/.test(check.detail ?? '')),
      'the echoed credentials never reached a reason',
    ).toBe(true);
    expectNoLeak(run, 'leak-fail');
  });

  it('in an interrupted run', async () => {
    const run = await runCertifyChild({
      settings: settings('leak-interrupted', 'none', 'REVOKE-*,HOOK-REPLAY-*'),
      interrupt: {
        signal: 'SIGINT',
        group: true,
        at: when(hostile.record('leak-interrupted'), /^DELETE \/_control\/workspaces\/[^/]+\/tokens\//, 1_000),
      },
    });
    expect(run.exitCode, run.stdout.slice(-3000) + run.stderr).toBe(130);
    expectNoLeak(run, 'leak-interrupted');
  });
});
