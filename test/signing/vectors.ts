import { readFileSync } from 'node:fs';

/** One known-answer vector from fixtures/vectors/webhook-signatures.json. */
export interface SignatureVector {
  name: string;
  secret: string;
  body?: string;
  bodyBase64?: string;
  expected: string;
}

export const VECTORS_FILE = new URL('../../fixtures/vectors/webhook-signatures.json', import.meta.url);

export function loadVectors(): { about: string; vectors: SignatureVector[] } {
  return JSON.parse(readFileSync(VECTORS_FILE, 'utf8')) as { about: string; vectors: SignatureVector[] };
}

/** The exact bytes a vector signs. */
export function vectorBody(vector: SignatureVector): Buffer {
  if (vector.bodyBase64 !== undefined) return Buffer.from(vector.bodyBase64, 'base64');
  return Buffer.from(vector.body ?? '', 'utf8');
}
