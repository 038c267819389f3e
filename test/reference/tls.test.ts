import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReference, type RunningReference } from '../../reference/index.js';

// The reference over HTTPS from a private CA, with and without client certificates
// required. The CA and every certificate are made here with openssl, in a temp dir that
// is removed afterwards: no key material is committed.

let dir: string;
const path = (name: string) => join(dir, name);

function openssl(...args: string[]): void {
  execFileSync('openssl', args, { stdio: 'ignore' });
}

/** A CA: a self-signed certificate allowed to sign others. */
function makeCa(name: string): void {
  openssl(
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '1',
    '-subj',
    `/CN=${name}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
    '-keyout',
    path(`${name}-key.pem`),
    '-out',
    path(`${name}.pem`),
  );
}

/** A leaf certificate signed by `ca`, with the given extensions. */
function makeLeaf(name: string, ca: string, extensions: string): void {
  openssl(
    'req',
    '-new',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-subj',
    `/CN=${name}`,
    '-keyout',
    path(`${name}-key.pem`),
    '-out',
    path(`${name}.csr`),
  );
  writeFileSync(path(`${name}.ext`), extensions);
  openssl(
    'x509',
    '-req',
    '-in',
    path(`${name}.csr`),
    '-CA',
    path(`${ca}.pem`),
    '-CAkey',
    path(`${ca}-key.pem`),
    '-set_serial',
    String(Date.now()),
    '-days',
    '1',
    '-extfile',
    path(`${name}.ext`),
    '-out',
    path(`${name}.pem`),
  );
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'reference-tls-test-'));
  makeCa('ca');
  makeCa('other-ca');
  makeLeaf('server', 'ca', 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  makeLeaf('client', 'ca', 'extendedKeyUsage=clientAuth\n');
  makeLeaf('stranger', 'other-ca', 'extendedKeyUsage=clientAuth\n');
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** GET over HTTPS trusting only the private CA, optionally presenting a client certificate. */
function get(url: string, client?: 'client' | 'stranger'): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        agent: false,
        ca: readFileSync(path('ca.pem')),
        ...(client ? { cert: readFileSync(path(`${client}.pem`)), key: readFileSync(path(`${client}-key.pem`)) } : {}),
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('reference over TLS from a private CA', () => {
  let reference: RunningReference;
  afterAll(async () => reference?.close());

  test('serves the API and the control interface on https', async () => {
    reference = await startReference({
      quiet: true,
      tls: { certPath: path('server.pem'), keyPath: path('server-key.pem') },
    });
    expect(reference.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(await get(reference.baseUrl + '/v1/whoami')).toBe(401);
    expect(await get(reference.controlUrl + '/capabilities')).toBe(401);
  });
});

describe('reference with mutual TLS', () => {
  let reference: RunningReference;
  beforeAll(async () => {
    reference = await startReference({
      quiet: true,
      tls: { certPath: path('server.pem'), keyPath: path('server-key.pem'), clientCaPath: path('ca.pem') },
    });
  });
  afterAll(async () => reference?.close());

  test('a client without a certificate is refused at the handshake', async () => {
    await expect(get(reference.baseUrl + '/v1/whoami')).rejects.toThrow();
  });

  test('a client with a certificate from another CA is refused', async () => {
    await expect(get(reference.controlUrl + '/capabilities', 'stranger')).rejects.toThrow();
  });

  test('a client with a certificate from the CA is served', async () => {
    expect(await get(reference.baseUrl + '/v1/whoami', 'client')).toBe(401);
    expect(await get(reference.controlUrl + '/capabilities', 'client')).toBe(401);
  });

  test('a missing certificate file is named in the error', async () => {
    await expect(
      startReference({ quiet: true, tls: { certPath: path('absent.pem'), keyPath: path('server-key.pem') } }),
    ).rejects.toThrow(/tls\.certPath: cannot read .*absent\.pem/);
  });
});
