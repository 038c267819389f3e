import { randomFillSync } from 'node:crypto';

// Identifiers are a prefix plus random base62. Random bytes come from a pooled
// buffer refilled in bulk, so minting an id on the hot path costs no syscall.
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const BASE62_CODES = Uint8Array.from(BASE62, (char) => char.charCodeAt(0));
const POOL_SIZE = 8192;
const pool = Buffer.allocUnsafe(POOL_SIZE);
let poolOffset = POOL_SIZE;

function nextByte(): number {
  if (poolOffset >= POOL_SIZE) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  return pool[poolOffset++]!;
}

/** `length` random base62 characters (rejection sampling: no modulo bias). */
export function randomBase62(length: number): string {
  // Character codes into a byte buffer, decoded once: no string grown one character at a time.
  const out = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const byte = nextByte();
    if (byte < 248) out[filled++] = BASE62_CODES[byte % 62]!;
  }
  return out.toString('latin1', 0, length);
}

/** An identifier such as `call_5hQ…`: 20 base62 characters carry about 119 bits. */
export function newId(prefix: string, length = 20): string {
  return prefix + randomBase62(length);
}

/** An identifier such as `call_9f…`: 32 lowercase hex characters (128 bits), the alternate personality's form. */
export function newHexId(prefix: string): string {
  let out = prefix;
  for (let i = 0; i < 16; i++) out += nextByte().toString(16).padStart(2, '0');
  return out;
}
