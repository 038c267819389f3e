import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATALOG, CHECKS_BY_CLAUSE } from '../../src/catalog/checks.js';
import {
  clause,
  CLAUSE_IDS,
  CLAUSES,
  CONTRACT_CLAUSE_IDS,
  documentOf,
  renderClauses,
  SPEC_CLAUSE_IDS,
  type ClauseId,
} from '../../src/catalog/spec-clauses.js';

const SPEC_PATH = resolve(import.meta.dirname, '../../../shared/spec/service-interface.md');
const spec = existsSync(SPEC_PATH) ? readFileSync(SPEC_PATH, 'utf8') : undefined;
const CONTRACT_PATH = resolve(import.meta.dirname, '../../../shared/contracts/control-interface.md');
const contract = existsSync(CONTRACT_PATH) ? readFileSync(CONTRACT_PATH, 'utf8') : undefined;

describe('spec clauses', () => {
  it('have ids of upper-case words joined by -', () => {
    for (const id of CLAUSE_IDS) expect(id).toMatch(/^[A-Z]+(?:-[A-Z0-9]+)+$/);
  });

  it.skipIf(spec === undefined)(
    'quote the spec: a numbered item under its number, a table row cell by cell, a sentence as written',
    () => {
      const lines = spec!.split('\n').map((line) => line.trim());
      for (const id of SPEC_CLAUSE_IDS) {
        const { text } = CLAUSES[id];
        const item = /-(\d+)$/.exec(id)?.[1];
        if (item) expect(lines, id).toContain(`${item}. ${text}`);
        else if (text.includes(' | ')) expect(lines, id).toContain(`| ${text} |`);
        else expect(spec, id).toContain(text);
      }
    },
  );

  it.skipIf(contract === undefined)(
    'quote the control contract as written, lines joined, under one of its headings',
    () => {
      // The contract wraps its sentences over lines; a quote is held against the text with
      // every run of white space read as one space, so a rewrapped contract still matches.
      const prose = contract!.replace(/\s+/g, ' ');
      const headings = contract!
        .split('\n')
        .filter((line) => line.startsWith('## '))
        .map((line) => line.slice(3));
      expect(CONTRACT_CLAUSE_IDS.length).toBeGreaterThan(0);
      for (const id of CONTRACT_CLAUSE_IDS) {
        const { section, text } = CLAUSES[id];
        expect(id).toMatch(/^CTL-/);
        expect(prose, id).toContain(text);
        const [document, heading, ...deeper] = section.split(' > ');
        expect(document, id).toBe('Control interface');
        expect(deeper, id).toEqual([]);
        expect(
          headings.some((line) => line.startsWith(heading!)),
          `${id}: no heading "## ${heading}…" in the contract`,
        ).toBe(true);
      }
    },
  );

  it('tell the spec from the contract by the CTL- prefix alone', () => {
    for (const id of CLAUSE_IDS) expect(documentOf(id), id).toBe(id.startsWith('CTL-') ? 'contract' : 'spec');
    expect(CLAUSE_IDS).toEqual([...SPEC_CLAUSE_IDS, ...CONTRACT_CLAUSE_IDS]);
  });

  it("render a contract clause under the contract's section, beside the spec's", () => {
    expect(renderClauses(['AUTH-SESSION-2', 'CTL-SESSION-JWT'])).toBe(
      'Authentication > Session tokens: AUTH-SESSION-2; Control interface > Session tokens: CTL-SESSION-JWT',
    );
  });

  it('are each covered by a check or say why not', () => {
    const silent = CLAUSE_IDS.filter((id) => (CHECKS_BY_CLAUSE.get(id) ?? []).length === 0 && !CLAUSES[id].note);
    expect(silent).toEqual([]);
  });

  it('render as ids grouped by section, in the order cited', () => {
    expect(renderClauses(['SIG-1', 'ERR-RULE-2', 'SIG-4'])).toBe(
      'Events > Signature: SIG-1, SIG-4; Errors > Rules: ERR-RULE-2',
    );
  });

  it('refuse an unknown id: at type-check time, and at load time for one that slipped past', () => {
    // @ts-expect-error: not a clause id
    const unknown: ClauseId = 'SIG-9';
    expect(() => clause(unknown)).toThrow('unknown spec clause id SIG-9');
    expect(() => renderClauses(['SIG-1', unknown])).toThrow('unknown spec clause id SIG-9');
  });
});

describe('checks citing clauses', () => {
  it('cite at least one clause each, and only clauses that exist', () => {
    for (const check of CATALOG) {
      expect(check.clauses.length, check.id).toBeGreaterThan(0);
      for (const id of check.clauses) expect(Object.hasOwn(CLAUSES, id), `${check.id}: ${id}`).toBe(true);
    }
  });

  it('show their clauses in the report as rendered from the ids', () => {
    for (const check of CATALOG) expect(check.clause, check.id).toBe(renderClauses(check.clauses));
  });

  it('are listed under every clause they cite, and only there (the generated reverse map)', () => {
    for (const id of CLAUSE_IDS) {
      const listed = (CHECKS_BY_CLAUSE.get(id) ?? []).map((check) => check.id);
      expect(listed, id).toEqual(CATALOG.filter((check) => check.clauses.includes(id)).map((check) => check.id));
    }
    expect(CHECKS_BY_CLAUSE.get('SIG-4')?.map((check) => check.id)).toContain('RCV-REJECT-WRONG-SIGNATURE');
  });

  it('state a tolerance only with the clause that gives its number, which they cite', () => {
    const withTolerance = CATALOG.filter((check) => check.tolerance);
    expect(withTolerance.length).toBeGreaterThan(0);
    for (const check of withTolerance) {
      const { seconds, clause: id, allowance } = check.tolerance!;
      expect(check.clauses, check.id).toContain(id);
      // Without one number (a schedule of delays), the clause states durations and the allowance says what is allowed around them.
      if (seconds === undefined) {
        expect(allowance, check.id).toBeTruthy();
        expect(CLAUSES[id].text, check.id).toMatch(/\d+ (minute|hour)s?/);
      } else
        expect(CLAUSES[id].text, check.id).toMatch(
          seconds === 60 ? /60 seconds|1 minute/ : new RegExp(`\\b${seconds} seconds`),
        );
    }
  });
});
