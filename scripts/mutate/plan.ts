/**
 * `npx tsx scripts/mutate/plan.ts <file> [<from line> [<to line>]]`: the mutants Stryker makes of
 * one reference file, without running any: each at its line with its mutator and replacement,
 * and either RUN or why it is left out (the fault-switch ignorer, or a `// Stryker disable`
 * comment's reason). For checking a disable comment or the ignorer before a run that costs
 * minutes per mutant: a comment covers every mutant of its mutators on its line, those a check
 * kills too.
 */
import { readFileSync } from 'node:fs';
import { plannedMutants } from './instrument.js';

const [file, from = '1', to = String(Number.MAX_SAFE_INTEGER)] = process.argv.slice(2);
if (!file || !Number.isInteger(Number(from)) || !Number.isInteger(Number(to))) {
  console.error('plan: usage: npx tsx scripts/mutate/plan.ts <file> [<from line> [<to line>]]');
  process.exit(2);
}

const mutants = await plannedMutants(file, readFileSync(file, 'utf8'));

/** One line of text, at most `width` characters: a replacement may span lines. */
const oneLine = (text: string, width: number) => text.replace(/\s+/g, ' ').slice(0, width);

let run = 0;
for (const mutant of mutants) {
  // Stryker counts lines from 0.
  const line = mutant.location.start.line + 1;
  if (line < Number(from) || line > Number(to)) continue;
  if (mutant.status === undefined) run += 1;
  const why = mutant.status === undefined ? 'RUN' : `left out: ${oneLine(mutant.statusReason ?? '', 70)}`;
  console.log(
    `${file}:${line}  ${mutant.mutatorName.padEnd(22)} → ${oneLine(mutant.replacement, 50).padEnd(50)}  ${why}`,
  );
}
console.log(`${run} of ${mutants.length} mutants would run`);
