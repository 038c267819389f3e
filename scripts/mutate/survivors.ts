/**
 * `npx tsx scripts/mutate/survivors.ts <module> [--report <mutation.json>]`: the survivors of the
 * module's last mutation run (reports/mutation/<module>/mutation.json, or a copy of a run's report
 * that a later run would overwrite), one line each with file:line, the mutator and
 * the replacement, for triage in docs/proving.md; and the score, killed (timeouts included)
 * over the mutants that compiled less the equivalent ones. A mutant in code the fault-switch
 * ignorer leaves out today (a report may be older than the ignorer) is equivalent without a
 * fault, which a mutant run never switches on; the others are for a person to triage. The mutants left out before the run are
 * counted by why: the fault-switch ignorer, or the class a `// Stryker disable` comment's reason
 * starts with (`equivalent:` or `no stated rule:`); the second score counts the latter as
 * survivors, as the mutants they were before they were left out.
 */
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { DISABLE_REASON_CLASS, type Report, readReport } from './against.js';
import { strykerPlugins } from './fault-switch-ignorer.js';
import { isModuleName, MODULE_NAMES } from './modules.js';

interface Mutant {
  id: string;
  mutatorName: string;
  replacement?: string;
  status: string;
  statusReason?: string;
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
}

const { values, positionals } = parseArgs({ options: { report: { type: 'string' } }, allowPositionals: true });
const moduleName = positionals[0] ?? '';
if (!isModuleName(moduleName) || positionals.length > 1) {
  console.error(
    `survivors: usage: npx tsx scripts/mutate/survivors.ts <${MODULE_NAMES.join('|')}> [--report <mutation.json>]`,
  );
  process.exit(2);
}
const reportPath = values.report ?? `reports/mutation/${moduleName}/mutation.json`;
let report: Report<{ source: string; mutants: Mutant[] }>;
try {
  report = readReport(reportPath);
} catch (error) {
  console.error(`survivors: ${(error as Error).message}`);
  process.exit(2);
}

interface Position {
  line: number;
  /** 0-based, as Babel counts. */
  column: number;
}
interface NodePath {
  node: { loc?: { start: Position; end: Position } | null };
  skip(): void;
}
// The Babel Stryker's instrumenter walks the reference with; it ships no types of its own.
const babel = createRequire(import.meta.url)('@babel/core') as {
  parseSync(code: string, options: object): unknown;
  traverse(ast: unknown, visitor: { enter(path: NodePath): void }): void;
};
const ignorer = strykerPlugins[0]!.value as { shouldIgnore(path: NodePath): string | undefined };

/**
 * The code of `source` the fault-switch ignorer leaves out today: a report written before the
 * ignorer learnt a shape has mutants there, equivalent all the same.
 */
function faultOnlyRanges(source: string): Array<{ start: Position; end: Position }> {
  const ast = babel.parseSync(source, {
    filename: 'reference.ts',
    configFile: false,
    babelrc: false,
    parserOpts: { plugins: ['typescript'] },
  });
  const ranges: Array<{ start: Position; end: Position }> = [];
  babel.traverse(ast, {
    enter(path) {
      if (ignorer.shouldIgnore(path) === undefined || !path.node.loc) return;
      ranges.push({ start: path.node.loc.start, end: path.node.loc.end });
      path.skip();
    },
  });
  return ranges;
}

const before = (a: Position, b: Position): boolean => a.line < b.line || (a.line === b.line && a.column <= b.column);

