/**
 * report.html: one self-contained file (no network), readable offline.
 *
 * - Timing charts (inline SVG, each with a text table beside it) for the checks whose
 *   measurements carry a series: revocation polls, retry delays (src/report/charts/).
 * - Every check in one table, filtered by level, verdict, area, check id and free text;
 *   the filters are kept in the address (`#filter:verdict=fail`) so a view can be linked.
 * - Each check links to the spec clauses it cites, by id, and quotes their text, both from
 *   the clause data (src/catalog/spec-clauses.ts) through the catalog entry of the check's
 *   id; a check the catalog does not know shows its `clause` as written. A failed check
 *   shows its (masked) detail and evidence.
 *
 * Writers never recompute verdicts; everything shown passes through mask() and escapeXml()
 * (which makes it printable) again, so the page is safe even when rendered from a report
 * that skipped writeReports().
 */
import { mask } from '../secrets/mask.js';
import { catalogEntry } from '../catalog/checks.js';
import { bySection, CLAUSE_IDS, CLAUSES, type ClauseId } from '../catalog/spec-clauses.js';
import { figuresFor, type Figure } from './charts/index.js';
import { escapeXml } from './escape.js';
import { evidenceOf, judgedExchange, type EvidenceExchange } from './evidence.js';
import { coverageLine } from './coverage.js';
import { aboutRunLines, controlText, networkText, verdictTitle } from './markdown.js';
import { runVerdict, type CheckResult, type RunReport, type Verdict } from './model.js';
import { statusText } from '../expected/mark.js';
import { verdictLabel } from '../expected/writers.js';

export interface HtmlOptions {
  /** Extra figures (a load run's latency distribution), shown after the check charts. */
  extraFigures?: Figure[];
}

const esc = (text: string, maxLength?: number) => escapeXml(mask(text), maxLength);
/** Measurements and evidence are shown whole; only one field at a time is capped at the usual length. */
const MAX_BLOCK = 200_000;

const VERDICT_MARK: Record<Verdict, string> = { pass: '✓', fail: '✗', warn: '!', skip: '–', error: '⚠' };

