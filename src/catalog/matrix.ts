/**
 * The fault matrix: every clause of the spec and of the control contract (spec-clauses.ts)
 * crossed with every fault class (fault-classes.ts). Each cell holds the checks that cover
 * it (ids of checks.ts), or one reason why no check applies, or the check it is owed.
 * docs/fault-matrix.md is generated from here (`npm run docs`); test/catalog/matrix.test.ts
 * holds every cell to a check or a reason.
 *
 * The cells are in matrix-rows.ts. To keep them readable, a reason is written once for a
 * group of cells:
 * - each clause's row has a kind, and a class applies to a kind or not (APPLIES); where it
 *   does not, the cell takes the class's reason for that kind (KIND_REASONS), else the class's
 *   own (CLASS_REASONS);
 * - where it applies, every row of that kind must say what the cell holds: the forcing
 *   function that makes a new clause of a kind face every class that applies to it;
 * - a row that restates another clause points to it once (`restates`), and a row whose whole
 *   clause is not shown, informative or outside the API gives one reason for all its cells.
 *
 * "The spec states no rule" is not a reason where a user plainly expects one: there a cell
 * names a `should` or `observe` check, or is owed one.
 */
import type { ClauseId } from './spec-clauses.js';
import { FAULT_CLASS_IDS, type FaultClassId } from './fault-classes.js';
import { APPLIES, CLASS_REASONS, KIND_REASONS, ROWS } from './matrix-rows.js';

export { ROWS };

/** What a clause is, for the classes that apply to it. */
export type ClauseKind =
  | 'informative'
  | 'not-shown'
  | 'outside'
  | 'no-path'
  | 'restated'
  | 'identifier'
  | 'field'
  | 'operation'
  | 'credential'
  | 'scope'
  | 'registration'
  | 'limit'
  | 'transition'
  | 'duration'
  | 'delivery'
  | 'event-type'
  | 'signature'
  | 'receiver'
  | 'error';

/**
 * Why a cell has no check:
 * - `not-applicable`: the class cannot vary this clause;
 * - `no-rule`: the spec and the contract leave the outcome open, and no user plainly expects one;
 * - `not-observable`: a rule stands, but nothing outside the service can cause or see it;
 * - `elsewhere`: the class is applied to the same rule in another clause's row (named).
 */
export type ReasonKind = 'not-applicable' | 'no-rule' | 'not-observable' | 'elsewhere';

export interface Reason {
  kind: ReasonKind;
  text: string;
  /** For `elsewhere`: the rows that hold the cell. */
  see?: readonly ClauseId[];
}

/** A check the cell is owed: its id (new, or an existing check to extend) and what it must try. */
export interface Owed {
  check: string;
  what: string;
}

export type Cell = { checks: readonly string[]; owed?: readonly Owed[] } | { reason: Reason };

export interface Row {
  kind: ClauseKind;
  /** For a restating row: the clauses whose rows hold its cells. */
  restates?: readonly ClauseId[];
  /** One reason for every cell of the row that `cells` does not give. */
  rest?: Reason;
  cells?: Partial<Record<FaultClassId, Cell>>;
}

// --- Resolution ------------------------------------------------------------------------------------

/** A cell as the view and the test read it, with where its content came from. */
export type ResolvedCell =
  | { checks: readonly string[]; owed: readonly Owed[] }
  | { reason: Reason; from: 'cell' | 'row' | 'kind' | 'class' | 'restated' }
  | { missing: true };

/** What the cell holds: the row's own cell, its one reason, its restated clauses, or the kind's or class's default reason. */
export function resolveCell(
  id: ClauseId,
  faultClass: FaultClassId,
  rows: Readonly<Record<string, Row>> = ROWS,
): ResolvedCell {
  const row = rows[id];
  if (!row) return { missing: true };
  const own = row.cells?.[faultClass];
  if (own && 'reason' in own) return { reason: own.reason, from: 'cell' };
  if (own)
    return own.checks.length + (own.owed?.length ?? 0) === 0
      ? { missing: true }
      : { checks: own.checks, owed: own.owed ?? [] };
  if (row.restates)
    return {
      reason: {
        kind: 'elsewhere',
        see: row.restates,
        text: `The same rule as ${row.restates.join(', ')}: counted in ${row.restates.length > 1 ? 'their rows' : 'its row'}.`,
      },
      from: 'restated',
    };
  if (row.rest) return { reason: row.rest, from: 'row' };
  if (APPLIES[row.kind].includes(faultClass)) return { missing: true };
  const byKind = KIND_REASONS[row.kind]?.[faultClass];
  return byKind ? { reason: byKind, from: 'kind' } : { reason: CLASS_REASONS[faultClass], from: 'class' };
}

