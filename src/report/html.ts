/**
 * report.html: one self-contained file (no network), readable offline, with filters
 * by level, verdict, area and a search box.
 */
import { escapeXml } from './escape.js';
import { mustFailed, type RunReport } from './model.js';

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#1a1a1a}
h1{font-size:1.5rem} .PASSED{color:#05612a} .FAILED,.INTERRUPTED{color:#a10d0d}
table{border-collapse:collapse;width:100%} th,td{border-bottom:1px solid #ddd;padding:.35rem .5rem;text-align:left;vertical-align:top}
th{background:#f4f4f4;position:sticky;top:0} td.verdict{font-weight:600;white-space:nowrap}
tr.fail td.verdict{color:#a10d0d} tr.warn td.verdict{color:#8a5a00} tr.pass td.verdict{color:#05612a} tr.skip td.verdict{color:#555}
code{font-size:.9em} .filters{display:flex;gap:1rem;margin:1rem 0;flex-wrap:wrap} details{max-width:40rem}
`;

const SCRIPT = `
const q=(s)=>document.querySelector(s);
function apply(){const lv=q('#level').value,vd=q('#verdict').value,ar=q('#area').value,t=q('#search').value.toLowerCase();let n=0;
for(const r of document.querySelectorAll('tbody tr')){const ok=(!lv||r.dataset.level===lv)&&(!vd||r.dataset.verdict===vd)&&(!ar||r.dataset.area===ar)&&(!t||r.textContent.toLowerCase().includes(t));r.hidden=!ok;if(ok)n++}
q('#shown').textContent=n+' shown'}
for(const id of ['level','verdict','area','search'])q('#'+id).addEventListener('input',apply);apply();
`;

function options(values: string[]): string {
  return ['<option value="">all</option>', ...values.map((value) => `<option>${escapeXml(value)}</option>`)].join('');
}

export function renderHtml(report: RunReport): string {
  const verdict = report.interrupted ? 'INTERRUPTED' : mustFailed(report) ? 'FAILED' : 'PASSED';
  const { summary } = report;
  const areas = [...new Set(report.checks.map((check) => check.area))];
  const rows = report.checks.map((check) => {
    const measurements = check.measurements
      ? `<details><summary>measurements</summary><pre>${escapeXml(JSON.stringify(check.measurements, null, 2))}</pre></details>`
      : '';
    return `<tr class="${check.verdict}" data-level="${check.level}" data-verdict="${check.verdict}" data-area="${escapeXml(check.area)}">
<td class="verdict">${check.verdict.toUpperCase()}</td><td><code>${escapeXml(check.id)}</code></td><td>${check.level}</td>
<td>${escapeXml(check.title)}<br><small>${escapeXml(check.clause)}</small></td><td>${Math.round(check.duration_ms)}</td>
<td>${escapeXml(check.detail ?? '')}${measurements}</td></tr>`;
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Certification report: ${verdict}</title>
<meta name="viewport" content="width=device-width,initial-scale=1"><style>${STYLE}</style></head>
<body>
<h1>Certification report: <span class="${verdict}">${verdict}</span></h1>
<p>Target <code>${escapeXml(report.target.base_url)}</code>${report.target.embedded_reference ? ' (embedded reference implementation)' : ''};
tier ${report.tier}; harness ${escapeXml(report.harness_version)}; ${escapeXml(report.started_at)} to ${escapeXml(report.finished_at)}.</p>
<p><strong>${summary.pass}</strong> pass, <strong>${summary.fail}</strong> fail, <strong>${summary.warn}</strong> warn, <strong>${summary.skip}</strong> skip.</p>
<div class="filters">
<label>Level <select id="level">${options(['must', 'should', 'observe'])}</select></label>
<label>Verdict <select id="verdict">${options(['pass', 'fail', 'warn', 'skip'])}</select></label>
<label>Area <select id="area">${options(areas)}</select></label>
<label>Search <input id="search" type="search" placeholder="id, title, detail"></label>
<span id="shown" aria-live="polite"></span>
</div>
<table><thead><tr><th>Verdict</th><th>Id</th><th>Level</th><th>Check and clause</th><th>ms</th><th>Detail</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody></table>
<script>${SCRIPT}</script>
</body></html>
`;
}
