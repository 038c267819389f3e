/**
 * What changed between two runs: verdicts that differ, `observe` values that differ, timing
 * figures side by side. Markdown to stdout, HTML to a file.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { diffReports, renderDiffHtml, renderDiffMarkdown } from '../../report/diff.js';
import { readReportFile } from '../../report/validate.js';
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
  description: 'Verdicts, observations and timing figures that changed. Markdown to stdout, HTML to a file.',
  positionals: { usage: '<a/report.json> <b/report.json>', description: 'the earlier and the later run', min: 2, max: 2 },
  options: {
    html: { type: 'string', value: '<file>', description: 'where the HTML goes (default reports/diff.html)' },
    labels: { type: 'string', value: '<A,B>', description: 'names of the two runs (default their folder names)' },
  },
  exitCodes: { 0: 'the diff was written', 2: 'it could not be (a missing report, or one schemas/report.schema.json refuses)' },
  async run({ values, positionals }) {
    const [pathA, pathB] = positionals as [string, string];
    const labels = typeof values.labels === 'string' ? values.labels.split(',').map((label) => label.trim()) : undefined;
    if (labels && (labels.length !== 2 || labels.some((label) => !label))) throw new UsageError('--labels takes two names separated by a comma');
    const a = readReportFile(pathA);
    const b = readReportFile(pathB);
    const diff = diffReports(a, b, (labels as [string, string] | undefined) ?? [defaultLabel(pathA, pathB), defaultLabel(pathB, pathA)]);
    const htmlPath = typeof values.html === 'string' ? values.html : 'reports/diff.html';
    mkdirSync(dirname(resolve(htmlPath)), { recursive: true });
    writeFileSync(htmlPath, mask(renderDiffHtml(diff)));
    process.stdout.write(mask(renderDiffMarkdown(diff)));
    process.stderr.write(`HTML: ${htmlPath}\n`);
    return 0;
  },
};
