/**
 * docs/fault-matrix.md, generated from src/catalog/matrix.ts: the coverage per fault class
 * and overall, the matrix itself (rows: clauses; columns: classes; each cell a short mark),
 * the reasons numbered once, and per clause the checks and owed checks of its cells.
 */
import { CATALOG } from '../catalog/checks.js';
import { FAULT_CLASSES, FAULT_CLASS_IDS, type FaultClassId } from '../catalog/fault-classes.js';
import {
  coverage,
  reasonedAway,
  resolveCell,
  withRule,
  type Coverage,
  type Reason,
  type ReasonKind,
} from '../catalog/matrix.js';
import { CLAUSE_IDS, CLAUSES, type ClauseId } from '../catalog/spec-clauses.js';
import { escapeMarkdownCell as cell } from '../report/escape.js';

const REASON_KINDS: readonly ReasonKind[] = ['not-applicable', 'no-rule', 'not-observable', 'elsewhere'];

/** The anchor GitHub gives a heading made of the clause id alone. */
const anchorOf = (id: ClauseId): string => id.toLowerCase();

/** Numbers each distinct reason in the order the matrix first shows it. */
function numberReasons(): Map<string, { n: number; reason: Reason; cells: number }> {
  const numbered = new Map<string, { n: number; reason: Reason; cells: number }>();
  for (const id of CLAUSE_IDS) {
    for (const faultClass of FAULT_CLASS_IDS) {
      const resolved = resolveCell(id, faultClass);
      if (!('reason' in resolved)) continue;
      const key = reasonKey(resolved.reason);
      const known = numbered.get(key);
      if (known) known.cells += 1;
      else numbered.set(key, { n: numbered.size + 1, reason: resolved.reason, cells: 1 });
    }
  }
  return numbered;
}

const reasonKey = (reason: Reason): string => `${reason.kind}\u0000${reason.text}\u0000${(reason.see ?? []).join(',')}`;

function mark(id: ClauseId, faultClass: FaultClassId, reasons: ReturnType<typeof numberReasons>): string {
  const resolved = resolveCell(id, faultClass);
  if ('missing' in resolved) return '**?**';
  if ('reason' in resolved) {
    const n = reasons.get(reasonKey(resolved.reason))!.n;
    return `${resolved.reason.kind === 'elsewhere' ? '→' : ''}${n}`;
  }
  const checks = resolved.checks.length > 0 ? `[✓${resolved.checks.length}](#${anchorOf(id)})` : '';
  return resolved.owed.length > 0 ? `${checks}${checks ? ' ' : ''}[**owed**](#${anchorOf(id)})` : checks;
}

const LEVEL_OF = new Map(CATALOG.map((check) => [check.id, check.level]));

/** Cells of the classes given that name at least one `must` check. */
function byMust(classes: readonly FaultClassId[]): number {
  return CLAUSE_IDS.reduce(
    (sum, id) =>
      sum +
      classes.filter((faultClass) => {
        const resolved = resolveCell(id, faultClass);
        return 'checks' in resolved && resolved.checks.some((check) => LEVEL_OF.get(check) === 'must');
      }).length,
    0,
  );
}

function coverageRow(label: string, classes: readonly FaultClassId[]): string {
  const c: Coverage = coverage(CLAUSE_IDS, classes);
  const split = REASON_KINDS.map((kind) => c.reasoned[kind]).join(' | ');
  return `| ${label} | ${c.cells} | ${withRule(c)} | ${c.checked} | ${byMust(classes)} | ${c.owed} | ${reasonedAway(c)} | ${split} |`;
}

function coverageTable(): string[] {
  return [
    '| Class | Cells | With a rule | Checked | Naming a `must` | Owed | Reasoned away | of which: not applicable | no rule | not observable | in another row |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...FAULT_CLASS_IDS.map((id) => coverageRow(`${FAULT_CLASSES[id].number}. ${FAULT_CLASSES[id].short}`, [id])),
    coverageRow('**All classes**', FAULT_CLASS_IDS),
  ];
}