const STYLE = `
:root{--fail:#a10d0d;--warn:#7a5000;--pass:#05612a;--skip:#555;--error:#8a3b00;--line:#ddd}
body{font:14px/1.45 system-ui,sans-serif;margin:1.5rem 2rem;color:#1a1a1a;max-width:1500px}
h1{font-size:1.5rem;margin:.2rem 0} h2{font-size:1.2rem;margin-top:2rem;border-bottom:2px solid #222;padding-bottom:.2rem} h3{font-size:1rem;margin:.2rem 0}
.PASSED{color:var(--pass)} .FAILED,.INTERRUPTED,.CLEAN-UP-INCOMPLETE,.ERROR{color:var(--fail)} .partial{color:var(--warn)}
nav a{margin-right:1rem}
.summary button{font:inherit;border:1px solid #888;background:#fff;border-radius:4px;padding:.15rem .6rem;margin-right:.4rem;cursor:pointer}
.summary button[aria-pressed=true]{background:#222;color:#fff}
table{border-collapse:collapse} th,td{border-bottom:1px solid var(--line);padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f4f4f4}
#checks-table{width:100%} #checks-table thead th{position:sticky;top:0;z-index:1}
td.verdict{font-weight:700;white-space:nowrap}
tr.fail td.verdict{color:var(--fail)} tr.warn td.verdict{color:var(--warn)} tr.pass td.verdict{color:var(--pass)} tr.skip td.verdict{color:var(--skip)} tr.error td.verdict{color:var(--error)}
tr.fail{background:#fff3f3} tr.warn{background:#fffaf0} tr.error{background:#fff6ee}
tr:target,blockquote:target{outline:3px solid #1b5fbf}
code{font-size:.9em} .filters{display:flex;gap:1rem;margin:1rem 0;flex-wrap:wrap;align-items:end;position:sticky;top:0;background:#fff;padding:.4rem 0;z-index:2}
.filters label{display:flex;flex-direction:column;font-size:.85em} .filters input,.filters select{font:inherit}
#shown{font-weight:600}
.failure{border-left:4px solid var(--fail);padding:.2rem .5rem;margin:.2rem 0;background:#fff} .failure strong{color:var(--fail)}
.warning{border-left:4px solid var(--warn);padding:.2rem .5rem;margin:.2rem 0} .warning strong{color:var(--warn)}
details{max-width:52rem} summary{cursor:pointer;color:#1b4f9f}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f7f7f7;padding:.4rem;margin:.3rem 0;font-size:.85em}
blockquote{margin:.3rem 0;padding:.2rem .6rem;border-left:3px solid #999;background:#fafafa}
.clause-ref{font-size:.85em;color:#444}
figure.chart-figure{margin:1rem 0 2rem;padding:0} figure.chart-figure figcaption p{margin:.2rem 0 .5rem;max-width:70rem;color:#333}
.chart-pair{display:flex;flex-wrap:wrap;gap:1.2rem;align-items:flex-start}
.chart-table{max-width:38rem;font-size:.85em} table.data caption{text-align:left;font-weight:600;padding-bottom:.2rem} table.data td,table.data th{padding:.15rem .45rem}
svg.chart{max-width:100%;height:auto;font:12px system-ui,sans-serif;background:#fff;border:1px solid var(--line)}
svg .lane{fill:#f3f4f6} svg .grid{stroke:#e1e1e1} svg .grid.major{stroke:#bdbdbd} svg .axis{stroke:#222}
svg .tick{fill:#333;font-size:11px} svg .axis-title,svg .col-label{fill:#333;font-size:11.5px} svg .lane-label{font-weight:700;fill:#111}
svg .row-label,svg .legend{fill:#222} svg .ref-label{fill:#111;font-weight:600;font-size:11.5px}
svg .axis-break{stroke:#222;stroke-width:1.5;fill:none}
svg .mk.accepted{fill:#1b7f3b;stroke:#fff;stroke-width:.8} svg .mk.rejected{stroke:#b00020;stroke-width:2;fill:none} svg .mk.other{fill:#c77700;stroke:#222;stroke-width:.8}
svg .limit{stroke:#000;stroke-width:3} svg .first-reject{stroke:#b00020;stroke-width:1.5;stroke-dasharray:6 3} svg .last-accept{stroke:#1b7f3b;stroke-width:1.5;stroke-dasharray:2 3}
svg .band{fill:#dce9fa} svg .hatch line{stroke:#7c9fd6;stroke-width:1.5} svg .band-hatch{stroke:#5a7fba;stroke-width:.8}
svg .mk.expected{fill:#fff;stroke:#222;stroke-width:1.6} svg .mk.observed.within,svg .mk.observed.unjudged{fill:#1b4f9f;stroke:#fff;stroke-width:.8}
svg .mk.observed.early,svg .mk.observed.late{stroke:#b00020;stroke-width:3;fill:none}
svg .value-label{fill:#222} svg .value-label.early,svg .value-label.late,svg .value-label.missing{fill:#b00020;font-weight:700}
svg .bar{fill:#9db8e3;stroke:#1b4f9f} svg .pct{stroke:#222;stroke-width:1.5;stroke-dasharray:3 2}
.spec-section{margin:1rem 0} .spec-section blockquote{max-width:70rem}
.muted{color:#555}
`;

const SCRIPT = `
const q=(s)=>document.querySelector(s);
const F=['level','verdict','area','id','search'];
function idMatch(id,pattern){if(!pattern)return true;const p=pattern.trim().toUpperCase();if(!p)return true;
 if(p.includes('*')){const re=new RegExp('^'+p.split('*').map(s=>s.replace(/[.+?^$(){}|[\\]\\\\]/g,'\\\\$&')).join('.*')+'$');return re.test(id)}
 return id.startsWith(p)}
function apply(){const v={};for(const f of F)v[f]=q('#f-'+f).value;const t=v.search.toLowerCase();let n=0;
 for(const r of document.querySelectorAll('#checks-table tbody tr')){const ok=(!v.level||r.dataset.level===v.level)&&(!v.verdict||r.dataset.verdict===v.verdict)&&(!v.area||r.dataset.area===v.area)&&idMatch(r.dataset.id,v.id)&&(!t||r.textContent.toLowerCase().includes(t));r.hidden=!ok;if(ok)n++}
 q('#shown').textContent=n+' of '+document.querySelectorAll('#checks-table tbody tr').length+' checks shown';
 for(const b of document.querySelectorAll('.summary button'))b.setAttribute('aria-pressed',String(b.dataset.verdict===v.verdict));
 const p=new URLSearchParams();for(const f of F)if(v[f])p.set(f,v[f]);const s=p.toString();
 if(s)history.replaceState(null,'','#filter:'+s);else if(location.hash.startsWith('#filter:'))history.replaceState(null,'',location.pathname+location.search)}
function load(){if(!location.hash.startsWith('#filter:'))return;const p=new URLSearchParams(location.hash.slice(8));for(const f of F)if(p.has(f))q('#f-'+f).value=p.get(f)}
for(const f of F)q('#f-'+f).addEventListener('input',apply);
for(const b of document.querySelectorAll('.summary button'))b.addEventListener('click',()=>{const s=q('#f-verdict');s.value=s.value===b.dataset.verdict?'':b.dataset.verdict;apply()});
q('#f-reset').addEventListener('click',()=>{for(const f of F)q('#f-'+f).value='';apply()});
window.addEventListener('hashchange',()=>{if(location.hash.startsWith('#filter:')){load();apply()}});
load();apply();
`;

