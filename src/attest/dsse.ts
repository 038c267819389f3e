/**
 * DSSE (Dead Simple Signing Envelope, github.com/secure-systems-lab/dsse, protocol v1): the
 * signature covers PAE(payloadType, payload), never the JSON around it. ECDSA signatures are
 * DER-encoded, as securesystemslib, sigstore and cosign write and read them; Ed25519's are its
 * 64 bytes.
 */
import { sign, verify } from 'node:crypto';
import type { SigningKey, VerifyingKey } from './keys.js';

export const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';

export interface DsseSignature {
  keyid: string;
  /** base64 of the signature over PAE. */
  sig: string;
}

export interface DsseEnvelope {
  payloadType: string;
  /** base64 of the payload's bytes. */
  payload: string;
  signatures: DsseSignature[];
}

/** Pre-Authentication Encoding: "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body, lengths in bytes as decimal. */
export function pae(payloadType: string, payload: Buffer): Buffer {
  const type = Buffer.from(payloadType, 'utf8');
  return Buffer.concat([Buffer.from(`DSSEv1 ${type.length} `), type, Buffer.from(` ${payload.length} `), payload]);
}

export function signEnvelope(payload: Buffer, payloadType: string, key: SigningKey): DsseEnvelope {
  const data = pae(payloadType, payload);
  const signature =
    key.algorithm === 'ed25519'
      ? sign(null, data, key.privateKey)
      : sign('sha256', data, { key: key.privateKey, dsaEncoding: 'der' });
  return {
    payloadType,
    payload: payload.toString('base64'),
    signatures: [{ keyid: key.keyid, sig: signature.toString('base64') }],
  };
}

/** Whether `signature` is `key`'s over the envelope's PAE; a malformed signature is simply not one. */
export function signatureVerifies(envelope: DsseEnvelope, signature: DsseSignature, key: VerifyingKey): boolean {
  const data = pae(envelope.payloadType, Buffer.from(envelope.payload, 'base64'));
  const sig = Buffer.from(signature.sig, 'base64');
  try {
    return key.algorithm === 'ed25519'
      ? verify(null, data, key.publicKey, sig)
      : verify('sha256', data, { key: key.publicKey, dsaEncoding: 'der' }, sig);
  } catch {
    return false;
  }
}