/** A fault switch in a condition's text, and whether it is negated. */
const SWITCH_IN_TEXT = /(!?)\s*(?:[\w$]+(?:\(\))?\.)*faults(?:\(\))?\.has\(/g;
/** A condition that is a negated fault switch and nothing else. */
const NEGATED_SWITCH_ONLY = /^!\s*(?:[\w$]+(?:\(\))?\.)*faults(?:\(\))?\.has\([^()]*\)$/;

/**
 * A condition already what the mutant makes it while the fault is off: `A && faults.has(…)` →
 * `false`, and `!faults.has(…)` → `true`.
 */
function alreadySo(mutant: Mutant, lines: readonly string[]): boolean {
  if (mutant.mutatorName !== 'ConditionalExpression') return false;
  const { start, end } = mutant.location;
  const text = lines
    .slice(start.line - 1, end.line)
    .map((line, i, all) => (i === all.length - 1 ? line.slice(0, end.column - 1) : line))
    .join('\n')
    .slice(start.column - 1)
    .trim();
  if (mutant.replacement === 'true') return NEGATED_SWITCH_ONLY.test(text);
  if (mutant.replacement !== 'false' || /\|\|/.test(text)) return false;
  return [...text.matchAll(SWITCH_IN_TEXT)].some((match) => match[1] === '');
}

const tally = new Map<string, number>();
const survivors: string[] = [];
let equivalent = 0;
/** Why an ignored mutant was not run: the fault-switch ignorer, or a `// Stryker disable` reason's class. */
const leftOut = new Map<string, number>();
function leftOutAs(reason: string | undefined): string {
  if (reason?.includes('a fault switch')) return 'fault switch';
  const declared = DISABLE_REASON_CLASS.exec(reason ?? '');
  return declared?.[1] ?? 'other';
}
for (const [path, file] of Object.entries(report.files)) {
  const lines = file.source.split('\n');
  const faultOnly = faultOnlyRanges(file.source);
  // The report counts columns from 1.
  const inFaultOnlyCode = ({ location }: Mutant): boolean =>
    faultOnly.some(
      (range) =>
        before(range.start, { line: location.start.line, column: location.start.column - 1 }) &&
        before({ line: location.end.line, column: location.end.column - 1 }, range.end),
    );
  for (const mutant of file.mutants) {
    tally.set(mutant.status, (tally.get(mutant.status) ?? 0) + 1);
    if (mutant.status === 'Ignored') {
      const why = leftOutAs(mutant.statusReason);
      leftOut.set(why, (leftOut.get(why) ?? 0) + 1);
    }
    const line = lines[mutant.location.start.line - 1] ?? '';
    const replacement = (mutant.replacement ?? '').replace(/\s+/g, ' ').slice(0, 100);
    // A timeout counts as detected; listed, since a survivor on a loaded machine can end as one.
    if (mutant.status === 'Timeout')
      survivors.push(
        `timeout      ${path}:${mutant.location.start.line}  ${mutant.mutatorName}  → ${replacement}   | ${line.trim().slice(0, 120)}`,
      );
    if (mutant.status !== 'Survived' && mutant.status !== 'NoCoverage') continue;
    const faultSwitch = inFaultOnlyCode(mutant) || alreadySo(mutant, lines);
    if (faultSwitch) equivalent += 1;
    survivors.push(
      `${faultSwitch ? 'fault-switch ' : 'TRIAGE       '}${path}:${mutant.location.start.line}  ${mutant.mutatorName}  → ${replacement}   | ${line.trim().slice(0, 120)}`,
    );
  }
}

const count = (status: string): number => tally.get(status) ?? 0;
const detected = count('Killed') + count('Timeout');
const judged = detected + count('Survived') + count('NoCoverage') - equivalent;
const percent = (part: number, whole: number): string => (whole ? `${((100 * part) / whole).toFixed(1)}%` : '-');
console.log(`${moduleName}: ${[...tally].map(([status, n]) => `${status} ${n}`).join(', ')}`);
console.log(`left out, not run: ${[...leftOut].map(([why, n]) => `${n} ${why}`).join(', ') || 'none'}`);
console.log(
  `equivalent (in code only a fault reaches, as the ignorer reads it today): ${equivalent}; score ${detected}/${judged} = ${percent(detected, judged)}`,
);
const noStatedRule = leftOut.get('no stated rule') ?? 0;
console.log(
  `counting the mutants left out as breaking no stated rule as survivors: ${detected}/${judged + noStatedRule} = ${percent(detected, judged + noStatedRule)}`,
);
for (const line of survivors.sort()) console.log(line);
