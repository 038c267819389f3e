import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RESERVED_TEST_NUMBER } from '../../src/api/service.js';

describe('load scripts', () => {
  it('call the reserved test number, the same as the harness', () => {
    expect(readFileSync(new URL('../../load/lib/target.ts', import.meta.url), 'utf8')).toContain(
      `RESERVED_TEST_NUMBER = '${RESERVED_TEST_NUMBER}'`,
    );
  });
});
