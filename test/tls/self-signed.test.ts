/** The receiver's certificate, made per run: every host in its subjectAltName, the key private. */
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { createSelfSignedCertificate } from '../../src/tls/self-signed.js';

const dir = mkdtempSync(join(tmpdir(), 'self-signed-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('createSelfSignedCertificate', () => {
  test('lists every host as an IP or DNS subjectAltName, for a server, valid a day, its key 0600', async () => {
    const made = await createSelfSignedCertificate({
      hosts: ['127.0.0.1', '::1', 'receiver.test', '*.hooks.test'],
      dir,
    });
    const cert = new X509Certificate(made.cert);
    expect(cert.subjectAltName).toContain('IP Address:127.0.0.1');
    expect(cert.subjectAltName).toContain('DNS:receiver.test');
    expect(cert.subjectAltName).toContain('DNS:*.hooks.test');
    expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(cert.ca).toBe(false);
    const lifetimeMs = Date.parse(cert.validTo) - Date.parse(cert.validFrom);
    expect(lifetimeMs).toBeGreaterThan(23 * 3_600_000);
    expect(lifetimeMs).toBeLessThanOrEqual(24 * 3_600_000 + 1_000);
    expect(statSync(made.keyPath).mode & 0o777).toBe(0o600);
    expect(made.key).toContain('PRIVATE KEY');
  });

  test('refuses a host that could add an entry or an option (a comma), and none at all', async () => {
    await expect(createSelfSignedCertificate({ hosts: ['a.test,DNS:evil.test'], dir })).rejects.toThrow(
      'not an IP address or DNS name',
    );
    await expect(createSelfSignedCertificate({ hosts: [], dir })).rejects.toThrow('needs at least one host');
  });
});
