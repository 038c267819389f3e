/**
 * What changed between two runs (two implementations, or one before and after a change):
 * verdicts that differ, observations (`observe` checks' measurements) that differ, and
 * timing figures side by side. A pure function of two RunReports, and its Markdown and
 * HTML renderings (`svc-harness report diff`, src/cli/commands/report-diff.ts).
 *
 * Timing figures are the numeric measurements whose name ends in `_ms` (or `Ms`), at any
 * depth (wall-clock instants excepted); they are never counted as observation changes,
 * since two runs always differ a little in time. Arrays of objects (the revocation polls) are series for charts, not
 * figures, and are left out.
 */
import { mask } from '../secrets/mask.js';
import { escapeMarkdownCell, escapeXml } from './escape.js';
import { runVerdict, type CheckResult, type RunReport, type RunVerdict, type Verdict } from './model.js';

export interface RunSide {
  label: string;
  target: string;
  embeddedReference: boolean;
  startedAt: string;
  finishedAt: string;
  tier: string;
  summary: Record<Verdict, number>;
  outcome: RunVerdict;
}

export interface VerdictChange {
  id: string;
  title: string;
  level: string;
  /** Undefined: the check is not in that report. */
  a?: Verdict;
  b?: Verdict;
  aDetail?: string;
  bDetail?: string;
}

export interface ObservationChange {
  id: string;
  title: string;
  /** Path of the value inside `measurements` ("status", "body_shape.error.code"). */
  path: string;
  /** JSON text of each side; undefined when absent. */
  a?: string;
  b?: string;
}

export interface TimingFigure {
  id: string;
  path: string;
  a?: number;
  b?: number;
}

export interface ReportDiff {
  a: RunSide;
  b: RunSide;
  verdicts: VerdictChange[];
  observations: ObservationChange[];
  timings: TimingFigure[];
  /** Checks present in both reports. */
  common: number;
}

const MAX_SERIES = 12;

const isTimingName = (name: string) => /(_ms|Ms)$/.test(name);
/** Wall-clock instants (epoch ms) are not durations: two runs always differ by the time between them. */
const EPOCH_LIKE_MS = 1e11;

/** Leaves of a JSON value as path → value; arrays of scalars are indexed, arrays of objects kept whole. */
export function leaves(value: unknown, path = '', out = new Map<string, unknown>()): Map<string, unknown> {
  if (Array.isArray(value)) {
    const scalars = value.every((item) => item === null || typeof item !== 'object');
    if (scalars && value.length <= MAX_SERIES && value.length > 0)
      value.forEach((item, i) => out.set(`${path}[${i}]`, item));
    else out.set(path, value);
  } else if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) out.set(path, value);
    for (const [key, item] of entries) leaves(item, path ? `${path}.${key}` : key, out);
  } else {
    out.set(path, value);
  }
  return out;
}

/** Whether a leaf path names a timing figure: a segment ending in `_ms`/`Ms`. */
export function isTimingPath(path: string): boolean {
  return path.split('.').some((segment) => isTimingName(segment.replace(/\[\d+\]$/, '')));
}

function side(report: RunReport, label: string): RunSide {
  return {
    label,
    target: report.target?.base_url ?? '',
    embeddedReference: report.target?.embedded_reference === true,
    startedAt: report.started_at ?? '',
    finishedAt: report.finished_at ?? '',
    tier: report.tier ?? '',
    summary: { error: 0, ...report.summary },
    outcome: runVerdict(report),
  };
}

const json = (value: unknown) => (value === undefined ? undefined : mask(JSON.stringify(value)));

export function diffReports(a: RunReport, b: RunReport, labels: [string, string] = ['A', 'B']): ReportDiff {
  const byIdA = new Map(a.checks.map((check) => [check.id, check]));
  const byIdB = new Map(b.checks.map((check) => [check.id, check]));
  // Order: A's order, then checks only in B.
  const ids = [...byIdA.keys(), ...[...byIdB.keys()].filter((id) => !byIdA.has(id))];
  const verdicts: VerdictChange[] = [];
  const observations: ObservationChange[] = [];
  const timings: TimingFigure[] = [];
  let common = 0;
  for (const id of ids) {
    const ca: CheckResult | undefined = byIdA.get(id);
    const cb: CheckResult | undefined = byIdB.get(id);
    const any = (cb ?? ca)!;
    if (ca && cb) common++;
    if (ca?.verdict !== cb?.verdict) {
      verdicts.push({
        id,
        title: any.title,
        level: any.level,
        ...(ca ? { a: ca.verdict } : {}),
        ...(cb ? { b: cb.verdict } : {}),
        ...(ca?.detail ? { aDetail: mask(ca.detail) } : {}),
        ...(cb?.detail ? { bDetail: mask(cb.detail) } : {}),
      });
    }
    const la = leaves(ca?.measurements ?? {});
    const lb = leaves(cb?.measurements ?? {});
    const paths = [...la.keys(), ...[...lb.keys()].filter((path) => !la.has(path))].filter(Boolean);
    for (const path of paths) {
      const va = la.get(path);
      const vb = lb.get(path);
      if (isTimingPath(path)) {
        const figure = (v: unknown): v is number | undefined =>
          v === undefined || (typeof v === 'number' && Math.abs(v) < EPOCH_LIKE_MS);
        if (figure(va) && figure(vb) && (va !== undefined || vb !== undefined)) {
          timings.push({ id, path, ...(va !== undefined ? { a: va } : {}), ...(vb !== undefined ? { b: vb } : {}) });
        }
        continue;
      }
      // Observations: values of `observe` checks (by either side's level) that differ.
      const observe = ca?.level === 'observe' || cb?.level === 'observe';
      if (!observe || !ca || !cb) continue;
      const ja = json(va);
      const jb = json(vb);
      if (ja !== jb)
        observations.push({
          id,
          title: any.title,
          path,
          ...(ja !== undefined ? { a: ja } : {}),
          ...(jb !== undefined ? { b: jb } : {}),
        });
    }
  }
  return { a: side(a, labels[0]), b: side(b, labels[1]), verdicts, observations, timings, common };
}

