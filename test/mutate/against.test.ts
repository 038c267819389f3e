import { describe, expect, it } from 'vitest';
import {
  indexReport,
  judge,
  mutantKey,
  type Position,
  type ReportedMutant,
  readSource,
} from '../../scripts/mutate/against.js';

// Two `return a === b;` lines: in the run, the first one's `===` survived and the second one's was killed.
const RUN_SOURCE = ['if (x) {', '  return a === b;', '}', 'if (y) {', '  return a === b;', '}'].join('\n');
// The same code after a disable comment was added above each of them.
const NOW_SOURCE = [
  'if (x) {',
  '  // Stryker disable next-line EqualityOperator: no stated rule: why',
  '  return a === b;',
  '}',
  'if (y) {',
  '  // Stryker disable next-line EqualityOperator: no stated rule: why',
  '  return a === b;',
  '}',
].join('\n');

/** `a === b` on a line `  return a === b;`, lines from `line`, columns from `base` (0 or 1). */
const comparison = (line: number, base: number): { start: Position; end: Position } => ({
  start: { line, column: 9 + base },
  end: { line, column: 16 + base },
});

/** A mutant of RUN_SOURCE's line `line` (from 1) as the report holds it. */
const reported = (line: number, status: string, replacement = 'a !== b'): ReportedMutant => ({
  mutatorName: 'EqualityOperator',
  replacement,
  status,
  location: comparison(line, 1),
});

/** The key of the mutant of `a === b` on line `line` (from 1) of `text`. */
const keyIn = (text: string, line: number, replacement = 'a !== b', mutatorName = 'EqualityOperator') =>
  mutantKey(readSource(text), comparison(line - 1, 0), mutatorName, replacement);

describe('scripts/mutate/against.ts', () => {
  it('keys each line by its trimmed text and how many lines above share it', () => {
    expect(readSource('  x;\ny;\nx;').lineKeys).toEqual([
      JSON.stringify(['x;', 0]),
      JSON.stringify(['y;', 0]),
      JSON.stringify(['x;', 1]),
    ]);
  });

  it('finds a mutant of the report after comments moved its line, telling repeated lines apart', () => {
    const index = indexReport({ source: RUN_SOURCE, mutants: [reported(2, 'Survived'), reported(5, 'Killed')] });
    expect(judge(index, keyIn(NOW_SOURCE, 3))).toBe('survived');
    expect(judge(index, keyIn(NOW_SOURCE, 7))).toBe('killed');
  });

  it.each([
    [['Survived'], 'survived'],
    [['NoCoverage'], 'survived'],
    [['CompileError'], 'compile error'],
    [['Killed'], 'killed'],
    [['Timeout'], 'killed'],
    [['RuntimeError'], 'killed'],
    [['Survived', 'Killed'], 'killed'],
    [['CompileError', 'Survived'], 'survived'],
    [['Ignored'], 'not judged'],
    [[], 'not judged'],
  ])('judges statuses %j of one mutant as %s', (statuses, judgement) => {
    const index = indexReport({ source: RUN_SOURCE, mutants: statuses.map((status) => reported(2, status)) });
    expect(judge(index, keyIn(RUN_SOURCE, 2))).toBe(judgement);
  });

  it('tells mutants of one line apart by mutator and replacement, spacing in a replacement aside', () => {
    const index = indexReport({
      source: RUN_SOURCE,
      mutants: [reported(2, 'Killed', 'a\n  !== b'), reported(2, 'Survived', 'true')],
    });
    expect(judge(index, keyIn(RUN_SOURCE, 2, 'a !== b'))).toBe('killed');
    expect(judge(index, keyIn(RUN_SOURCE, 2, 'true'))).toBe('survived');
    expect(judge(index, keyIn(RUN_SOURCE, 2, 'true', 'ConditionalExpression'))).toBe('not judged');
  });

  it('tells alike mutants of one line apart by where they start and the code they replace', () => {
    const source = '  return a && b;';
    const span = (line: number, start: number, end: number) => ({
      start: { line, column: start },
      end: { line, column: end },
    });
    // `a && b`, `a` and `b`, in the report's columns (from 1).
    const spans = [span(1, 10, 16), span(1, 10, 11), span(1, 15, 16)];
    const statuses = ['Survived', 'Killed', 'Survived'];
    const index = indexReport({
      source,
      mutants: spans.map((location, i) => ({
        mutatorName: 'ConditionalExpression',
        replacement: 'true',
        status: statuses[i]!,
        location,
      })),
    });
    const judged = [span(0, 9, 15), span(0, 9, 10), span(0, 14, 15)].map((location) =>
      judge(index, mutantKey(readSource(source), location, 'ConditionalExpression', 'true')),
    );
    expect(judged).toEqual(['survived', 'killed', 'survived']);
  });

  it('reads code and replacement without the comment lines a disable comment put inside an expression', () => {
    const run = ['const ok =', '  a &&', "  b !== 'http://x';"].join('\n');
    const now = [
      'const ok =',
      '  a &&',
      '  // Stryker disable next-line all: equivalent: why',
      "  b !== 'http://x';",
    ].join('\n');
    const index = indexReport({
      source: run,
      mutants: [
        {
          mutatorName: 'LogicalOperator',
          replacement: "a ||\n  b !== 'http://x'",
          status: 'Survived',
          location: { start: { line: 2, column: 3 }, end: { line: 3, column: 19 } },
        },
      ],
    });
    const printed = "a ||\n  // Stryker disable next-line all: equivalent: why\n  b !== 'http://x'";
    const location = { start: { line: 1, column: 2 }, end: { line: 3, column: 18 } };
    expect(judge(index, mutantKey(readSource(now), location, 'LogicalOperator', printed))).toBe('survived');
  });
});
