import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CATALOG } from '../../src/catalog/checks.js';
import { FAULT_CLASS_IDS, FAULT_CLASSES } from '../../src/catalog/fault-classes.js';
import { coverage, matrixProblems, owedCells, resolveCell, ROWS, type Row } from '../../src/catalog/matrix.js';
import { CLAUSE_IDS, type ClauseId } from '../../src/catalog/spec-clauses.js';

/** An id no clause has, past the type checker: the test's bad input. */
const UNKNOWN = 'SIG-9' as ClauseId;

const CHECK_IDS = new Set(CATALOG.map((check) => check.id));

/**
 * Service checks in no cell: each holds a rule that its clause's row reasons away as seen elsewhere,
 * and the row's reason names the check.
 */
const PLACED_BY_REASON: readonly string[] = ['INPUT-UNKNOWN-PATH'];

describe('the fault matrix', () => {
  it('has a row for every clause id of the spec and the contract, holds every cell to a check or a reason, and names only checks and clauses that exist', () => {
    expect(matrixProblems(ROWS, CLAUSE_IDS, CHECK_IDS)).toEqual([]);
  });

  it('places every service check in a cell, so that each is traced to a rule and a class', () => {
    const placed = new Set<string>();
    for (const row of Object.values(ROWS))
      for (const cell of Object.values(row.cells ?? {}))
        if (cell && 'checks' in cell) for (const id of cell.checks) placed.add(id);
    const unplaced = CATALOG.filter((check) => check.subject === 'service' && !placed.has(check.id)).map(
      (check) => check.id,
    );
    expect(unplaced).toEqual(PLACED_BY_REASON);
  });

  it('holds no owed cell: a rule found is a check written, not a note', () => {
    expect(owedCells()).toEqual([]);
  });

  it('numbers its classes 1 to n, in column order, with ids the method names', () => {
    expect(FAULT_CLASS_IDS.map((id) => FAULT_CLASSES[id].number)).toEqual(FAULT_CLASS_IDS.map((_, index) => index + 1));
  });

  it('has a section per class in docs/method.md, headed by its number', () => {
    const headings = readFileSync('docs/method.md', 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('### '));
    for (const id of FAULT_CLASS_IDS)
      expect(
        headings.some((line) => line.startsWith(`### ${FAULT_CLASSES[id].number}. `)),
        id,
      ).toBe(true);
  });

  it('counts every cell once in the coverage, for each class and overall', () => {
    const all = coverage(CLAUSE_IDS, FAULT_CLASS_IDS);
    expect(all.cells).toBe(CLAUSE_IDS.length * FAULT_CLASS_IDS.length);
    expect(all.missing).toBe(0);
    const perClass = FAULT_CLASS_IDS.map((id) => coverage(CLAUSE_IDS, [id]));
    expect(perClass.reduce((sum, c) => sum + c.checked, 0)).toBe(all.checked);
    expect(perClass.reduce((sum, c) => sum + c.owed, 0)).toBe(all.owed);
    expect(all.checked).toBeGreaterThan(0);
  });
});

describe('what the matrix test refuses', () => {
  const clauses = ['SIG-1', 'SIG-4'];
  const complete: Record<string, Row> = {
    'SIG-1': { kind: 'informative', rest: { kind: 'not-applicable', text: 'a reason' } },
    'SIG-4': { kind: 'restated', restates: ['SIG-1'] },
  };
  const problemsOf = (rows: Record<string, Row>) => matrixProblems(rows, clauses, CHECK_IDS);

  it('accepts a matrix whose every cell has a reason', () => {
    expect(problemsOf(complete)).toEqual([]);
  });

  it('refuses a cell with neither a check nor a reason, naming it', () => {
    const problems = problemsOf({
      ...complete,
      'SIG-1': { kind: 'signature', cells: { 'near-miss': { checks: ['HOOK-OWN-SECRET'] } } },
    });
    expect(problems).toContain(
      'SIG-1 × handed-out: neither a check nor a reason (the class applies to a signature clause: name the checks, owe one, or say why none applies)',
    );
    expect(problems.some((problem) => problem.startsWith('SIG-1 × near-miss'))).toBe(false);
  });

  it('refuses a cell that names no check and owes none', () => {
    expect(
      problemsOf({
        ...complete,
        'SIG-1': { kind: 'informative', rest: complete['SIG-1']!.rest!, cells: { target: { checks: [] } } },
      }),
    ).toEqual([
      'SIG-1 × target: neither a check nor a reason (the class applies to a informative clause: name the checks, owe one, or say why none applies)',
    ]);
  });

  it('refuses a check id the catalog does not hold', () => {
    const rows = {
      ...complete,
      'SIG-1': { ...complete['SIG-1']!, cells: { target: { checks: ['HOOK-OWN-SECRET', 'HOOK-NO-SUCH-CHECK'] } } },
    };
    expect(problemsOf(rows)).toEqual(['SIG-1 × target: check HOOK-NO-SUCH-CHECK is not in src/catalog/checks.ts']);
  });

  it('refuses a row of an unknown clause, a clause without a row, and a reason or restatement naming an unknown clause', () => {
    const unknownRow = problemsOf({ ...complete, 'SIG-9': complete['SIG-1']! });
    expect(unknownRow).toContain(
      'SIG-9: a row for a clause id that spec-clauses.ts and contract-clauses.ts do not hold',
    );
    const { 'SIG-4': _dropped, ...withoutRow } = complete;
    expect(problemsOf(withoutRow)).toEqual(['SIG-4: no row in src/catalog/matrix-rows.ts']);
    expect(problemsOf({ ...complete, 'SIG-4': { kind: 'restated', restates: [UNKNOWN] } })).toContain(
      'SIG-4: restates SIG-9, which is not a clause id',
    );
    const badSee = {
      ...complete,
      'SIG-1': {
        ...complete['SIG-1']!,
        cells: { target: { reason: { kind: 'elsewhere' as const, text: 'there', see: [UNKNOWN] } } },
      },
    };
    expect(problemsOf(badSee as Record<string, Row>)).toEqual([
      'SIG-1 × target: its reason points to SIG-9, which is not a clause id',
    ]);
  });

  it('refuses a restatement of a restated row', () => {
    const rows = { ...complete, 'SIG-1': { kind: 'restated' as const, restates: ['SIG-4'] } } as Record<string, Row>;
    expect(problemsOf(rows)).toContain(
      'SIG-1: restates SIG-4, which restates another clause: point to the row that holds the cells',
    );
  });

  it('lists an owed cell, so that the owed test fails on it', () => {
    const rows = {
      ...complete,
      'SIG-1': {
        ...complete['SIG-1']!,
        cells: { target: { checks: [], owed: [{ check: 'HOOK-NEW', what: 'something' }] } },
      },
    } as Record<string, Row>;
    expect(owedCells(rows)).toEqual(['SIG-1 × target: HOOK-NEW']);
    expect(problemsOf(rows)).toEqual([]);
  });

  it('resolves a restated row to a reason that names the rows holding its cells', () => {
    const cell = resolveCell('SIG-4', 'near-miss', complete);
    expect(cell).toMatchObject({ reason: { kind: 'elsewhere', see: ['SIG-1'] }, from: 'restated' });
  });
});
