/**
 * The keys an attestation is signed and verified with: a PKCS#8 PEM private key (ECDSA P-256
 * or Ed25519) to sign, its public key (SPKI PEM, or the private key itself) to verify. A key's
 * id is a fingerprint of its public key, so a verifier can tell a wrong key from an edited
 * envelope. Key material never reaches a message: errors name the file and what is wrong.
 */
import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { SigningKeyError } from '../errors.js';

export type KeyAlgorithm = 'ecdsa-p256' | 'ed25519';

export interface VerifyingKey {
  publicKey: KeyObject;
  algorithm: KeyAlgorithm;
  /** sha256 of the public key's SubjectPublicKeyInfo (DER), in hex. */
  keyid: string;
}

export interface SigningKey extends VerifyingKey {
  privateKey: KeyObject;
}

const PKCS8 = '-----BEGIN PRIVATE KEY-----';
const HOW_TO_MAKE = 'make one with `openssl genpkey -algorithm ED25519 -out signing-key.pem`';

/** sha256 of the public key's SubjectPublicKeyInfo (DER), in hex: what `openssl pkey -pubin -outform DER | sha256sum` prints. */
export function keyIdOf(publicKey: KeyObject): string {
  return createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex');
}

function algorithmOf(key: KeyObject, where: string): KeyAlgorithm {
  if (key.asymmetricKeyType === 'ed25519') return 'ed25519';
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return 'ecdsa-p256';
  const what =
    key.asymmetricKeyType === 'ec'
      ? `an EC key on curve ${key.asymmetricKeyDetails?.namedCurve ?? 'unknown'}`
      : `a key of type ${(key.asymmetricKeyType ?? 'unknown').toUpperCase()}`;
  throw new SigningKeyError(`${where} is ${what}; give an ECDSA P-256 or Ed25519 key (${HOW_TO_MAKE})`);
}

function readPem(path: string, where: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new SigningKeyError(
      `${where}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
}

/** The private key of `path`, refused unless it is an unencrypted PKCS#8 PEM of ECDSA P-256 or Ed25519. */
export function loadSigningKey(path: string, setting = 'CERTIFY_SIGNING_KEY'): SigningKey {
  const where = `${setting} ${path}`;
  const pem = readPem(path, where);
  if (pem.includes('-----BEGIN ENCRYPTED PRIVATE KEY-----'))
    throw new SigningKeyError(
      `${where} is encrypted; the harness asks for no passphrase: give an unencrypted PKCS#8 PEM, kept where only the run can read it`,
    );
  const other = /-----BEGIN ([A-Z0-9 ]*PRIVATE KEY)-----/.exec(pem)?.[1];
  if (!pem.includes(PKCS8)) {
    const hint = other
      ? `it holds an "${other}" (not PKCS#8); convert it with \`openssl pkcs8 -topk8 -nocrypt -in ${path} -out signing-key.pem\``
      : 'it holds no PEM private key';
    throw new SigningKeyError(`${where} is not a PKCS#8 PEM private key: ${hint}`);
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    throw new SigningKeyError(`${where} is not a usable PKCS#8 PEM private key; ${HOW_TO_MAKE}`);
  }
  const algorithm = algorithmOf(privateKey, where);
  const publicKey = createPublicKey(privateKey);
  return { privateKey, publicKey, algorithm, keyid: keyIdOf(publicKey) };
}

/** The public key of `path`: an SPKI PEM (`openssl pkey -pubout`), or a private key's PEM, whose public half is used. */
export function loadVerifyingKey(path: string, option = '--key'): VerifyingKey {
  const where = `${option} ${path}`;
  const pem = readPem(path, where);
  let publicKey: KeyObject;
  try {
    publicKey = createPublicKey({ key: pem, format: 'pem' });
  } catch {
    throw new SigningKeyError(
      `${where} is not a PEM public key; export it with \`openssl pkey -in signing-key.pem -pubout -out public.pem\``,
    );
  }
  return { publicKey, algorithm: algorithmOf(publicKey, where), keyid: keyIdOf(publicKey) };
}
