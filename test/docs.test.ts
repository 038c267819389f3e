import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../src/catalog/checks.js';
import { SPEC_CLAUSES } from '../src/catalog/spec-clauses.js';
import { PUBLISHED_SCHEMAS } from '../src/docs/schemas.js';
import { renderTraceability } from '../src/docs/traceability.js';
import { FAULT_PROOFS } from './faults/registry.js';

describe('docs/traceability.md', () => {
  it('is what `npm run docs` generates from the catalog (run it after changing checks)', () => {
    expect(readFileSync('docs/traceability.md', 'utf8')).toBe(renderTraceability(FAULT_PROOFS));
  });

  it.each(Object.keys(PUBLISHED_SCHEMAS))('%s is what `npm run docs` generates from its zod schema', (path) => {
    expect(readFileSync(path, 'utf8')).toBe(PUBLISHED_SCHEMAS[path]!());
  });

  it('traces every check to at least one spec sentence', () => {
    const traced = new Set(SPEC_CLAUSES.flatMap((clause) => clause.checks));
    const untraced = CHECKS.filter((check) => check.level !== 'observe' && !traced.has(check.id)).map((check) => check.id);
    expect(untraced).toEqual([]);
  });

  it('gives a reason for every spec sentence that no check covers', () => {
    for (const clause of SPEC_CLAUSES) if (clause.checks.length === 0) expect(clause.note, clause.text).toBeTruthy();
  });

  it('proves every must and should check with at least one fault', () => {
    const proven = new Set(FAULT_PROOFS.flatMap((proof) => proof.breaks));
    const unproven = CHECKS.filter((check) => check.level !== 'observe' && !proven.has(check.id)).map((check) => check.id);
    expect(unproven).toEqual([]);
  });

  it('names in the fault registry only checks of the catalog', () => {
    const known = new Set(CHECKS.map((check) => check.id));
    for (const proof of FAULT_PROOFS) for (const id of proof.breaks) expect(known.has(id), `${proof.fault}: ${id}`).toBe(true);
  });
});
