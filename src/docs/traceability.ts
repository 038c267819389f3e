/**
 * docs/traceability.md, generated: every normative sentence of the spec and the control
 * contract's sentences (by clause id) with the checks of either subject that cite them (or
 * why none can), the sentence each `must` rests on, the outside documents checks also rest
 * on, then every service check and every receiver check with where its body is
 * (the check registry, through check-bodies.ts), its clauses and the faults that prove it fails when its rule is broken.
 */
import { CatalogError } from '../errors.js';
import { CATALOG, CHECKS, CHECKS_BY_CLAUSE, RECEIVER_CHECKS, type CatalogEntry } from '../catalog/checks.js';
import { CLAUSE_IDS, CLAUSES, CONTRACT_CLAUSE_IDS, SPEC_CLAUSE_IDS, type ClauseId } from '../catalog/spec-clauses.js';
import { escapeMarkdownCell as cell } from '../report/escape.js';

/** A fault of the reference implementation and the service checks it breaks (test/faults/registry.ts). */
export interface FaultProof {
  fault: string;
  breaks: readonly string[];
}

/** A fault of the faulty receiver and the receiver checks it breaks (test/receiver-cert/faults.ts). */
export interface ReceiverFaultProof {
  failing: readonly string[];
  /** Caught by the timing probe's observation instead of a failing check. */
  timingLeak?: true;
}

export interface FaultRegistries {
  service: readonly FaultProof[];
  receiver: Readonly<Record<string, ReceiverFaultProof>>;
}

const TIMING_PROBE = 'RCV-TIMING-CONSTANT-TIME';

/** Check id → the faults that prove it, from both registries. */
export function faultsByCheck(registries: FaultRegistries): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const add = (id: string, fault: string) => found.set(id, [...(found.get(id) ?? []), fault]);
  for (const proof of registries.service) for (const id of proof.breaks) add(id, proof.fault);
  for (const [fault, proof] of Object.entries(registries.receiver)) {
    for (const id of proof.failing) add(id, fault);
    if (proof.timingLeak) add(TIMING_PROBE, `${fault} (observed leak)`);
  }
  return found;
}

/** Check id → `path:line` of its body (checkBodyLines in check-bodies.ts). */
export type BodyLines = ReadonlyMap<string, string>;

/** The check's `path:line`, as a link from docs/ that opens the file at that line. */
function bodyLink(id: string, bodies: BodyLines): string {
  const where = bodies.get(id);
  const [, path, line] = /^(.+):(\d+)$/.exec(where ?? '') ?? [];
  if (path === undefined) throw new CatalogError(`no path:line for the body of ${id}`);
  return `[${cell(where!)}](../${path}#L${line})`;
}

function checkTable(
  checks: readonly CatalogEntry[],
  faults: ReadonlyMap<string, string[]>,
  bodies: BodyLines,
): string[] {
  return [
    '| Id | Level | Area | Title | Body | Clauses | Ground of a must | Outside source | Tolerance | Accepted where the spec leaves it open | Proven by faults |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...checks
      .map((check) =>
        [
          check.id,
          `${check.level}${check.tier === 'full' ? ' (full tier)' : ''}`,
          check.area,
          cell(check.title),
          bodyLink(check.id, bodies),
          check.clauses.join(', '),
          check.ground ?? '',
          cell(check.source ?? ''),
          cell(
            [
              check.tolerance?.seconds === undefined ? '' : `${check.tolerance.seconds} s`,
              check.tolerance?.allowance ?? '',
            ]
              .filter(Boolean)
              .join('; '),
          ),
          cell(check.accepts ?? ''),
          (faults.get(check.id) ?? []).join(', ') || '(none yet)',
        ].join(' | '),
      )
      .map((row) => `| ${row} |`),
  ];
}

function clauseTable(ids: readonly ClauseId[], textHeading: string): string[] {
  return [
    `| Id | Section | ${textHeading} | Checks | Note |`,
    '|---|---|---|---|---|',
    ...ids.map((id) => {
      const { section, text, note } = CLAUSES[id];
      const checks = (CHECKS_BY_CLAUSE.get(id) ?? []).map((check) => check.id).join(', ') || '(none)';
      return `| ${id} | ${cell(section)} | ${cell(text)} | ${checks} | ${cell(note ?? '')} |`;
    }),
  ];
}

/** Each clause some `must` rests on, quoted once, with those checks (either subject). */
function groundTable(): string[] {
  const musts = CATALOG.filter((check) => check.level === 'must');
  return [
    '| Ground | Section | The sentence, quoted | Must checks resting on it |',
    '|---|---|---|---|',
    ...CLAUSE_IDS.flatMap((id) => {
      const resting = musts.filter((check) => check.ground === id).map((check) => check.id);
      return resting.length === 0
        ? []
        : [`| ${id} | ${cell(CLAUSES[id].section)} | "${cell(CLAUSES[id].text)}" | ${resting.join(', ')} |`];
    }),
  ];
}

function sourceTable(): string[] {
  return [
    '| Id | Level | Outside source | Ground of a must |',
    '|---|---|---|---|',
    ...CATALOG.filter((check) => check.source).map(
      (check) => `| ${check.id} | ${check.level} | ${cell(check.source!)} | ${check.ground ?? '(none: a should)'} |`,
    ),
  ];
}

export function renderTraceability(registries: FaultRegistries, bodies: BodyLines): string {
  const faults = faultsByCheck(registries);
  const lines = [
    '# Traceability',
    '',
    'Generated by `npm run docs` from the check catalog (`src/catalog/checks.ts`), the spec clauses',
    "(`src/catalog/spec-clauses.ts`), the control contract's clauses (`src/catalog/contract-clauses.ts`),",
    'the fault registries (`test/faults/registry.ts` for the service, `test/receiver-cert/faults.ts`',
    "for webhook receivers) and, for each check's body, its `check('ID', …)` declaration in `suites/`",
    'or `src/receiver-cert/checks/`. Do not edit by hand.',
    '',
    '## Spec clauses and the checks that cover them',
    '',
    ...clauseTable(SPEC_CLAUSE_IDS, 'Spec text'),
    '',
    '## Control contract clauses and the checks that cover them',
    '',
    'Sentences of `contracts/control-interface.md` that state what the public API or the deliveries',
    'of every implementation under test must do, where the spec leaves it to the dashboard or unshown.',
    '',
    ...clauseTable(CONTRACT_CLAUSE_IDS, 'Contract text'),
    '',
    '## The sentence each must rests on',
    '',
    'A check is a `must` only where a sentence of the spec or of the control contract states what it',
    'holds the target to (its ground, one of its clauses); a rule that only an outside document states',
    'makes a `should`.',
    '',
    ...groundTable(),
    '',
    '## Outside documents checks also rest on',
    '',
    ...sourceTable(),
    '',
    '## Service checks',
    '',
    ...checkTable(CHECKS, faults, bodies),
    '',
    '## Receiver checks',
    '',
    ...checkTable(RECEIVER_CHECKS, faults, bodies),
    '',
    '## Ambiguities and how the harness reads them',
    '',
    ...CLAUSE_IDS.filter((id) => CLAUSES[id].note?.startsWith('Ambiguity')).map(
      (id) => `- ${id} (${CLAUSES[id].section}): ${CLAUSES[id].note}`,
    ),
    '',
  ];
  return lines.join('\n');
}
