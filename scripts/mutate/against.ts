/**
 * What a run's report (`reports/mutation/<module>/mutation.json`) says of a mutant that a
 * `// Stryker disable` comment now leaves out. A comment may leave out only mutants no check
 * kills: survivors, and mutants that do not compile. Mutants are matched by their start line (its
 * text, and which occurrence of that text it is: `return true;` recurs), where on it they start,
 * the code they replace, their mutator and their replacement; not by line number, so that a
 * report stays usable after comments are added above a line or inside an expression.
 */

import { readFileSync } from 'node:fs';

/** A line and a column of a source: counted from 0 by Stryker's instrumenter, from 1 in a report. */
export interface Position {
  line: number;
  column: number;
}

export interface ReportedMutant {
  mutatorName: string;
  replacement?: string;
  status: string;
  /** Lines and columns count from 1, as the report's schema does. */
  location: { start: Position; end: Position };
}

export interface ReportedFile {
  source: string;
  mutants: readonly ReportedMutant[];
}

/** A run's `mutation.json`, as far as these scripts read it. */
export interface Report<File = ReportedFile> {
  files: Record<string, File>;
}

/** The report at `path`; throws, naming the file, when it cannot be read as one. */
export function readReport<File = ReportedFile>(path: string): Report<File> {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Report<File>;
  } catch (error) {
    throw new Error(`cannot read ${path} as a run's mutation.json (${(error as Error).message})`);
  }
}

export interface Source {
  lines: readonly string[];
  /** Each line's trimmed text and the number of lines above with that text. */
  lineKeys: readonly string[];
}

/** A disable comment's reason starts with its class: `equivalent:` or `no stated rule:`. */
export const DISABLE_REASON_CLASS = /^(equivalent|no stated rule):/;

export type Judgement = 'killed' | 'survived' | 'compile error' | 'not judged';

/** Killed, a time-out and a crash of the run all mean a check (or the run) saw the mutant. */
const DETECTED = new Set(['Killed', 'Timeout', 'RuntimeError']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);

export function readSource(text: string): Source {
  const lines = text.split('\n');
  const seen = new Map<string, number>();
  const lineKeys = lines.map((line) => {
    const trimmed = line.trim();
    const occurrence = seen.get(trimmed) ?? 0;
    seen.set(trimmed, occurrence + 1);
    return JSON.stringify([trimmed, occurrence]);
  });
  return { lines, lineKeys };
}

/**
 * Code as compared: without comment lines (Stryker prints an expression with the comments inside
 * it, so a disable comment added within an expression would change its text), spacing aside.
 */
const comparable = (code: string): string =>
  code
    .split('\n')
    .filter((line) => !line.trim().startsWith('//'))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();

function textBetween({ lines }: Source, start: Position, end: Position): string {
  if (start.line === end.line) return (lines[start.line] ?? '').slice(start.column, end.column);
  return [
    (lines[start.line] ?? '').slice(start.column),
    ...lines.slice(start.line + 1, end.line),
    (lines[end.line] ?? '').slice(0, end.column),
  ].join('\n');
}

/** The key a mutant is matched by, in the source it was made of; positions count from 0. */
export function mutantKey(
  source: Source,
  location: { start: Position; end: Position },
  mutatorName: string,
  replacement: string,
): string {
  const line = source.lines[location.start.line] ?? '';
  const offset = location.start.column - (line.length - line.trimStart().length);
  return JSON.stringify([
    source.lineKeys[location.start.line] ?? '',
    offset,
    comparable(textBetween(source, location.start, location.end)),
    mutatorName,
    comparable(replacement),
  ]);
}

const fromOne = ({ line, column }: Position): Position => ({ line: line - 1, column: column - 1 });

/** The statuses a report gives its mutants, by `mutantKey`. */
export function indexReport(file: ReportedFile): ReadonlyMap<string, readonly string[]> {
  const source = readSource(file.source);
  const statuses = new Map<string, string[]>();
  for (const mutant of file.mutants) {
    const location = { start: fromOne(mutant.location.start), end: fromOne(mutant.location.end) };
    const key = mutantKey(source, location, mutant.mutatorName, mutant.replacement ?? '');
    statuses.set(key, [...(statuses.get(key) ?? []), mutant.status]);
  }
  return statuses;
}

/**
 * The report's word on the mutant of `key`. Should two mutants still share a key, one detection
 * is enough to say `killed`. `not judged` is a mutant the report has not run (absent, or left out
 * then already).
 */
export function judge(index: ReadonlyMap<string, readonly string[]>, key: string): Judgement {
  const statuses = index.get(key) ?? [];
  if (statuses.some((status) => DETECTED.has(status))) return 'killed';
  if (statuses.some((status) => UNDETECTED.has(status))) return 'survived';
  if (statuses.includes('CompileError')) return 'compile error';
  return 'not judged';
}
