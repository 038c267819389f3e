/**
 * What changed between two runs: verdicts that differ, `observe` values that differ, timing
 * figures side by side. Markdown to stdout, HTML to a file.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { diffReports, renderDiffHtml, renderDiffMarkdown } from '../../report/diff.js';
import { readReportFile } from '../../report/validate.js';
import { newFailures, newFailuresMarkdown } from '../../report/new-failures.js';
import { EXIT } from '../../errors.js';
import { writeLine } from '../../text/console.js';
import { mask } from '../../secrets/mask.js';
import { type Command, UsageError } from '../command.js';

/** "reports/a/report.json" → "a": the folder names two runs apart better than the file name. */
function defaultLabel(path: string, other: string): string {
  const name = basename(path) === 'report.json' ? basename(dirname(resolve(path))) : basename(path);
  const otherName = basename(other) === 'report.json' ? basename(dirname(resolve(other))) : basename(other);
  return name === otherName ? path : name;
}

export const reportDiffCommand: Command = {
  words: ['report', 'diff'],
  summary: 'Compare two report.json files.',
  description:
    'Verdicts, observations and timing figures that changed. Markdown to stdout, HTML to a file. Exits 1 when a check that\n' +
    'passed (or was expected to fail) in the earlier report fails in the later one: a CI gate on new failures.',
  positionals: {
    usage: '<a/report.json> <b/report.json>',
    description: 'the earlier and the later run',
    min: 2,
    max: 2,
  },
  options: {
    html: { type: 'string', value: '<file>', description: 'where the HTML goes (default reports/diff.html)' },
    labels: { type: 'string', value: '<A,B>', description: 'names of the two runs (default their folder names)' },
  },
  exitCodes: {
    0: 'the diff was written, and no check that passed (or was expected to fail) in the earlier report fails in the later one',
    1: 'the diff was written, and such a check fails now (named on stderr and first in the Markdown)',
    2: 'it could not be (a missing report, or one schemas/report.schema.json refuses)',
  },
  async run({ values, positionals }) {
    const [pathA, pathB] = positionals as [string, string];
    const labels =
      typeof values.labels === 'string' ? values.labels.split(',').map((label) => label.trim()) : undefined;
    if (labels && (labels.length !== 2 || labels.some((label) => !label)))
      throw new UsageError('--labels takes two names separated by a comma');
    const a = readReportFile(pathA);
    const b = readReportFile(pathB);
    const names: [string, string] = (labels as [string, string] | undefined) ?? [
      defaultLabel(pathA, pathB),
      defaultLabel(pathB, pathA),
    ];
    const diff = diffReports(a, b, names);
    const broken = newFailures(a, b);
    const htmlPath = typeof values.html === 'string' ? values.html : 'reports/diff.html';
    mkdirSync(dirname(resolve(htmlPath)), { recursive: true });
    writeFileSync(htmlPath, mask(renderDiffHtml(diff)));
    process.stdout.write(mask(newFailuresMarkdown(broken, names) + renderDiffMarkdown(diff)));
    process.stderr.write(`HTML: ${htmlPath}\n`);
    if (broken.length === 0) return EXIT.passed;
    writeLine(
      process.stderr,
      `report diff: ${broken.length} new failure${broken.length === 1 ? '' : 's'} since ${names[0]}: ${broken.map((failure) => failure.id).join(', ')}`,
    );
    return EXIT.mustFailed;
  },
};