function options(_id: string, values: readonly string[]): string {
  return [
    `<option value="">all</option>`,
    ...values.map((value) => `<option value="${esc(value)}">${esc(value)}</option>`),
  ].join('');
}

const clauseIds = (check: CheckResult): readonly ClauseId[] | undefined => catalogEntry(check.id)?.clauses;

/** "Events > Retry and replay: RETRY-2; Limits: LIMIT-DELIVERY-ATTEMPTS", each id a link to its quoted text below. */
function clauseBlock(check: CheckResult): string {
  const ids = clauseIds(check);
  if (!ids) return `<div class="clause-ref">Clause: <span>${esc(check.clause)}</span></div>`;
  const links = bySection(ids)
    .map(
      ([section, inSection]) =>
        `${esc(section)}: ${inSection.map((id) => `<a href="#clause-${id}">${id}</a>`).join(', ')}`,
    )
    .join('; ');
  const quotes = ids
    .map(
      (id) => `<blockquote><small>${id}, ${esc(CLAUSES[id].section)}</small><br>${esc(CLAUSES[id].text)}</blockquote>`,
    )
    .join('');
  return `<div class="clause-ref">Clause: ${links}<details class="clause-text"><summary>spec clause text</summary>${quotes}</details></div>`;
}

/** The exchanges that decided a verdict (`measurements.evidence`, masked) and the command that re-runs the check. */
function evidenceBlock(check: CheckResult): string {
  const evidence = check.measurements?.evidence;
  const rerun = check.measurements?.rerun;
  const rerunLine = typeof rerun === 'string' ? `<p class="rerun">Re-run it alone: <code>${esc(rerun)}</code></p>` : '';
  if (evidence === undefined) return rerunLine;
  if (!Array.isArray(evidence))
    return `<details open><summary>requests and responses (the last 1)</summary><pre class="evidence">${esc(typeof evidence === 'string' ? evidence : JSON.stringify(evidence, null, 2), MAX_BLOCK)}</pre></details>${rerunLine}`;
  const judged = judgedExchange(check);
  const recent = evidenceOf(check).filter((exchange) => exchange !== judged);
  const judgedBlock = judged
    ? `<details open><summary>the exchange the failing assertion judged</summary><pre class="evidence">${esc(exchangeText(judged), MAX_BLOCK)}</pre>${reproduceLine(judged)}</details>`
    : '';
  const recentBlock =
    recent.length > 0
      ? `<details${judged ? '' : ' open'}><summary>recent requests and responses (the last ${recent.length})</summary><pre class="evidence">${esc(recent.map(exchangeText).join('\n\n'), MAX_BLOCK)}</pre>${judged ? '' : reproduceLine(recent.at(-1)!)}</details>`
      : '';
  return `${judgedBlock}${recentBlock}${rerunLine}`;
}

/** The `curl` that sends an exchange's request again (its secrets as shell variables), when it has one. */
function reproduceLine(exchange: EvidenceExchange): string {
  return typeof exchange.reproduce === 'string'
    ? `<p class="rerun">Reproduce with: <code>${esc(exchange.reproduce, MAX_BLOCK)}</code></p>`
    : '';
}