// --- Rendering ---------------------------------------------------------------------------

const summaryText = (s: RunSide) =>
  `${s.summary.pass} pass, ${s.summary.fail} fail, ${s.summary.warn} warn, ${s.summary.skip} skip, ${s.summary.error} error`;
const verdictText = (v: Verdict | undefined) => (v ? v.toUpperCase() : 'absent');

export function formatFigure(ms: number | undefined): string {
  if (ms === undefined) return '';
  return `${+ms.toFixed(1)}`;
}

/** B − A, and the ratio when both are positive: "+12.3 (×1.05)". */
export function formatDelta(a: number | undefined, b: number | undefined): string {
  if (a === undefined || b === undefined) return '';
  const delta = b - a;
  const sign = delta > 0 ? '+' : '';
  const ratio = a > 0 && b > 0 ? ` (×${(b / a).toPrecision(3)})` : '';
  return `${sign}${+delta.toFixed(1)}${ratio}`;
}

const clip = (text: string | undefined, max = 300) =>
  text === undefined ? '' : text.length > max ? `${text.slice(0, max)}…` : text;

export function renderDiffMarkdown(diff: ReportDiff): string {
  const { a, b } = diff;
  const row = (cells: readonly string[]) => `| ${cells.map((cell) => escapeMarkdownCell(mask(cell))).join(' | ')} |`;
  const lines = [
    '# Report diff',
    '',
    row(['', a.label, b.label]),
    '|---|---|---|',
    row([
      'target',
      `${a.target}${a.embeddedReference ? ' (embedded reference)' : ''}`,
      `${b.target}${b.embeddedReference ? ' (embedded reference)' : ''}`,
    ]),
    row(['run', `${a.startedAt} to ${a.finishedAt}`, `${b.startedAt} to ${b.finishedAt}`]),
    row(['tier', a.tier, b.tier]),
    row(['outcome', a.outcome, b.outcome]),
    row(['summary', summaryText(a), summaryText(b)]),
    '',
    `## Verdicts that differ (${diff.verdicts.length})`,
    '',
  ];
  if (diff.verdicts.length === 0) lines.push(`None: the ${diff.common} checks in both runs have the same verdicts.`);
  else {
    lines.push(row(['Id', 'Level', a.label, b.label, `Detail (${b.label}, else ${a.label})`]), '|---|---|---|---|---|');
    for (const v of diff.verdicts)
      lines.push(row([v.id, v.level, verdictText(v.a), verdictText(v.b), clip(v.bDetail ?? v.aDetail)]));
  }
  lines.push('', `## Observations that differ (${diff.observations.length})`, '');
  if (diff.observations.length === 0) lines.push('None: every `observe` check recorded the same values.');
  else {
    lines.push(row(['Id', 'Value', a.label, b.label]), '|---|---|---|---|');
    for (const o of diff.observations)
      lines.push(row([o.id, o.path, clip(o.a ?? 'absent', 120), clip(o.b ?? 'absent', 120)]));
  }
  lines.push('', `## Timing figures (${diff.timings.length}, ms)`, '');
  if (diff.timings.length === 0) lines.push('No timing figures in either run.');
  else {
    lines.push(row(['Id', 'Figure', a.label, b.label, `${b.label} − ${a.label}`]), '|---|---|---:|---:|---:|');
    for (const t of diff.timings)
      lines.push(row([t.id, t.path, formatFigure(t.a), formatFigure(t.b), formatDelta(t.a, t.b)]));
  }
  return `${lines.join('\n')}\n`;
}

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:1.5rem 2rem;color:#1a1a1a;max-width:1400px}
h1{font-size:1.5rem} h2{font-size:1.15rem;margin-top:1.8rem;border-bottom:2px solid #222}
table{border-collapse:collapse;margin:.5rem 0} th,td{border-bottom:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f4f4f4} td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.v-fail{color:#a10d0d;font-weight:700} .v-warn{color:#7a5000;font-weight:700} .v-pass{color:#05612a;font-weight:700} .v-skip,.v-absent{color:#555;font-weight:700} .v-error{color:#8a3b00;font-weight:700}
code{font-size:.9em} .muted{color:#555} label{margin-right:1rem}
`;

export function renderDiffHtml(diff: ReportDiff): string {
  const e = (text: string) => escapeXml(mask(text));
  const { a, b } = diff;
  const mark: Record<string, string> = { pass: '✓', fail: '✗', warn: '!', skip: '–', error: '⚠', absent: '∅' };
  const verdictCell = (v: Verdict | undefined) => {
    const name = v ?? 'absent';
    return `<td class="v-${name}"><span aria-hidden="true">${mark[name]}</span> ${verdictText(v)}</td>`;
  };
  const head = `<table><thead><tr><th></th><th scope="col">${e(a.label)}</th><th scope="col">${e(b.label)}</th></tr></thead><tbody>
<tr><th scope="row">target</th><td><code>${e(a.target)}</code>${a.embeddedReference ? ' (embedded reference)' : ''}</td><td><code>${e(b.target)}</code>${b.embeddedReference ? ' (embedded reference)' : ''}</td></tr>
<tr><th scope="row">run</th><td>${e(a.startedAt)} to ${e(a.finishedAt)}</td><td>${e(b.startedAt)} to ${e(b.finishedAt)}</td></tr>
<tr><th scope="row">tier</th><td>${e(a.tier)}</td><td>${e(b.tier)}</td></tr>
<tr><th scope="row">outcome</th><td>${e(a.outcome)}</td><td>${e(b.outcome)}</td></tr>
<tr><th scope="row">summary</th><td>${e(summaryText(a))}</td><td>${e(summaryText(b))}</td></tr></tbody></table>`;
  const verdicts =
    diff.verdicts.length === 0
      ? `<p>None: the ${diff.common} checks in both runs have the same verdicts.</p>`
      : `<table id="verdicts"><thead><tr><th scope="col">Id</th><th scope="col">Level</th><th scope="col">${e(a.label)}</th><th scope="col">${e(b.label)}</th><th scope="col">Detail</th></tr></thead><tbody>
${diff.verdicts
  .map(
    (v) =>
      `<tr data-id="${e(v.id)}"><td><code>${e(v.id)}</code><br><small>${e(v.title)}</small></td><td>${e(v.level)}</td>${verdictCell(v.a)}${verdictCell(v.b)}<td>` +
      `${v.aDetail ? `<div><strong>${e(a.label)}:</strong> ${e(v.aDetail)}</div>` : ''}${v.bDetail ? `<div><strong>${e(b.label)}:</strong> ${e(v.bDetail)}</div>` : ''}</td></tr>`,
  )
  .join('\n')}
</tbody></table>`;
  const observations =
    diff.observations.length === 0
      ? '<p>None: every <code>observe</code> check recorded the same values.</p>'
      : `<table id="observations"><thead><tr><th scope="col">Id</th><th scope="col">Value</th><th scope="col">${e(a.label)}</th><th scope="col">${e(b.label)}</th></tr></thead><tbody>
${diff.observations.map((o) => `<tr><td><code>${e(o.id)}</code></td><td><code>${e(o.path)}</code></td><td><code>${e(o.a ?? 'absent')}</code></td><td><code>${e(o.b ?? 'absent')}</code></td></tr>`).join('\n')}
</tbody></table>`;
  const timings =
    diff.timings.length === 0
      ? '<p>No timing figures in either run.</p>'
      : `<table id="timings"><thead><tr><th scope="col">Id</th><th scope="col">Figure</th><th scope="col">${e(a.label)} (ms)</th><th scope="col">${e(b.label)} (ms)</th><th scope="col">${e(b.label)} − ${e(a.label)}</th></tr></thead><tbody>
${diff.timings.map((t) => `<tr><td><code>${e(t.id)}</code></td><td><code>${e(t.path)}</code></td><td class="num">${formatFigure(t.a)}</td><td class="num">${formatFigure(t.b)}</td><td class="num">${e(formatDelta(t.a, t.b))}</td></tr>`).join('\n')}
</tbody></table>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Report diff: ${e(a.label)} and ${e(b.label)}</title>
<meta name="viewport" content="width=device-width,initial-scale=1"><style>${STYLE}</style></head>
<body>
<h1>Report diff: ${e(a.label)} and ${e(b.label)}</h1>
${head}
<h2>Verdicts that differ (${diff.verdicts.length})</h2>
${verdicts}
<h2>Observations that differ (${diff.observations.length})</h2>
${observations}
<h2>Timing figures (${diff.timings.length})</h2>
${timings}
</body></html>
`;
}
