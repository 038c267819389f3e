import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CATALOG, CHECKS } from '../src/catalog/checks.js';
import { CLAUSES } from '../src/catalog/spec-clauses.js';
import { escapeMarkdownCell } from '../src/report/escape.js';
import { PUBLISHED_SCHEMAS } from '../src/docs/schemas.js';
import { faultsByCheck, renderTraceability } from '../src/docs/traceability.js';
import { FAULT_PROOFS } from './faults/registry.js';
import { FAULT_EXPECTATIONS } from './receiver-cert/faults.js';

const REGISTRIES = { service: FAULT_PROOFS, receiver: FAULT_EXPECTATIONS };

describe('docs/traceability.md', () => {
  it('is what `npm run docs` generates from the catalog (run it after changing checks)', () => {
    expect(readFileSync('docs/traceability.md', 'utf8')).toBe(renderTraceability(REGISTRIES));
  });

  it('quotes, for every must of either subject, the sentence it rests on, and names every outside source', () => {
    const doc = renderTraceability(REGISTRIES);
    const rows = doc.split('\n');
    for (const check of CATALOG) {
      if (check.level === 'must') {
        const row = rows.find((line) => line.startsWith(`| ${check.ground} | `) && line.includes(' | "'));
        expect(row, `${check.id}: no quoted ground`).toBeDefined();
        expect(row!.split(' | ').at(-1), check.id).toMatch(new RegExp(`(^|, )${check.id}( \\||,|$)`));
        expect(row, check.id).toContain(escapeMarkdownCell(CLAUSES[check.ground!].text));
      }
      if (check.source) expect(rows.some((line) => line.startsWith(`| ${check.id} | ${check.level} | ${escapeMarkdownCell(check.source!)} |`)), check.id).toBe(true);
    }
  });

  it.each(Object.keys(PUBLISHED_SCHEMAS))('%s is what `npm run docs` generates from its zod schema', (path) => {
    expect(readFileSync(path, 'utf8')).toBe(PUBLISHED_SCHEMAS[path]!());
  });

  it('proves every must and should check of either subject with at least one fault', () => {
    const proven = faultsByCheck(REGISTRIES);
    const unproven = CATALOG.filter((check) => check.level !== 'observe' && !proven.has(check.id)).map((check) => check.id);
    expect(unproven).toEqual([]);
  });

  it('names in the fault registry only checks of the catalog', () => {
    const known = new Set(CHECKS.map((check) => check.id));
    for (const proof of FAULT_PROOFS) for (const id of proof.breaks) expect(known.has(id), `${proof.fault}: ${id}`).toBe(true);
  });
});
