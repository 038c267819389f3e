/**
 * Signing keys of the test identity provider: a key pair, the kid it is published
 * under and its public JWK as the JWKS lists it.
 */
import { randomBytes } from 'node:crypto';
import { exportJWK, exportSPKI, generateKeyPair, type CryptoKey, type JWK } from 'jose';

/** The algorithms the contract requires a target to accept ("RS256 and ES256 at least"). */
export type SigningAlg = 'RS256' | 'ES256';

export const SIGNING_ALGS: readonly SigningAlg[] = ['RS256', 'ES256'];

export interface SigningKey {
  kid: string;
  alg: SigningAlg;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  /** As published in the JWKS: kty and key material plus kid, alg and use. */
  publicJwk: JWK;
}

/** A kid that names the algorithm (readable in reports) plus randomness (never collides). */
export function newKid(alg: SigningAlg): string {
  return `${alg.toLowerCase()}-${randomBytes(6).toString('hex')}`;
}

export async function generateSigningKey(alg: SigningAlg, kid: string = newKid(alg)): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg);
  const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  return { kid, alg, privateKey, publicKey, publicJwk };
}

/** The SPKI PEM of the public key, as jose writes it (no trailing newline). */
export function publicKeyPem(key: SigningKey): Promise<string> {
  return exportSPKI(key.publicKey);
}
