/** The digests reports name for the spec and the control contract are those of the documents in ../shared. */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTROL_CONTRACT, SPEC_DOCUMENT } from '../../src/catalog/documents.js';

const SHARED = resolve(import.meta.dirname, '../../../shared');
const spec = resolve(SHARED, 'spec', SPEC_DOCUMENT.name);
const contract = resolve(SHARED, 'contracts', CONTROL_CONTRACT.name);
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('documents the catalog quotes', () => {
  it.skipIf(!existsSync(spec))(
    'the spec digest is that of ../shared/spec (a changed spec: review the clauses, then update src/catalog/documents.ts)',
    () => {
      expect(SPEC_DOCUMENT.sha256).toBe(sha256(spec));
    },
  );

  it.skipIf(!existsSync(contract))("the control contract's digest and version are its file's and its title's", () => {
    expect(CONTROL_CONTRACT.sha256).toBe(sha256(contract));
    expect(readFileSync(contract, 'utf8').split('\n')[0]).toBe(
      `# Control interface, contract ${CONTROL_CONTRACT.version}`,
    );
  });
});
