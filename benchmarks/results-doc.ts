/**
 * The bench's latest figures in docs/benchmarks.md: the part between the two markers is the
 * bench's, rewritten on every full run; the rest of the document is written by hand.
 */
import { readFileSync, writeFileSync } from 'node:fs';

export const RESULTS_START = '<!-- bench:results -->';
export const RESULTS_END = '<!-- /bench:results -->';

/** Where a run puts its figures, from the project root. */
export const RESULTS_DOC = 'docs/benchmarks.md';

/** What a run says about itself above its figures: the machine and the measured seconds. */
export interface RunSetting {
  node: string;
  cpus: string;
  secondsPerServer: number;
}

/** The text that goes between the markers: where it was measured, then the bench's output as printed. */
export function formatResults(setting: RunSetting, output: readonly string[]): string {
  return [
    `Written by \`npm run bench\` (${setting.secondsPerServer} s per server), Node ${setting.node}, ${setting.cpus}; rewritten by the next run, not by hand.`,
    '',
    '```text',
    ...output.map((line) => line.trimEnd()),
    '```',
  ].join('\n');
}

/**
 * `doc` with the text between its markers replaced by `results`; everything outside them is
 * kept byte for byte. Throws when the markers are missing, repeated or out of order.
 */
export function replaceResults(doc: string, results: string): string {
  const start = doc.indexOf(RESULTS_START);
  const end = doc.indexOf(RESULTS_END);
  if (start === -1 || end === -1)
    throw new Error(`${RESULTS_DOC} needs the markers ${RESULTS_START} and ${RESULTS_END}`);
  if (doc.indexOf(RESULTS_START, start + 1) !== -1 || doc.indexOf(RESULTS_END, end + 1) !== -1)
    throw new Error(`${RESULTS_DOC} has its results markers more than once`);
  if (end < start) throw new Error(`${RESULTS_DOC} has ${RESULTS_END} before ${RESULTS_START}`);
  return `${doc.slice(0, start + RESULTS_START.length)}\n${results}\n${doc.slice(end)}`;
}

/** Rewrites the results between the markers of the document at `path`. */
export function writeResults(path: string, results: string): void {
  writeFileSync(path, replaceResults(readFileSync(path, 'utf8'), results));
}
