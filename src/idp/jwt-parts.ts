/**
 * The three base64url segments of a compact JWS, taken apart and put back together
 * without checking anything: the forging helpers need to change one segment and keep
 * the others byte for byte.
 */
import { InternalError } from '../errors.js';

export type JwtPart = 'header' | 'payload' | 'signature';

export interface JwtSegments {
  header: string;
  payload: string;
  signature: string;
}

export function splitJwt(jwt: string): JwtSegments {
  const segments = jwt.split('.');
  if (segments.length !== 3) throw new InternalError(`not a compact JWS: ${segments.length} segments instead of 3`);
  const [header, payload, signature] = segments as [string, string, string];
  return { header, payload, signature };
}

export function joinJwt({ header, payload, signature }: JwtSegments): string {
  return `${header}.${payload}.${signature}`;
}

export function encodeBytes(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url');
}

export function decodeBytes(segment: string): Uint8Array {
  return new Uint8Array(Buffer.from(segment, 'base64url'));
}

export function encodeJson(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

export function decodeJson(segment: string): Record<string, unknown> {
  const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new InternalError('JWT segment is not a JSON object');
  return value as Record<string, unknown>;
}
