import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReference, type RunningReference } from '../../reference/index.js';
import { ControlClient } from '../../src/control/client.js';
import { RunAbort } from '../../src/errors.js';
import { probeReach } from '../../src/runner/reach.js';
import type { RunContext } from '../../src/suite/run-context.js';
import { createSelfSignedCertificate } from '../../src/tls/self-signed.js';

// Port 9 (discard) has no listener on loopback: a public URL there is one the service cannot reach.
const NOWHERE = '127.0.0.1:9';

describe('the reach probe', () => {
  let reference: RunningReference;
  let control: ControlClient;
  let dir: string;
  let run: RunContext;

  beforeAll(async () => {
    reference = await startReference({ quiet: true });
    control = new ControlClient(reference.controlUrl, reference.controlToken, { timeoutMs: 5_000 });
    dir = mkdtempSync(join(tmpdir(), 'reach-'));
    const tls = await createSelfSignedCertificate({ hosts: ['127.0.0.1'], dir });
    run = {
      baseUrl: reference.baseUrl,
      tier: 'fast',
      embeddedReference: true,
      receiver: { port: 0, certPath: tls.certPath, keyPath: tls.keyPath },
      idp: { host: '127.0.0.1', port: 0 },
      createdResourcesPath: join(dir, 'created-resources.jsonl'),
      network: { insecureTls: true },
      seed: 1,
    };
  });

  afterAll(async () => {
    await control.close();
    await reference.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('passes when the target reaches both', async () => {
    await expect(probeReach(run, control, 5_000)).resolves.toBeUndefined();
  });

  test('a probe the target cannot be asked to make proves nothing: it says why and does not refuse', async () => {
    const refusing = new ControlClient(reference.controlUrl, 'not-the-control-token', { timeoutMs: 5_000 });
    try {
      await expect(probeReach(run, refusing, 1_000)).resolves.toMatch(/answered 401/);
    } finally {
      await refusing.close();
    }
  });

  test('goes on, with a note, when the probe delivery comes to another path of the receiver', async () => {
    // The reference's fault endpoint-url-lowercased stores every endpoint URL in lower case.
    const prefixed = `${reference.baseUrl}/faults/endpoint-url-lowercased`;
    const lowercasing = new ControlClient(
      reference.controlUrl.replace(reference.baseUrl, prefixed),
      reference.controlToken,
      {
        timeoutMs: 5_000,
      },
    );
    try {
      await expect(probeReach(run, lowercasing, 2_000)).resolves.toMatch(
        /^the probe delivery for https:\/\/\S+\/Hooks\/\S+ came to the path "\/hooks\/[a-z0-9_-]+" instead$/,
      );
    } finally {
      await lowercasing.close();
    }
  });

  test('a target that mishandles one event type still reaches the receiver: the checks judge the type', async () => {
    // The reference's fault subscription-workspace-type-unmatched delivers no workspace.* event to
    // an endpoint subscribed to it by name (round 23 stopped the run here, read as the network).
    const prefixed = `${reference.baseUrl}/faults/subscription-workspace-type-unmatched`;
    const oneTypeLost = new ControlClient(
      reference.controlUrl.replace(reference.baseUrl, prefixed),
      reference.controlToken,
      {
        timeoutMs: 5_000,
      },
    );
    try {
      await expect(probeReach(run, oneTypeLost, 5_000)).resolves.toBeUndefined();
    } finally {
      await oneTypeLost.close();
    }
  });

  test('refuses a target that cannot reach the identity provider, naming IDP_PUBLIC_URL', async () => {
    const refused = probeReach({ ...run, idp: { ...run.idp, publicUrl: `http://${NOWHERE}` } }, control, 5_000);
    await expect(refused).rejects.toBeInstanceOf(RunAbort);
    await expect(refused).rejects.toThrow(/^the target cannot reach the identity provider: .* set IDP_PUBLIC_URL/);
  });

  test('refuses a target that cannot reach the receiver, naming RECEIVER_PUBLIC_URL', async () => {
    const refused = probeReach(
      { ...run, receiver: { ...run.receiver, publicUrl: `https://${NOWHERE}` } },
      control,
      1_000,
    );
    await expect(refused).rejects.toThrow(
      /^the target cannot reach the receiver: no probe delivery .* within 1 s; .*set RECEIVER_PUBLIC_URL/,
    );
    await expect(refused).rejects.not.toThrow(/identity provider/);
  });
});
