import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CATALOG, CHECKS } from '../src/catalog/checks.js';
import { CLAUSES } from '../src/catalog/spec-clauses.js';
import { escapeMarkdownCell } from '../src/report/escape.js';
import { PUBLISHED_SCHEMAS } from '../src/docs/schemas.js';
import { checkBodyLines, declaredCheckLocations } from '../src/docs/check-bodies.js';
import { faultsByCheck, renderTraceability } from '../src/docs/traceability.js';
import { renderFaultMatrix } from '../src/docs/fault-matrix.js';
import { RACE_WINDOW_FAULTS } from '../reference/faults.js';
import { FAULT_PROOFS } from './faults/registry.js';
import { FAULT_EXPECTATIONS } from './receiver-cert/faults.js';

const REGISTRIES = { service: FAULT_PROOFS, receiver: FAULT_EXPECTATIONS };
const BODIES = checkBodyLines(
  await declaredCheckLocations(),
  CATALOG.map((check) => check.id),
);

describe('docs/traceability.md', () => {
  it('is what `npm run docs` generates from the catalog (run it after changing checks)', () => {
    expect(readFileSync('docs/traceability.md', 'utf8')).toBe(renderTraceability(REGISTRIES, BODIES));
  });

  it('quotes, for every must of either subject, the sentence it rests on, and names every outside source', () => {
    const doc = renderTraceability(REGISTRIES, BODIES);
    const rows = doc.split('\n');
    for (const check of CATALOG) {
      if (check.level === 'must') {
        const row = rows.find((line) => line.startsWith(`| ${check.ground} | `) && line.includes(' | "'));
        expect(row, `${check.id}: no quoted ground`).toBeDefined();
        expect(row!.split(' | ').at(-1), check.id).toMatch(new RegExp(`(^|, )${check.id}( \\||,|$)`));
        expect(row, check.id).toContain(escapeMarkdownCell(CLAUSES[check.ground!].text));
      }
      if (check.source)
        expect(
          rows.some((line) =>
            line.startsWith(`| ${check.id} | ${check.level} | ${escapeMarkdownCell(check.source!)} |`),
          ),
          check.id,
        ).toBe(true);
    }
  });

  it('names, for every check of either subject, the file and line of its body, where that line declares it', () => {
    const rows = renderTraceability(REGISTRIES, BODIES).split('\n');
    for (const check of CATALOG) {
      const where = BODIES.get(check.id)!;
      expect(
        rows.some(
          (line) =>
            line.startsWith(`| ${check.id} | `) && line.includes(`[${where}](../${where.replace(/:(\d+)$/, '#L$1')})`),
        ),
        check.id,
      ).toBe(true);
      const [path, line] = where.split(':');
      const from = readFileSync(path!, 'utf8')
        .split('\n')
        .slice(Number(line) - 1)
        .join('\n');
      expect(from, where).toMatch(new RegExp(`^\\s*check\\(\\s*'${check.id}'`));
    }
  });

  it('docs/fault-matrix.md is what `npm run docs` generates from the matrix (run it after changing cells, classes or checks)', () => {
    expect(readFileSync('docs/fault-matrix.md', 'utf8')).toBe(renderFaultMatrix());
  });

  it.each(Object.keys(PUBLISHED_SCHEMAS))('%s is what `npm run docs` generates from its zod schema', (path) => {
    expect(readFileSync(path, 'utf8')).toBe(PUBLISHED_SCHEMAS[path]!());
  });

  it('proves every must and should check of either subject with at least one fault', () => {
    const proven = faultsByCheck(REGISTRIES);
    const unproven = CATALOG.filter((check) => check.level !== 'observe' && !proven.has(check.id)).map(
      (check) => check.id,
    );
    expect(unproven).toEqual([]);
  });

  it('proves the faults of a race window at the calm moment', () => {
    // On the shared, busy reference two requests sent at once can arrive a round trip apart.
    const notCalm = RACE_WINDOW_FAULTS.filter((fault) =>
      FAULT_PROOFS.some((proof) => proof.fault === fault && proof.calm !== true),
    );
    expect(notCalm).toEqual([]);
    for (const fault of RACE_WINDOW_FAULTS)
      expect(
        FAULT_PROOFS.some((proof) => proof.fault === fault),
        fault,
      ).toBe(true);
  });

  it('names in the fault registry only checks of the catalog', () => {
    const known = new Set(CHECKS.map((check) => check.id));
    for (const proof of FAULT_PROOFS)
      for (const id of proof.breaks) expect(known.has(id), `${proof.fault}: ${id}`).toBe(true);
  });
});

describe('finding the body of a check', () => {
  const declared = [
    { id: 'DEMO-ONE', location: 'suites/demo.suite.ts:2' },
    { id: 'DEMO-TWO', location: 'suites/demo.suite.ts:4' },
    { id: 'DEMO-OTHER', location: 'src/receiver-cert/checks/x.ts:2' },
  ];

  it('gives the location each declaration recorded, and passes over ids it is not asked for', () => {
    expect(checkBodyLines(declared, ['DEMO-ONE', 'DEMO-TWO'])).toEqual(
      new Map([
        ['DEMO-ONE', 'suites/demo.suite.ts:2'],
        ['DEMO-TWO', 'suites/demo.suite.ts:4'],
      ]),
    );
  });

  it('refuses an id nothing declares, naming it', () => {
    expect(() => checkBodyLines(declared, ['DEMO-ONE', 'DEMO-MISSING'])).toThrow(
      "no check('ID', …) declares DEMO-MISSING",
    );
  });

  it('points every check of the catalog at a line of a file that declares checks', () => {
    for (const [id, location] of BODIES) {
      const [path, line] = location.split(':');
      expect(path, id).toMatch(/^(suites\/|src\/receiver-cert\/checks\/)/);
      expect(readFileSync(path!, 'utf8').split('\n')[Number(line) - 1], id).toContain('check(');
    }
  });
});
