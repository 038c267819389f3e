/**
 * `npx tsx scripts/mutate/survivors.ts <module>`: the survivors of the module's last mutation
 * run (reports/mutation/<module>/mutation.json), one line each with file:line, the mutator and
 * the replacement, for triage in docs/proving.md; and the score, killed (timeouts included)
 * over the mutants that compiled less the equivalent ones. A mutant on a line that reads the
 * run's fault set (`faults.has(…)`) is equivalent without a fault, which a mutant run never
 * switches on; the others are for a person to triage. The mutants left out before the run are
 * counted by why: the fault-switch ignorer, or the class a `// Stryker disable` comment's reason
 * starts with (`equivalent:` or `no stated rule:`); the second score counts the latter as
 * survivors, as the mutants they were before they were left out.
 */
import { readFileSync } from 'node:fs';
import { isModuleName, MODULE_NAMES } from './modules.js';

interface Mutant {
  id: string;
  mutatorName: string;
  replacement?: string;
  status: string;
  statusReason?: string;
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
}
interface MutationReport {
  files: Record<string, { source: string; mutants: Mutant[] }>;
}

const moduleName = process.argv[2] ?? '';
if (!isModuleName(moduleName)) {
  console.error(`survivors: name a module, one of ${MODULE_NAMES.join(', ')}`);
  process.exit(2);
}
const report = JSON.parse(readFileSync(`reports/mutation/${moduleName}/mutation.json`, 'utf8')) as MutationReport;

const FAULT_SWITCH = /\bfaults\.has\(/;
const tally = new Map<string, number>();
const survivors: string[] = [];
let equivalent = 0;
/** Why an ignored mutant was not run: the fault-switch ignorer, or a `// Stryker disable` reason's class. */
const leftOut = new Map<string, number>();
function leftOutAs(reason: string | undefined): string {
  if (reason?.includes('a fault switch')) return 'fault switch';
  const declared = /^(equivalent|no stated rule):/.exec(reason ?? '');
  return declared?.[1] ?? 'other';
}
for (const [path, file] of Object.entries(report.files)) {
  const lines = file.source.split('\n');
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
    const faultSwitch = FAULT_SWITCH.test(line);
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
  `equivalent (on a fault switch's line): ${equivalent}; score ${detected}/${judged} = ${percent(detected, judged)}`,
);
const noStatedRule = leftOut.get('no stated rule') ?? 0;
console.log(
  `counting the mutants left out as breaking no stated rule as survivors: ${detected}/${judged + noStatedRule} = ${percent(detected, judged + noStatedRule)}`,
);
for (const line of survivors.sort()) console.log(line);