/**
 * What is wrong with a matrix (the test holds ROWS to none): a clause without a row, a row or a
 * reference to a clause that does not exist, a restated row pointing to another restated row,
 * a cell with neither a check nor a reason, a check id the catalog does not hold.
 */
export function matrixProblems(
  rows: Readonly<Record<string, Row>>,
  clauseIds: readonly string[],
  checkIds: ReadonlySet<string>,
): string[] {
  const known = new Set(clauseIds);
  const problems: string[] = [];
  for (const id of clauseIds)
    if (!Object.hasOwn(rows, id)) problems.push(`${id}: no row in src/catalog/matrix-rows.ts`);
  for (const [id, row] of Object.entries(rows)) {
    if (!known.has(id))
      problems.push(`${id}: a row for a clause id that spec-clauses.ts and contract-clauses.ts do not hold`);
    for (const target of row.restates ?? []) {
      if (!known.has(target)) problems.push(`${id}: restates ${target}, which is not a clause id`);
      else if (rows[target]?.restates)
        problems.push(
          `${id}: restates ${target}, which restates another clause: point to the row that holds the cells`,
        );
    }
    for (const faultClass of FAULT_CLASS_IDS) {
      const cell = resolveCell(id as ClauseId, faultClass, rows);
      if ('missing' in cell) {
        problems.push(
          `${id} × ${faultClass}: neither a check nor a reason (the class applies to a ${row.kind} clause: name the checks, owe one, or say why none applies)`,
        );
      } else if ('checks' in cell) {
        for (const check of cell.checks)
          if (!checkIds.has(check))
            problems.push(`${id} × ${faultClass}: check ${check} is not in src/catalog/checks.ts`);
      } else {
        for (const target of cell.reason.see ?? [])
          if (!known.has(target))
            problems.push(`${id} × ${faultClass}: its reason points to ${target}, which is not a clause id`);
      }
    }
  }
  return problems;
}

/** Every owed cell, as "CLAUSE × class: CHECK-ID". */
export function owedCells(rows: Readonly<Record<string, Row>> = ROWS): string[] {
  return Object.keys(rows).flatMap((id) =>
    FAULT_CLASS_IDS.flatMap((faultClass) => {
      const cell = resolveCell(id as ClauseId, faultClass, rows);
      return 'checks' in cell ? cell.owed.map((o) => `${id} × ${faultClass}: ${o.check}`) : [];
    }),
  );
}

// --- Coverage ------------------------------------------------------------------------------------

export interface Coverage {
  cells: number;
  /** Cells that name checks and owe none. */
  checked: number;
  /** Cells owed a check (some may name checks covering part of them). */
  owed: number;
  /** Cells with a reason, by the reason's kind. */
  reasoned: Record<ReasonKind, number>;
  /** Cells with neither checks nor a reason: the test fails on any. */
  missing: number;
}

/** Cells with a rule (or a plain expectation) behind them: checked or owed. */
export const withRule = (coverage: Coverage): number => coverage.checked + coverage.owed;
export const reasonedAway = (coverage: Coverage): number =>
  Object.values(coverage.reasoned).reduce((sum, n) => sum + n, 0);

/** Coverage of the given clauses, for one class or for all. */
export function coverage(clauses: readonly ClauseId[], classes: readonly FaultClassId[]): Coverage {
  const total: Coverage = {
    cells: 0,
    checked: 0,
    owed: 0,
    reasoned: { 'not-applicable': 0, 'no-rule': 0, 'not-observable': 0, elsewhere: 0 },
    missing: 0,
  };
  for (const id of clauses) {
    for (const faultClass of classes) {
      const cell = resolveCell(id, faultClass);
      total.cells += 1;
      if ('missing' in cell) total.missing += 1;
      else if ('reason' in cell) total.reasoned[cell.reason.kind] += 1;
      else if (cell.owed.length > 0) total.owed += 1;
      else total.checked += 1;
    }
  }
  return total;
}
