/**
 * Fills in `expected` of every vector in fixtures/vectors/webhook-signatures.json with
 * `openssl dgst -sha256 -hmac`, so the known answers never come from the code under test.
 * Run: npx tsx test/signing/make-vectors.ts
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { loadVectors, vectorBody, VECTORS_FILE } from './vectors.js';

function opensslHmacHex(secret: string, body: Buffer): string {
  const out = execFileSync('openssl', ['dgst', '-sha256', '-hmac', secret], {
    input: body,
    timeout: 10_000,
  }).toString();
  const hex = /([0-9a-f]{64})\s*$/.exec(out)?.[1];
  if (!hex) throw new Error(`unexpected openssl output: ${out}`);
  return hex;
}

const file = loadVectors();
for (const vector of file.vectors) vector.expected = opensslHmacHex(vector.secret, vectorBody(vector));
writeFileSync(VECTORS_FILE, JSON.stringify(file, null, 2) + '\n');
console.log(`wrote ${file.vectors.length} vectors to ${VECTORS_FILE.pathname}`);
