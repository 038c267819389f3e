import { describe, expect, it } from 'vitest';
import { indexReport, judge, lineKeys, offsetOn, type ReportedMutant } from '../../scripts/mutate/against.js';

/** A mutant of the report starting `column` (from 1) into its line: 3 is the start of `  return true;`. */
const reported = (line: number, status: string, replacement = 'false', column = 3): ReportedMutant => ({
  mutatorName: 'BooleanLiteral',
  replacement,
  status,
  location: { start: { line, column } },
});

// Two `return true;` lines: the first survived, the second was killed.
const RUN_SOURCE = ['if (a) {', '  return true;', '}', 'if (b) {', '  return true;', '}'].join('\n');
// The same code after a disable comment was added above each `return true;`.
const NOW_SOURCE = [
  'if (a) {',
  '  // Stryker disable next-line BooleanLiteral: no stated rule: why',
  '  return true;',
  '}',
  'if (b) {',
  '  // Stryker disable next-line BooleanLiteral: no stated rule: why',
  '  return true;',
  '}',
].join('\n');

describe('scripts/mutate/against.ts', () => {
  it('keys each line by its trimmed text and how many lines above share it', () => {
    expect(lineKeys('  x;\ny;\nx;')).toEqual([
      JSON.stringify(['x;', 0]),
      JSON.stringify(['y;', 0]),
      JSON.stringify(['x;', 1]),
    ]);
  });

  it('counts where a mutant starts from the first non-blank character of its line', () => {
    expect(offsetOn('    return true;', 11)).toBe(7);
    expect(offsetOn('return true;', 7)).toBe(7);
  });

  it('finds a mutant of the report after comments moved its line, telling repeated lines apart', () => {
    const index = indexReport({ source: RUN_SOURCE, mutants: [reported(2, 'Survived'), reported(5, 'Killed')] });
    const now = lineKeys(NOW_SOURCE);
    const onLine = (line: number) => ({
      lineKey: now[line - 1]!,
      offset: 0,
      mutatorName: 'BooleanLiteral',
      replacement: 'false',
    });
    expect(judge(index, onLine(3))).toBe('survived');
    expect(judge(index, onLine(7))).toBe('killed');
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
    const mutant = {
      lineKey: lineKeys(RUN_SOURCE)[1]!,
      offset: 0,
      mutatorName: 'BooleanLiteral',
      replacement: 'false',
    };
    expect(judge(index, mutant)).toBe(judgement);
  });

  it('tells mutants of one line apart by mutator and replacement, and spacing in a replacement does not matter', () => {
    const index = indexReport({
      source: RUN_SOURCE,
      mutants: [reported(2, 'Killed', '{\n  x }'), reported(2, 'Survived', 'false')],
    });
    const lineKey = lineKeys(RUN_SOURCE)[1]!;
    expect(judge(index, { lineKey, offset: 0, mutatorName: 'BooleanLiteral', replacement: '{ x }' })).toBe('killed');
    expect(judge(index, { lineKey, offset: 0, mutatorName: 'BooleanLiteral', replacement: 'false' })).toBe('survived');
    expect(judge(index, { lineKey, offset: 0, mutatorName: 'StringLiteral', replacement: 'false' })).toBe('not judged');
  });

  it('tells alike mutants of one line apart by where on it they start', () => {
    const index = indexReport({
      source: RUN_SOURCE,
      mutants: [reported(2, 'Survived', 'false', 3), reported(2, 'Killed', 'false', 10)],
    });
    const lineKey = lineKeys(RUN_SOURCE)[1]!;
    const mutant = { lineKey, mutatorName: 'BooleanLiteral', replacement: 'false' };
    expect(judge(index, { ...mutant, offset: 0 })).toBe('survived');
    expect(judge(index, { ...mutant, offset: 7 })).toBe('killed');
  });

  it('reads a replacement without the comment lines a disable comment put inside its expression', () => {
    const index = indexReport({ source: RUN_SOURCE, mutants: [reported(2, 'Survived', "a &&\n  b !== 'http://x'")] });
    const lineKey = lineKeys(RUN_SOURCE)[1]!;
    const printed = "a &&\n  // Stryker disable next-line all: equivalent: why\n  b !== 'http://x'";
    expect(judge(index, { lineKey, offset: 0, mutatorName: 'BooleanLiteral', replacement: printed })).toBe('survived');
  });
});
