import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Agent } from 'undici';
import { CapturingReceiver } from '../../src/capturing-receiver/index.js';
import { createSelfSignedCertificate } from '../../src/tls/self-signed.js';
import { deliver, envelope, insecureAgent, SECRET } from './helpers.js';

let agent: Agent;
const receivers: CapturingReceiver[] = [];
/** Where the tests' own certificates go: removed after them, as a receiver removes the one it made. */
let certificateDir: string;

async function startReceiver(options: Parameters<typeof CapturingReceiver.start>[0] = {}): Promise<CapturingReceiver> {
  const receiver = await CapturingReceiver.start(options);
  receivers.push(receiver);
  return receiver;
}

beforeAll(() => {
  agent = insecureAgent();
  certificateDir = mkdtempSync(join(tmpdir(), 'lifecycle-certs-'));
});

afterAll(async () => {
  await agent.close();
  await Promise.all(receivers.map((r) => r.close()));
  rmSync(certificateDir, { recursive: true, force: true });
});

describe('capturing receiver: waiting, closing, settings', () => {
  it('waitFor resolves with the deliveries once the condition holds', async () => {
    const ep = (await startReceiver()).createEndpoint().setSecret(SECRET);
    const waiting = ep.waitFor((ds) => ds.some((d) => d.verdicts.eventId === 'evt_w'), { timeoutMs: 2_000 });
    await deliver(agent, ep, JSON.stringify(envelope({ id: 'evt_w' })));
    expect((await waiting).map((d) => d.verdicts.eventId)).toEqual(['evt_w']);
  });

  it('waitFor rejects on time-out with a message naming the wait, the endpoint and what arrived', async () => {
    const ep = (await startReceiver()).createEndpoint({ name: 'retries' }).setSecret(SECRET);
    await deliver(agent, ep, JSON.stringify(envelope({ id: 'evt_seen' })));
    await expect(
      ep.waitFor((ds) => ds.length >= 2, { timeoutMs: 50, description: 'a second attempt' }),
    ).rejects.toThrow(
      /^waitFor\(a second attempt\) on endpoint "retries" timed out after 50 ms with 1 deliveries; last: #1 voice\.call\.queued evt_seen attempt 1 -> 204$/,
    );
  });

  it("waitFor rejects with the predicate's own error when it throws", async () => {
    const ep = (await startReceiver()).createEndpoint();
    await expect(
      ep.waitFor(
        () => {
          throw new Error('bad predicate');
        },
        { timeoutMs: 1_000 },
      ),
    ).rejects.toThrow('bad predicate');
  });

  it('close() rejects a pending waitFor', async () => {
    const receiver = await CapturingReceiver.start();
    const waiting = receiver.createEndpoint({ name: 'late' }).waitFor(() => false, { timeoutMs: 10_000 });
    const rejected = expect(waiting).rejects.toThrow('waitFor on endpoint "late": the receiver closed');
    await receiver.close();
    await rejected;
  });

  it('uses the certificate it is given', async () => {
    const made = await createSelfSignedCertificate({
      hosts: ['127.0.0.1'],
      dir: mkdtempSync(join(certificateDir, 'given-')),
    });
    const receiver = await startReceiver({ tls: { cert: made.cert, key: made.key } });
    expect(receiver.certificatePem).toBe(made.cert);
    expect(receiver.certificatePath).toBeUndefined();
    expect((await deliver(agent, receiver.createEndpoint(), '{}')).status).toBe(204);
  });

  it('makes a self-signed P-256 certificate for loopback, valid one day, key readable by its owner only', async () => {
    const made = await createSelfSignedCertificate({
      hosts: ['127.0.0.1', 'receiver.test'],
      dir: mkdtempSync(join(certificateDir, 'made-')),
    });
    const cert = new X509Certificate(made.cert);
    expect(cert.subjectAltName).toBe('IP Address:127.0.0.1, DNS:receiver.test');
    expect(cert.publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    expect(Date.parse(cert.validTo) - Date.parse(cert.validFrom)).toBe(86_400_000);
    expect(statSync(made.keyPath).mode & 0o777).toBe(0o600);
  });

  it('refuses a host that could smuggle extra certificate entries', async () => {
    await expect(createSelfSignedCertificate({ hosts: ['a.test,IP:10.0.0.1'] })).rejects.toThrow(TypeError);
  });

  it('builds endpoint URLs on the public URL it is given', async () => {
    const receiver = await startReceiver({ publicUrl: 'https://tunnel.example.test/' });
    const ep = receiver.createEndpoint({ name: 'via-tunnel' });
    expect(ep.url).toMatch(/^https:\/\/tunnel\.example\.test\/Hooks\/[A-Za-z0-9_-]+$/);
  });

  it('a catch-all endpoint takes every path no other endpoint owns', async () => {
    const receiver = await startReceiver();
    const named = receiver.createEndpoint();
    const all = receiver.createEndpoint({ path: '*', name: 'all' });
    await deliver(agent, `${receiver.publicUrl}/anything/at/all`, '{}');
    await deliver(agent, named, '{}');
    expect(all.deliveries.map((d) => d.path)).toEqual(['/anything/at/all']);
    expect(named.deliveries).toHaveLength(1);
  });

  it('refuses two endpoints with one name or one path', async () => {
    const receiver = await startReceiver();
    receiver.createEndpoint({ name: 'one', path: '/one' });
    expect(() => receiver.createEndpoint({ name: 'one' })).toThrow(/named "one"/);
    expect(() => receiver.createEndpoint({ path: '/one' })).toThrow(/at \/one/);
    expect(() => receiver.createEndpoint({ path: '/_stats' })).toThrow(TypeError);
  });
});
