/** Signing keys and DSSE (src/attest/): which keys are taken, what a refusal says, PAE and signatures. */
import { execFileSync } from 'node:child_process';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pae, signatureVerifies, signEnvelope } from '../../src/attest/dsse.js';
import { loadSigningKey, loadVerifyingKey } from '../../src/attest/keys.js';
import { SigningKeyError } from '../../src/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'attest-keys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function pemFile(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const ed = generateKeyPairSync('ed25519');
const EC_KEY = pemFile('ec.pem', ec.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string);
const ED_KEY = pemFile('ed.pem', ed.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string);

/** Every line of a PEM's body: none may appear in a message. */
const bodyLines = (pem: string) => pem.split('\n').filter((line) => line && !line.startsWith('-----'));

describe('signing keys', () => {
  it('takes PKCS#8 ECDSA P-256 and Ed25519 keys, with the keyid openssl gives: sha256 of the SPKI DER', () => {
    for (const [path, algorithm] of [
      [EC_KEY, 'ecdsa-p256'],
      [ED_KEY, 'ed25519'],
    ] as const) {
      const key = loadSigningKey(path);
      expect(key.algorithm).toBe(algorithm);
      const der = execFileSync('openssl', ['pkey', '-in', path, '-pubout', '-outform', 'DER']);
      expect(key.keyid).toBe(createHash('sha256').update(der).digest('hex'));
      expect(
        loadVerifyingKey(
          pemFile(`${algorithm}.pub.pem`, key.publicKey.export({ type: 'spki', format: 'pem' }) as string),
        ).keyid,
      ).toBe(key.keyid);
    }
  });

  it.each([
    [
      'an RSA key',
      () =>
        generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
          type: 'pkcs8',
          format: 'pem',
        }) as string,
      /is a key of type RSA; give an ECDSA P-256 or Ed25519 key/,
    ],
    [
      'a P-384 key',
      () =>
        generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey.export({
          type: 'pkcs8',
          format: 'pem',
        }) as string,
      /is an EC key on curve secp384r1; give an ECDSA P-256 or Ed25519 key/,
    ],
    [
      'an encrypted key',
      () =>
        ec.privateKey.export({
          type: 'pkcs8',
          format: 'pem',
          cipher: 'aes-256-cbc',
          passphrase: 'fake-passphrase',
        }) as string,
      /is encrypted/,
    ],
    [
      'a SEC1 key',
      () => ec.privateKey.export({ type: 'sec1', format: 'pem' }) as string,
      /not a PKCS#8 PEM private key: it holds an "EC PRIVATE KEY".*openssl pkcs8 -topk8/,
    ],
    [
      'a public key',
      () => ec.publicKey.export({ type: 'spki', format: 'pem' }) as string,
      /not a PKCS#8 PEM private key: it holds no PEM private key/,
    ],
  ])('refuses %s, naming the setting and what to do, never its material', (name, pem, message) => {
    const text = pem();
    const path = pemFile(`${name.replaceAll(' ', '-')}.pem`, text);
    let error: unknown;
    try {
      loadSigningKey(path);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SigningKeyError);
    expect((error as Error).message).toMatch(/^CERTIFY_SIGNING_KEY /);
    expect((error as Error).message).toMatch(message);
    for (const line of bodyLines(text)) expect((error as Error).message).not.toContain(line);
  });

  it('refuses a missing file', () => {
    expect(() => loadSigningKey(join(dir, 'absent.pem'))).toThrow(
      /CERTIFY_SIGNING_KEY .*absent\.pem: cannot read it \(ENOENT\)/,
    );
  });
});

describe('DSSE', () => {
  it("encodes PAE as the protocol's example states it", () => {
    expect(pae('http://example.com/HelloWorld', Buffer.from('hello world')).toString()).toBe(
      'DSSEv1 29 http://example.com/HelloWorld 11 hello world',
    );
    // Lengths count bytes, not characters.
    expect(pae('t', Buffer.from('é')).toString()).toBe('DSSEv1 1 t 2 é');
  });

  it('signs so that the same key verifies and any change to the payload or type does not; ECDSA signatures are DER', () => {
    for (const path of [EC_KEY, ED_KEY]) {
      const key = loadSigningKey(path);
      const envelope = signEnvelope(Buffer.from('{"a":1}'), 'application/vnd.in-toto+json', key);
      const [signature] = envelope.signatures;
      expect(signatureVerifies(envelope, signature!, key)).toBe(true);
      expect(
        signatureVerifies({ ...envelope, payload: Buffer.from('{"a":2}').toString('base64') }, signature!, key),
      ).toBe(false);
      expect(signatureVerifies({ ...envelope, payloadType: 'application/json' }, signature!, key)).toBe(false);
      expect(signatureVerifies(envelope, { ...signature!, sig: 'AAAA' }, key)).toBe(false);
      const sig = Buffer.from(signature!.sig, 'base64');
      if (key.algorithm === 'ecdsa-p256') expect(sig[0]).toBe(0x30);
      else expect(sig.length).toBe(64);
    }
  });
});
