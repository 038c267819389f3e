/** Signing claims into a compact JWS with a key pair, header chosen by the caller. */
import { InternalError } from '../errors.js';
import { CompactSign, SignJWT, type CryptoKey, type JWTPayload, type SignOptions } from 'jose';
import type { SigningAlg } from './keys.js';

export interface SignInput {
  alg: SigningAlg;
  privateKey: CryptoKey;
  /** Goes into the header; `header` may still override it (an unknown kid, say). */
  kid?: string;
  /** Merged over {alg, typ, kid}; an undefined value removes the parameter. */
  header?: Record<string, unknown>;
}

export function signClaims(claims: JWTPayload, input: SignInput): Promise<string> {
  const { header, options } = headerOf(input);
  return new SignJWT(claims).setProtectedHeader(header).sign(input.privateKey, options);
}

/**
 * Signs a payload given as JSON text, byte for byte: text can repeat a claim, which an
 * object (and so `signClaims`) cannot.
 */
export function signPayloadText(payload: string, input: SignInput): Promise<string> {
  const { header, options } = headerOf(input);
  return new CompactSign(new TextEncoder().encode(payload)).setProtectedHeader(header).sign(input.privateKey, options);
}

function headerOf(input: SignInput): { header: { alg: string } & Record<string, unknown>; options: SignOptions } {
  const header: Record<string, unknown> = { alg: input.alg, typ: 'JWT', kid: input.kid, ...input.header };
  for (const [name, value] of Object.entries(header)) if (value === undefined) delete header[name];
  // jose signs with the key's own algorithm; a header alg that disagrees is the caller's mistake.
  if (header.alg !== input.alg)
    throw new InternalError(`header alg ${String(header.alg)} does not match the ${input.alg} key`);
  // jose refuses to sign a crit it does not know unless told the names are understood:
  // the crit check forges exactly such a token, so every name it lists is declared.
  const crit = Array.isArray(header.crit)
    ? Object.fromEntries(header.crit.map((name) => [String(name), true]))
    : undefined;
  return { header: header as { alg: string }, options: { crit } };
}
