/**
 * `svc-harness send`: one signed event, and the receiver's answer. Against the project's
 * capturing receiver (which checks signature and timestamp) and the example receivers on
 * express (examples/receivers/): accepted when signed right, refused with a bad secret or
 * a timestamp outside the 300 s window; the secret never printed.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Express } from 'express';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createReceiverApp as rawBodyReceiver } from '../../examples/receivers/express-raw-body.js';
import { createReceiverApp as reserializingReceiver } from '../../examples/receivers/express-json-reserialized.js';
import { main } from '../../src/cli/main.js';
import { CapturingReceiver, type ReceiverEndpoint } from '../../src/capturing-receiver/index.js';
import { createSelfSignedCertificate, type SelfSignedCertificate } from '../../src/tls/self-signed.js';
import { serveHttps, type ServedApp } from '../support/serve-app.js';

const SECRET = 'whsec_send_command_5ecret';
const OTHER_SECRET = 'whsec_not_the_receivers_one';

let dir: string;
let secretFile: string;
let otherSecretFile: string;
let capturing: CapturingReceiver;
let endpoint: ReceiverEndpoint;
let tls: SelfSignedCertificate;
const served: ServedApp[] = [];
const urls: Record<string, string> = {};

async function serve(app: Express): Promise<string> {
  const handle = await serveHttps(app, tls);
  served.push(handle);
  return handle.url;
}

/** `svc-harness send …` in this process, as main runs it: its exit code and what it printed. */
async function send(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true));
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (err.push(String(chunk)), true));
  try {
    const code = await main(['send', ...args]);
    return { code, stdout: out.join(''), stderr: err.join('') };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'send-'));
  secretFile = join(dir, 'secret.txt');
  otherSecretFile = join(dir, 'other.txt');
  writeFileSync(secretFile, `${SECRET}\n`);
  writeFileSync(otherSecretFile, `${OTHER_SECRET}\n`);
  capturing = await CapturingReceiver.start({});
  endpoint = capturing.createEndpoint({ path: '*', rejectStaleTimestamp: true }).setSecret(SECRET);
  urls.capturing = `${capturing.publicUrl}/hooks/dev`;
  tls = await createSelfSignedCertificate({ hosts: ['127.0.0.1'] });
  urls['raw-body'] = await serve(rawBodyReceiver(SECRET));
  urls.reserialized = await serve(reserializingReceiver(SECRET));
});

afterAll(async () => {
  await capturing?.close();
  await Promise.all(served.map((app) => app.close()));
  if (tls) rmSync(dirname(tls.certPath), { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
});

describe.each(['capturing', 'raw-body', 'reserialized'])('svc-harness send to the %s receiver', (name) => {
  it('a signed event is accepted: exit 0, its status printed, the secret never', async () => {
    const run = await send('voice.call.completed', '--to', urls[name]!, '--secret-file', secretFile);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^sent voice\.call\.completed evt_\w+ to https:\/\/127\.0\.0\.1:\d+\/\S+, timestamp \d{10}\nanswer: 204 in \d+ ms\n/,
    );
    expect(run.stdout).not.toContain(SECRET);
  });

  it('signed with another secret: refused, exit 1', async () => {
    const run = await send('voice.call.completed', '--to', urls[name]!, '--secret-file', otherSecretFile);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/answer: 401 /);
    expect(run.stdout).not.toContain(OTHER_SECRET);
  });

  it('a timestamp 301 s old: refused, exit 1; 298 s old (whole seconds, rounded down): accepted', async () => {
    const old = await send(
      'mailer.email.sent',
      '--to',
      urls[name]!,
      '--secret-file',
      secretFile,
      '--timestamp-offset=-301',
    );
    expect(old.stdout).toMatch(/\(-301 s from now\)/);
    expect(old.stdout).toMatch(/answer: 401 /);
    expect(old.code).toBe(1);
    const recent = await send(
      'mailer.email.sent',
      '--to',
      urls[name]!,
      '--secret-file',
      secretFile,
      '--timestamp-offset=-298',
    );
    expect(recent.code).toBe(0);
  });
});

describe('svc-harness send', () => {
  it('--replay delivers the same id again with a fresh signature: the capturing receiver sees a duplicate', async () => {
    const first = await send('voice.call.queued', '--to', urls.capturing!, '--secret-file', secretFile);
    const id = /evt_\w+/.exec(first.stdout)![0];
    const again = await send('voice.call.queued', '--to', urls.capturing!, '--secret-file', secretFile, '--replay', id);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`sent a replay of voice.call.queued ${id} `);
    const deliveries = endpoint.deliveries.filter((delivery) => delivery.verdicts.eventId === id);
    expect(deliveries.map((delivery) => delivery.verdicts.duplicate)).toEqual([false, true]);
    expect(deliveries.map((delivery) => delivery.verdicts.signature)).toEqual([{ ok: true }, { ok: true }]);
  });

  it('takes the secret and URL from the TARGET_RECEIVER_ settings', async () => {
    vi.stubEnv('TARGET_RECEIVER_URL', urls['raw-body']!);
    vi.stubEnv('TARGET_RECEIVER_SECRET', SECRET);
    try {
      const run = await send('voice.call.failed');
      expect(run.code).toBe(0);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('exits 2 on bad usage, naming what to fix', async () => {
    const unknownType = await send('voice.call.exploded', '--to', urls.capturing!, '--secret-file', secretFile);
    expect(unknownType.code).toBe(2);
    expect(unknownType.stderr).toMatch(/unknown event type "voice\.call\.exploded"; one of: voice\.call\.queued/);
    const noSecret = await send('voice.call.completed', '--to', urls.capturing!);
    expect(noSecret.code).toBe(2);
    expect(noSecret.stderr).toMatch(/TARGET_RECEIVER_SECRET or TARGET_RECEIVER_SECRET_FILE is required/);
    const badOffset = await send(
      'voice.call.completed',
      '--to',
      urls.capturing!,
      '--secret-file',
      secretFile,
      '--timestamp-offset',
      'soon',
    );
    expect(badOffset.code).toBe(2);
    expect(badOffset.stderr).toMatch(/--timestamp-offset takes whole seconds/);
  });

  it('exits 2 when nothing answers, within its time-out', async () => {
    const gone = await serveHttps(rawBodyReceiver(SECRET), tls);
    await gone.close();
    const run = await send('voice.call.completed', '--to', gone.url, '--secret-file', secretFile);
    expect(run.code).toBe(2);
    expect(run.stdout).toMatch(/answer: no answer/);
    expect(run.stderr).toMatch(/no answer from https:\/\/127\.0\.0\.1:\d+\/webhooks/);
  });
});
