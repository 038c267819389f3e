import { describe, expect, it } from 'vitest';
import { digestSummary } from '../../../src/load/report/digest.js';
import { renderHtml } from '../../../src/load/report/html.js';
import { callsSummary, loadReport } from '../k6-summary.js';

describe('the load report page', () => {
  const html = renderHtml(loadReport([digestSummary(callsSummary({ ok: false, p95: 612.5 }), 99, 'calls')]));

  it('shows the figure each threshold judged beside its verdict', () => {
    expect(html).toContain(
      '<td><code>p(95)&lt;500</code></td><td class="num">612.5</td><td><span class="fail">failed</span></td>',
    );
  });

  it("names the run's id, the label of its series in a metrics store", () => {
    expect(html).toContain('run 3f2a9c1b;');
  });
});