/** One recorded exchange as text: the request, then the answer's status, telling headers and body. */
function exchangeText(exchange: unknown): string {
  if (!exchange || typeof exchange !== 'object') return String(exchange);
  const { request, answer, headers, body } = exchange as {
    request?: unknown;
    answer?: unknown;
    headers?: Record<string, unknown>;
    body?: unknown;
  };
  const lines = [`> ${String(request ?? '').replaceAll('\n', '\n> ')}`, `< ${String(answer ?? '')}`];
  for (const [name, value] of Object.entries(headers ?? {})) lines.push(`< ${name}: ${String(value)}`);
  if (body !== undefined) lines.push('<', `< ${String(body).replaceAll('\n', '\n< ')}`);
  return lines.join('\n');
}

function checkRow(check: CheckResult, figures: readonly Figure[], strict = false): string {
  const detail = check.detail ?? '';
  const detailHtml =
    check.verdict === 'fail'
      ? `<p class="failure"><strong>Why it failed:</strong> ${esc(detail)}</p>${evidenceBlock(check)}`
      : check.verdict === 'warn'
        ? `<p class="warning"><strong>Warning:</strong> ${esc(detail)}</p>${evidenceBlock(check)}`
        : check.verdict === 'error'
          ? `<p class="failure"><strong>No verdict (network):</strong> ${esc(detail)}</p>${evidenceBlock(check)}`
          : esc(detail);
  const listed = check.expected_failure
    ? `<p class="expected"><strong>Expected-failures file:</strong> ${esc(statusText(check.expected_failure, strict))}</p>`
    : '';
  const chartLinks = figures
    .map((figure) => ` <a class="chart-link" href="#${esc(figure.id)}">chart: ${esc(figure.title.split(':')[0]!)}</a>`)
    .join('');
  const measurements = check.measurements
    ? `<details><summary>measurements</summary><pre>${esc(JSON.stringify(check.measurements, null, 2), MAX_BLOCK)}</pre></details>`
    : '';
  return `<tr id="check-${esc(check.id)}" class="${check.verdict}" data-id="${esc(check.id)}" data-level="${check.level}" data-verdict="${check.verdict}" data-area="${esc(check.area)}">
<td class="verdict"><span aria-hidden="true">${VERDICT_MARK[check.verdict]}</span> ${esc(verdictLabel(check))}</td>
<td><a href="#check-${esc(check.id)}"><code>${esc(check.id)}</code></a><br><small>${esc(check.area)}</small></td><td>${check.level}</td>
<td>${esc(check.title)}${clauseBlock(check)}</td><td>${Math.round(check.duration_ms)}</td>
<td>${listed}${detailHtml}${chartLinks}${measurements}</td></tr>`;
}

function figureHtml(figure: Figure, check: CheckResult | undefined): string {
  const about = check
    ? ` <small>(<a href="#check-${esc(check.id)}"><code>${esc(check.id)}</code></a>, ${check.level}, <span class="v-${check.verdict}">${VERDICT_MARK[check.verdict]} ${check.verdict.toUpperCase()}</span>)</small>`
    : '';
  return `<figure class="chart-figure" id="${esc(figure.id)}" data-check="${esc(figure.checkId)}">
<figcaption><h3>${esc(figure.title)}${about}</h3><p>${esc(figure.caption)}</p></figcaption>
<div class="chart-pair"><div class="svg-wrap">${figure.svg}</div><div class="chart-table">${figure.table}</div></div>
</figure>`;
}

/** Every clause the report's checks cite, grouped by section, with its quoted text and the checks citing it. */
function clauseAppendix(checks: readonly CheckResult[]): string {
  const citing = new Map<ClauseId, CheckResult[]>();
  for (const check of checks)
    for (const id of clauseIds(check) ?? []) citing.set(id, [...(citing.get(id) ?? []), check]);
  const cited = CLAUSE_IDS.filter((id) => citing.has(id));
  if (cited.length === 0) return '<p class="muted">No check of this report cites a clause of the spec.</p>';
  return bySection(cited)
    .map(([section, ids]) => {
      const quotes = ids.map((id) => {
        const links = citing
          .get(id)!
          .map((check) => `<a href="#check-${esc(check.id)}"><code>${esc(check.id)}</code></a>`)
          .join(' ');
        return `<blockquote id="clause-${id}"><strong>${id}</strong> ${esc(CLAUSES[id].text)}<br><small>Checks: ${links}</small></blockquote>`;
      });
      return `<section class="spec-section"><h3>${esc(section)}</h3>${quotes.join('')}</section>`;
    })
    .join('\n');
}

