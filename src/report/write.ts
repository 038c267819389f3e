/**
 * Writes every report from the one RunReport; writers never recompute verdicts. The report
 * is masked and made printable (src/text/printable.ts) before any writer sees it, so
 * report.json holds what the other reports show; each writer escapes through
 * src/report/escape.ts as well, which applies the same rule again.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { maskDeep, mask } from '../secrets/mask.js';
import { printableDeep } from '../text/printable.js';
import { renderHtml } from './html.js';
import { renderJunit } from './junit.js';
import { renderMarkdown } from './markdown.js';
import type { RunReport } from './model.js';

/** The report as every file holds it: masked, then printable. */
export function reportAsWritten(report: RunReport): RunReport {
  return printableDeep(maskDeep(report));
}

export function writeReports(report: RunReport, dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  const safe = reportAsWritten(report);
  const files: Array<[string, string]> = [
    ['report.json', `${JSON.stringify(safe, null, 2)}\n`],
    ['junit.xml', renderJunit(safe)],
    ['report.md', renderMarkdown(safe)],
    ['report.html', renderHtml(safe)],
  ];
  return files.map(([name, content]) => {
    const path = join(dir, name);
    writeFileSync(path, mask(content));
    return path;
  });
}
