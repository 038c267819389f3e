/**
 * npm run report:diff -- [--html <file>] [--labels A,B] a/report.json b/report.json
 *
 * What changed between two runs: verdicts that differ, `observe` values that differ,
 * timing figures side by side. Markdown to stdout, HTML to a file (default
 * reports/diff.html). Exit 0 when the diff was written, 2 when it could not be (a
 * missing or malformed report), with a one-line reason on stderr.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { diffReports, renderDiffHtml, renderDiffMarkdown } from '../src/report/diff.js';
import type { RunReport } from '../src/report/model.js';
import { mask } from '../src/secrets/mask.js';

const USAGE = 'usage: npm run report:diff -- [--html <file>] [--labels A,B] a/report.json b/report.json';

function fail(reason: string): never {
  process.stderr.write(`report:diff: ${mask(reason)}\n`);
  process.exit(2);
}

function readReport(path: string): RunReport {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    fail(`cannot read ${path}: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    fail(`${path} is not JSON: ${(error as Error).message}`);
  }
  const report = value as Partial<RunReport>;
  if (!report || !Array.isArray(report.checks) || typeof report.summary !== 'object') fail(`${path} is not a report.json (no checks or summary)`);
  return report as RunReport;
}

/** "reports/a/report.json" → "a": the folder names two runs apart better than the file name. */
function defaultLabel(path: string, other: string): string {
  const name = basename(path) === 'report.json' ? basename(dirname(resolve(path))) : basename(path);
  const otherName = basename(other) === 'report.json' ? basename(dirname(resolve(other))) : basename(other);
  return name === otherName ? path : name;
}

function main(): void {
  let parsed;
  try {
    parsed = parseArgs({
      args: process.argv.slice(2),
      allowPositionals: true,
      options: { html: { type: 'string' }, labels: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    fail(`${(error as Error).message}; ${USAGE}`);
  }
  if (parsed.values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const [pathA, pathB, ...extra] = parsed.positionals;
  if (!pathA || !pathB || extra.length > 0) fail(`expected two report.json files; ${USAGE}`);
  const labels = parsed.values.labels?.split(',').map((label) => label.trim());
  if (labels && (labels.length !== 2 || labels.some((label) => !label))) fail(`--labels takes two names separated by a comma; ${USAGE}`);
  const a = readReport(pathA);
  const b = readReport(pathB);
  const diff = diffReports(a, b, (labels as [string, string] | undefined) ?? [defaultLabel(pathA, pathB), defaultLabel(pathB, pathA)]);
  const htmlPath = parsed.values.html ?? 'reports/diff.html';
  try {
    mkdirSync(dirname(resolve(htmlPath)), { recursive: true });
    writeFileSync(htmlPath, mask(renderDiffHtml(diff)));
  } catch (error) {
    fail(`cannot write ${htmlPath}: ${(error as Error).message}`);
  }
  process.stdout.write(mask(renderDiffMarkdown(diff)));
  process.stderr.write(`HTML: ${htmlPath}\n`);
}

main();
