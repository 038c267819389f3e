/** Writes every report from the one RunReport; writers never recompute verdicts. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { maskDeep, mask } from '../secrets/mask.js';
import { renderHtml } from './html.js';
import { renderJunit } from './junit.js';
import { renderMarkdown } from './markdown.js';
import type { RunReport } from './model.js';

export function writeReports(report: RunReport, dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  const safe = maskDeep(report);
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
