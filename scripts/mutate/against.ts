/**
 * What a run's report (`reports/mutation/<module>/mutation.json`) says of a mutant that a
 * `// Stryker disable` comment now leaves out. A comment may leave out only mutants no check
 * kills: survivors, and mutants that do not compile. Mutants are matched by their line (its
 * text, and which occurrence of that text it is: `return true;` recurs), where on it they start
 * (one line may hold two `→ true` mutants), mutator and replacement; not by line number, so that
 * a report stays usable after comments are added above a line.
 */

export interface ReportedMutant {
  mutatorName: string;
  replacement?: string;
  status: string;
  /** Lines and columns count from 1. */
  location: { start: { line: number; column: number } };
}

export interface ReportedFile {
  source: string;
  mutants: readonly ReportedMutant[];
}

export interface MutantOnLine {
  /** The line's entry in `lineKeys` of the source it is in. */
  lineKey: string;
  /** Where on its line the mutant starts, in characters from the line's first non-blank one. */
  offset: number;
  mutatorName: string;
  replacement: string;
}

export type Judgement = 'killed' | 'survived' | 'compile error' | 'not judged';

/** Killed, a time-out and a crash of the run all mean a check (or the run) saw the mutant. */
const DETECTED = new Set(['Killed', 'Timeout', 'RuntimeError']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);

/** Each line of `source` as its trimmed text and the number of lines above with that text. */
export function lineKeys(source: string): string[] {
  const seen = new Map<string, number>();
  return source.split('\n').map((line) => {
    const text = line.trim();
    const occurrence = seen.get(text) ?? 0;
    seen.set(text, occurrence + 1);
    return JSON.stringify([text, occurrence]);
  });
}

/**
 * A replacement as compared: Stryker prints an expression with the comments inside it, so a
 * disable comment added within an expression would change its text; spacing does not count.
 */
const comparable = (replacement: string): string =>
  replacement
    .split('\n')
    .filter((line) => !line.trim().startsWith('//'))
    .join(' ')
    .replace(/\s+/g, ' ');

const keyOf = ({ lineKey, offset, mutatorName, replacement }: MutantOnLine): string =>
  JSON.stringify([lineKey, offset, mutatorName, comparable(replacement)]);

/** `offset` of a mutant starting at `column` (from 0) of `line`. */
export const offsetOn = (line: string, column: number): number => column - (line.length - line.trimStart().length);

/** The statuses a report gives each mutant, by line, mutator and replacement. */
export function indexReport(file: ReportedFile): ReadonlyMap<string, readonly string[]> {
  const lines = file.source.split('\n');
  const keys = lineKeys(file.source);
  const statuses = new Map<string, string[]>();
  for (const mutant of file.mutants) {
    const { line, column } = mutant.location.start;
    const key = keyOf({
      lineKey: keys[line - 1] ?? '',
      offset: offsetOn(lines[line - 1] ?? '', column - 1),
      mutatorName: mutant.mutatorName,
      replacement: mutant.replacement ?? '',
    });
    statuses.set(key, [...(statuses.get(key) ?? []), mutant.status]);
  }
  return statuses;
}

/**
 * The report's word on one mutant. Should two mutants still share a key, one detection is
 * enough to say `killed`.
 * `not judged` is a mutant the report has not run (absent, or already left out then).
 */
export function judge(index: ReadonlyMap<string, readonly string[]>, mutant: MutantOnLine): Judgement {
  const statuses = index.get(keyOf(mutant)) ?? [];
  if (statuses.some((status) => DETECTED.has(status))) return 'killed';
  if (statuses.some((status) => UNDETECTED.has(status))) return 'survived';
  if (statuses.includes('CompileError')) return 'compile error';
  return 'not judged';
}
