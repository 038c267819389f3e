import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RAW_BODY_FIXTURES } from '../../src/receiver-cert/fixtures.js';
import { pythonDumps, reserialize } from '../../src/receiver-cert/reserialize.js';

const vectors = JSON.parse(
  readFileSync(new URL('../../fixtures/receiver-cert/python-dumps.json', import.meta.url), 'utf8'),
) as {
  vectors: Array<{ name: string; python: string }>;
};

describe('re-serialized bodies', () => {
  it.each(RAW_BODY_FIXTURES.map((f) => [f.name, f] as const))(
    '"%s" parses and changes under exactly the round trips it names',
    (_name, fixture) => {
      expect(() => JSON.parse(fixture.body)).not.toThrow();
      expect(reserialize(fixture.body, 'javascript') !== fixture.body).toBe(fixture.breaks.includes('javascript'));
      expect(reserialize(fixture.body, 'python') !== fixture.body).toBe(fixture.breaks.includes('python'));
    },
  );

  it.each(vectors.vectors.map((v) => [v.name, v] as const))(
    'pythonDumps matches CPython json.dumps for "%s"',
    (name, vector) => {
      const fixture = RAW_BODY_FIXTURES.find((f) => f.name === name)!;
      expect(pythonDumps(JSON.parse(fixture.body))).toBe(vector.python);
    },
  );

  it('pythonDumps writes non-ASCII and control characters as \\u escapes', () => {
    expect(pythonDumps({ a: 'é\u0001😀\u007f', b: [1, true, null] })).toBe(
      '{"a": "\\u00e9\\u0001\\ud83d\\ude00\\u007f", "b": [1, true, null]}',
    );
  });
});