function matrixTable(reasons: ReturnType<typeof numberReasons>): string[] {
  return [
    `| Clause | ${FAULT_CLASS_IDS.map((id) => `${FAULT_CLASSES[id].number}`).join(' | ')} |`,
    `|---|${FAULT_CLASS_IDS.map(() => '---').join('|')}|`,
    ...CLAUSE_IDS.map(
      (id) => `| ${id} | ${FAULT_CLASS_IDS.map((faultClass) => mark(id, faultClass, reasons)).join(' | ')} |`,
    ),
  ];
}

function reasonTable(reasons: ReturnType<typeof numberReasons>): string[] {
  return [
    '| # | Kind | Reason | Cells |',
    '|---|---|---|---|',
    ...[...reasons.values()].map(({ n, reason, cells }) => {
      const text =
        reason.see && reason.see.length > 0
          ? `${reason.text} (see ${reason.see.map((id) => `[${id}](#${anchorOf(id)})`).join(', ')})`
          : reason.text;
      return `| ${n} | ${reason.kind} | ${cell(text)} | ${cells} |`;
    }),
  ];
}

/** Per clause, one line per cell with checks or owed checks. */
function cellDetails(): string[] {
  const lines: string[] = [];
  for (const id of CLAUSE_IDS) {
    const items = FAULT_CLASS_IDS.flatMap((faultClass) => {
      const resolved = resolveCell(id, faultClass);
      if (!('checks' in resolved)) return [];
      const checks = resolved.checks.map((check) => `${check} (${LEVEL_OF.get(check) ?? 'unknown'})`);
      const owed = resolved.owed.map((o) => `**owed: ${o.check}**: ${cell(o.what)}`);
      return [
        `- ${FAULT_CLASSES[faultClass].number}. ${FAULT_CLASSES[faultClass].short}: ${[...checks, ...owed].join('; ')}`,
      ];
    });
    lines.push(
      `### ${id}`,
      '',
      `${cell(CLAUSES[id].section)}: "${cell(CLAUSES[id].text)}"`,
      '',
      ...(items.length > 0 ? items : ['- No cell with a check: each has a reason (the matrix row).']),
      '',
    );
  }
  return lines;
}

export function renderFaultMatrix(): string {
  const reasons = numberReasons();
  return [
    '# The fault matrix',
    '',
    'Generated by `npm run docs` from `src/catalog/matrix.ts` (the cells), `src/catalog/fault-classes.ts`',
    '(the classes, described in [method.md](method.md)), the clauses (`src/catalog/spec-clauses.ts`,',
    '`src/catalog/contract-clauses.ts`) and the check catalog (`src/catalog/checks.ts`). Do not edit by hand.',
    '',
    'Every clause of the spec and of the control contract is crossed with every fault class. A cell',
    'holds the checks that cover it, the check it is owed, or one reason why no check applies; a',
    'reason shared by many cells is written once below and numbered. `test/catalog/matrix.test.ts`',
    'fails on a cell with neither, on an unknown check or clause, and on an owed cell not yet accepted.',
    '',
    '## Coverage',
    '',
    '"With a rule" counts the cells where a rule or a plain expectation stands: checked, or owed a check. "Naming a `must`": cells among',
    'them with at least one `must` check (the others rest on `should` and `observe` checks, or are owed).',
    '',
    ...coverageTable(),
    '',
    '## Classes',
    '',
    '| # | Class | What must hold |',
    '|---|---|---|',
    ...FAULT_CLASS_IDS.map(
      (id) => `| ${FAULT_CLASSES[id].number} | ${FAULT_CLASSES[id].short} | ${cell(FAULT_CLASSES[id].means)} |`,
    ),
    '',
    '## The matrix',
    '',
    '`✓n`: n checks cover the cell (listed under the clause below); **owed**: a check is owed; a number:',
    'the reason of that number; `→n`: the class is applied to the same rule in another row (reason n names it).',
    '',
    ...matrixTable(reasons),
    '',
    '## Reasons',
    '',
    ...reasonTable(reasons),
    '',
    '## Each clause: its checks and owed checks',
    '',
    ...cellDetails(),
  ].join('\n');
}
