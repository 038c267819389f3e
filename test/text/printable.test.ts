import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { printable, printableDeep } from '../../src/text/printable.js';

interface Vector {
  name: string;
  input: string;
  expected: string;
  maxLength?: number;
}

const { vectors } = JSON.parse(
  readFileSync(new URL('../../fixtures/vectors/printable.json', import.meta.url), 'utf8'),
) as { vectors: Vector[] };

/** What no printed text may hold: a control character other than tab and newline, DEL, C1, a lone surrogate, U+FFFE/U+FFFF. */
const UNSAFE =
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('printable', () => {
  it.each(vectors.map((vector) => [vector.name, vector] as const))('%s', (_name, vector) => {
    expect(printable(vector.input, vector.maxLength)).toBe(vector.expected);
  });

  it('leaves nothing unsafe and stays within the limit, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), fc.integer({ min: 1, max: 400 }), (text, max) => {
        const out = printable(text, max);
        return !UNSAFE.test(out) && out.length <= max;
      }),
      { numRuns: 2_000 },
    );
  });

  it('changes nothing the second time, so writers may apply it again', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 300 }),
        fc.integer({ min: 1, max: 400 }),
        (text, max) => printable(printable(text, max), max) === printable(text, max),
      ),
      { numRuns: 2_000 },
    );
  });

  it('makes every string of a report printable, keys included', () => {
    expect(printableDeep({ detail: 'a\u001bb', n: 3, list: ['\uD800'], nested: { 'k\u0007': true } })).toEqual({
      detail: 'a\\u001bb',
      n: 3,
      list: ['\uFFFD'],
      nested: { 'k\\u0007': true },
    });
  });
});