/** What the clean-up could not remove, each with the control call that removes it; nothing when it removed everything. */
function leftoversSection(report: RunReport): string {
  if (!report.leftovers?.length) return '';
  const items = report.leftovers.map(
    (leftover) =>
      `<li>${esc(leftover.kind)} <code>${esc(leftover.id)}</code>: <code>${esc(leftover.remove_with)}</code></li>`,
  );
  return `<section id="leftovers"><h2>Clean-up incomplete</h2>\n<p>The run could not remove these from the target; each is removed by the control call shown.</p>\n<ul>${items.join('')}</ul>\n</section>\n`;
}

export function renderHtml(report: RunReport, opts: HtmlOptions = {}): string {
  const verdict = runVerdict(report);
  const { summary } = report;
  const areas = [...new Set(report.checks.map((check) => check.area))].sort();
  const figuresByCheck = new Map(report.checks.map((check) => [check.id, figuresFor(check)]));
  const figures = [...figuresByCheck.values()].flat();
  const allFigures = [...figures, ...(opts.extraFigures ?? [])];
  const byId = new Map(report.checks.map((check) => [check.id, check]));
  const rows = report.checks.map((check) =>
    checkRow(check, figuresByCheck.get(check.id) ?? [], report.expected_failures?.strict === true),
  );
  const counts = (['pass', 'fail', 'warn', 'skip', 'error'] as const)
    .map(
      (v) =>
        `<button type="button" data-verdict="${v}" aria-pressed="false" title="show only ${v}"><span aria-hidden="true">${VERDICT_MARK[v]}</span> <strong>${summary[v] ?? 0}</strong> ${v}</button>`,
    )
    .join('');
  const charts =
    allFigures.length > 0
      ? allFigures.map((figure) => figureHtml(figure, byId.get(figure.checkId))).join('\n')
      : '<p class="muted">No check of this run recorded a timing series (revocation polls, retry delays).</p>';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Certification report: ${verdictTitle(report)}</title>
<meta name="viewport" content="width=device-width,initial-scale=1"><style>${STYLE}</style></head>
<body>
<header>
<h1>Certification report: <span class="${verdict}">${verdict}</span>${report.partial ? ' <span class="partial">(partial run)</span>' : ''}</h1>
<p>Target <code>${esc(report.target.base_url)}</code>${report.target.embedded_reference ? ' (embedded reference implementation)' : ''};
tier ${esc(report.tier ?? 'fast')}; harness ${esc(report.harness_version)}; ${esc(report.started_at)} to ${esc(report.finished_at)}${report.seed !== undefined ? `; seed ${report.seed}` : ''}.</p>
${aboutRunLines(report)
  .map((line) => `<p class="about-run">${esc(line)}</p>`)
  .join('\n')}
<p class="summary">${counts}</p>
${report.coverage ? `<p>Coverage: ${esc(coverageLine(report.coverage))}</p>` : ''}
${report.control ? `<p>Control: ${esc(controlText(report.control))}</p>` : ''}
${report.network ? `<p>Network: ${esc(networkText(report.network))}</p>` : ''}
<nav><a href="#charts">Timing charts (${allFigures.length})</a><a href="#checks">Checks (${report.checks.length})</a><a href="#spec">Spec clauses</a></nav>
</header>
<main>
${leftoversSection(report)}<section id="charts"><h2>Timing charts</h2>
${charts}
</section>
<section id="checks"><h2>Checks</h2>
<div class="filters" role="search">
<label>Level <select id="f-level">${options('level', ['must', 'should', 'observe'])}</select></label>
<label>Verdict <select id="f-verdict">${options('verdict', ['pass', 'fail', 'warn', 'skip', 'error'])}</select></label>
<label>Area <select id="f-area">${options('area', areas)}</select></label>
<label>Check id <input id="f-id" type="search" placeholder="HOOK-RETRY-* or prefix" size="18"></label>
<label>Search <input id="f-search" type="search" placeholder="title, clause, detail" size="22"></label>
<button type="button" id="f-reset">Clear filters</button>
<span id="shown" aria-live="polite"></span>
</div>
<table id="checks-table"><thead><tr><th scope="col">Verdict</th><th scope="col">Id</th><th scope="col">Level</th><th scope="col">Check and clause</th><th scope="col">ms</th><th scope="col">Detail</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody></table>
</section>
<section id="spec"><h2>Spec clauses</h2>
${clauseAppendix(report.checks)}
</section>
</main>
<script>${SCRIPT}</script>
</body></html>
`;
}
