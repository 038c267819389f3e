import { randomFillSync } from 'node:crypto';

// Identifiers are a prefix plus random base62. Characters and bytes come from pools refilled
// in bulk, so minting an id on the hot path costs no syscall and no per-character call: a
// placement mints three (request, call, event).
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const BASE62_CODES = Uint8Array.from(BASE62, (char) => char.charCodeAt(0));
/** Bytes of 248 and above are dropped: 248 is the largest multiple of 62 a byte holds, so no character is likelier than another. */
const UNBIASED_BYTE_LIMIT = 248;
const POOL_SIZE = 8192;

/** Random base62 characters as latin1 bytes, used from `charOffset` on. */
const charPool = Buffer.allocUnsafe(POOL_SIZE);
let charOffset = POOL_SIZE;
/** Random bytes, used from `byteOffset` on (hex ids, and the char pool's source). */
const bytePool = Buffer.allocUnsafe(POOL_SIZE);
let byteOffset = POOL_SIZE;

function refillBytes(): void {
  randomFillSync(bytePool);
  byteOffset = 0;
}

function refillChars(): void {
  let filled = 0;
  while (filled < POOL_SIZE) {
    if (byteOffset >= POOL_SIZE) refillBytes();
    const byte = bytePool[byteOffset++]!;
    if (byte < UNBIASED_BYTE_LIMIT) charPool[filled++] = BASE62_CODES[byte % 62]!;
  }
  charOffset = 0;
}

/** `length` random base62 characters (rejection sampling: no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    if (charOffset >= POOL_SIZE) refillChars();
    const end = Math.min(POOL_SIZE, charOffset + length - out.length);
    out += charPool.toString('latin1', charOffset, end);
    charOffset = end;
  }
  return out;
}

/** An identifier such as `call_5hQ…`: 20 base62 characters carry about 119 bits. */
export function newId(prefix: string, length = 20): string {
  return prefix + randomBase62(length);
}

/** An identifier such as `call_9f…`: 32 lowercase hex characters (128 bits), the alternate personality's form. */
export function newHexId(prefix: string): string {
  if (byteOffset + 16 > POOL_SIZE) refillBytes();
  const hex = bytePool.toString('hex', byteOffset, byteOffset + 16);
  byteOffset += 16;
  return prefix + hex;
}
