/**
 * `npx tsx scripts/mutate/plan.ts <file> [<from line> [<to line>]] [--against <mutation.json>]`:
 * the mutants Stryker makes of one reference file, without running any: each at its line with
 * its mutator and replacement, and either RUN or why it is left out (the fault-switch ignorer,
 * or a `// Stryker disable` comment's reason). For checking a disable comment or the ignorer
 * before a run that costs minutes per mutant: a comment covers every mutant of its mutators on
 * its line, those a check kills too. With `--against`, each mutant a comment leaves out is also
 * looked up in a run's report, and the command fails if the report says a check killed one.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  DISABLE_REASON_CLASS,
  indexReport,
  type Judgement,
  judge,
  mutantKey,
  type Report,
  type ReportedFile,
  readReport,
  readSource,
} from './against.js';
import { plannedMutants } from './instrument.js';

const USAGE =
  'plan: usage: npx tsx scripts/mutate/plan.ts <file> [<from line> [<to line>]] [--against <mutation.json>]';
function usage(problem: string): never {
  console.error(`${USAGE}\nplan: ${problem}`);
  process.exit(2);
}

const { values, positionals } = parseArgs({ options: { against: { type: 'string' } }, allowPositionals: true });
const [file, from = '1', to = String(Number.MAX_SAFE_INTEGER)] = positionals;
if (!file || !Number.isInteger(Number(from)) || !Number.isInteger(Number(to)))
  usage('name a file, and lines as whole numbers');

function reportedFile(reportPath: string, name: string): ReportedFile {
  let report: Report;
  try {
    report = readReport(reportPath);
  } catch (error) {
    usage((error as Error).message);
  }
  const reported = report.files?.[name];
  if (!reported) usage(`${reportPath} has no mutants of ${name}: name the report of a run that mutated it`);
  return reported;
}
const index = values.against === undefined ? undefined : indexReport(reportedFile(values.against, file));

const fileText = readFileSync(file, 'utf8');
const source = readSource(fileText);
const mutants = await plannedMutants(file, fileText);

/** One line of text, at most `width` characters: a replacement may span lines. */
const oneLine = (text: string, width: number) => text.replace(/\s+/g, ' ').slice(0, width);
const byComment = (reason: string | undefined) => DISABLE_REASON_CLASS.test(reason ?? '');

let run = 0;
const judged = new Map<Judgement, number>();
for (const mutant of mutants) {
  // Stryker counts lines from 0.
  const line = mutant.location.start.line + 1;
  if (line < Number(from) || line > Number(to)) continue;
  if (mutant.status === undefined) run += 1;
  let why = mutant.status === undefined ? 'RUN' : `left out: ${oneLine(mutant.statusReason ?? '', 70)}`;
  if (index && mutant.status !== undefined && byComment(mutant.statusReason)) {
    const judgement = judge(index, mutantKey(source, mutant.location, mutant.mutatorName, mutant.replacement));
    judged.set(judgement, (judged.get(judgement) ?? 0) + 1);
    why += `  [report: ${judgement}]`;
  }
  console.log(
    `${file}:${line}  ${mutant.mutatorName.padEnd(22)} → ${oneLine(mutant.replacement, 50).padEnd(50)}  ${why}`,
  );
}
console.log(`${run} of ${mutants.length} mutants would run`);
if (index) {
  const count = (judgement: Judgement) => judged.get(judgement) ?? 0;
  console.log(
    `left out by disable comments: ${count('survived')} survived, ${count('compile error')} did not compile, ` +
      `${count('not judged')} not judged, ${count('killed')} killed in ${values.against}`,
  );
  if (count('killed') > 0) {
    console.error(
      'plan: a disable comment leaves out a mutant a check killed: narrow the comment to its mutator, or remove it',
    );
    // Not process.exit: it would cut off what stdout has not yet written to a pipe.
    process.exitCode = 1;
  }
}
