/** The bench's figures in docs/benchmarks.md (benchmarks/results-doc.ts): only the part between the markers changes. */
import { describe, expect, it } from 'vitest';
import { formatResults, replaceResults, RESULTS_END, RESULTS_START } from '../results-doc.js';

const BEFORE = '# Benchmarks\n\nHow to run them, by hand.\n\n';
const AFTER = '\n\n## Reading the figures\n\nAlso by hand.\n';
const DOC = `${BEFORE}${RESULTS_START}\nold figures\nand more\n${RESULTS_END}${AFTER}`;

describe('the results section of docs/benchmarks.md', () => {
  it('replaces what is between the markers and keeps everything else as it was', () => {
    expect(replaceResults(DOC, 'new figures')).toBe(`${BEFORE}${RESULTS_START}\nnew figures\n${RESULTS_END}${AFTER}`);
  });

  it('fills a section that was empty', () => {
    expect(replaceResults(`${BEFORE}${RESULTS_START}${RESULTS_END}${AFTER}`, 'first figures')).toBe(
      `${BEFORE}${RESULTS_START}\nfirst figures\n${RESULTS_END}${AFTER}`,
    );
  });

  it('gives the same document when run twice with the same figures', () => {
    const once = replaceResults(DOC, 'figures');
    expect(replaceResults(once, 'figures')).toBe(once);
  });

  it('takes replacement text literally, dollar signs included', () => {
    expect(replaceResults(DOC, "$& $' $1")).toContain(`${RESULTS_START}\n$& $' $1\n${RESULTS_END}`);
  });

  it('refuses a document without the end marker', () => {
    expect(() => replaceResults(DOC.replace(RESULTS_END, ''), 'figures')).toThrow(/needs the markers/);
  });

  it('refuses a document without the start marker', () => {
    expect(() => replaceResults(DOC.replace(RESULTS_START, ''), 'figures')).toThrow(/needs the markers/);
  });

  it('refuses a document with the markers twice', () => {
    expect(() => replaceResults(DOC + DOC, 'figures')).toThrow(/more than once/);
  });

  it('refuses a document with the end marker first', () => {
    expect(() => replaceResults(`${RESULTS_END}\n${RESULTS_START}`, 'figures')).toThrow(/before/);
  });

  it('puts the machine above the output, printed as a text block without trailing spaces', () => {
    const results = formatResults({ node: 'v24.1.0', cpus: '2 × Example CPU', secondsPerServer: 6 }, [
      '# Goals  ',
      'met      wall  1.03 ×',
    ]);
    expect(results.split('\n')).toEqual([
      'Written by `npm run bench` (6 s per server), Node v24.1.0, 2 × Example CPU; rewritten by the next run, not by hand.',
      '',
      '```text',
      '# Goals',
      'met      wall  1.03 ×',
      '```',
    ]);
  });
});
