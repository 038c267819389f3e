/**
 * Retry timeline: per retry of the schedule (1m, 5m, 30m, 2h, 12h, 24h; Events > Retry
 * and replay, 2), the expected delay, its tolerance band and the observed delay, on a
 * log time axis (the delays span three orders of magnitude).
 *
 * Reads the measurements of HOOK-RETRY-FULL-SCHEDULE / HOOK-RETRY-EARLY-SCHEDULE
 * (suites/webhook-retry.suite.ts): `gaps` ([{ retry, expectedMs, observedMs, toleranceMs,
 * lateToleranceMs }]) with `time_scale` and `tolerance` (its text, shown as it is); a
 * report with only `expected_gaps_ms` and `observed_gaps_ms` is drawn without bands.
 * A delay is measured from the end of the failed attempt to the arrival of the next.
 */
import {
  esc,
  formatMs,
  preciseMs,
  isNumber,
  isRecord,
  logScale,
  logTicks,
  marker,
  px,
  svgRoot,
  textTable,
  tickLabel,
  type Figure,
} from './svg.js';

export interface RetryGap {
  retry: number;
  expectedMs: number;
  /** Undefined: the retry never came. */
  observedMs?: number;
  /** Allowed earliness and lateness; undefined when the run did not record a tolerance. */
  earlyMs?: number;
  lateMs?: number;
  /** The check counted this retry without timing it (too short to time at its scale): nothing to judge. */
  countedOnly?: boolean;
}

export interface RetrySeries {
  gaps: RetryGap[];
  timeScale?: number;
  toleranceText?: string;
}

const numbers = (value: unknown): number[] | undefined =>
  Array.isArray(value) && value.every(isNumber) ? (value as number[]) : undefined;

/** The series from a check's measurements, or undefined when they hold no retry schedule. */
export function retrySeries(measurements: Record<string, unknown> | undefined): RetrySeries | undefined {
  if (!measurements) return undefined;
  const timeScale = isNumber(measurements.time_scale) ? measurements.time_scale : undefined;
  const toleranceText = typeof measurements.tolerance === 'string' ? measurements.tolerance : undefined;
  const base = {
    ...(timeScale !== undefined ? { timeScale } : {}),
    ...(toleranceText !== undefined ? { toleranceText } : {}),
  };
  if (Array.isArray(measurements.gaps) && measurements.gaps.length > 0) {
    const gaps: RetryGap[] = [];
    for (const [index, item] of measurements.gaps.entries()) {
      if (!isRecord(item) || !isNumber(item.expectedMs) || !(item.expectedMs > 0)) return undefined;
      gaps.push({
        retry: isNumber(item.retry) ? item.retry : index + 1,
        expectedMs: item.expectedMs,
        ...(isNumber(item.observedMs) ? { observedMs: item.observedMs } : {}),
        ...(isNumber(item.toleranceMs) ? { earlyMs: item.toleranceMs } : {}),
        ...(isNumber(item.lateToleranceMs)
          ? { lateMs: item.lateToleranceMs }
          : isNumber(item.toleranceMs)
            ? { lateMs: item.toleranceMs }
            : {}),
        ...(item.timed === false ? { countedOnly: true } : {}),
      });
    }
    return { gaps, ...base };
  }
  const expected = numbers(measurements.expected_gaps_ms);
  const observed = numbers(measurements.observed_gaps_ms) ?? [];
  if (!expected || expected.length === 0 || expected.some((ms) => !(ms > 0))) return undefined;
  const gaps = expected.map((expectedMs, index): RetryGap => {
    const observedMs = observed[index];
    return { retry: index + 1, expectedMs, ...(observedMs !== undefined ? { observedMs } : {}) };
  });
  return { gaps, ...base };
}

export type GapJudgement = 'within' | 'early' | 'late' | 'missing' | 'unjudged' | 'counted';

export function judgeGap(gap: RetryGap): GapJudgement {
  if (gap.observedMs === undefined) return 'missing';
  if (gap.countedOnly) return 'counted';
  if (gap.earlyMs === undefined || gap.lateMs === undefined) return 'unjudged';
  const deviation = gap.observedMs - gap.expectedMs;
  if (deviation < -gap.earlyMs) return 'early';
  if (deviation > gap.lateMs) return 'late';
  return 'within';
}

/** The spec's name for a delay at a time scale: 1m, 5m, 30m, 2h, 12h, 24h. */
export function specDelayLabel(realMs: number, timeScale: number | undefined): string | undefined {
  if (timeScale === undefined) return undefined;
  const specMs = realMs * timeScale;
  const minutes = Math.round(specMs / 60_000);
  if (minutes < 1 || Math.abs(specMs - minutes * 60_000) > specMs * 0.02) return undefined;
  return minutes % 60 === 0 ? `${minutes / 60}h` : `${minutes}m`;
}

const JUDGEMENT_TEXT: Record<GapJudgement, string> = {
  within: 'in band',
  early: 'EARLY',
  late: 'LATE',
  missing: 'never came',
  unjudged: 'no tolerance',
  counted: 'counted, not timed',
};

/** "850 ms to 1.4 s", or "up to 516.7 ms" when the early tolerance reaches below zero. */
export function acceptedWindow(gap: RetryGap): string {
  if (gap.earlyMs === undefined || gap.lateMs === undefined) return 'not recorded';
  const low = gap.expectedMs - gap.earlyMs;
  const high = preciseMs(gap.expectedMs + gap.lateMs);
  return low <= 0 ? `up to ${high}` : `${preciseMs(low)} to ${high}`;
}

export function renderRetryTimeline(checkId: string, series: RetrySeries): Figure {
  const id = `chart-${checkId}`;
  const { gaps } = series;
  const width = 720;
  const left = 150;
  const right = width - 170;
  const top = 52;
  const rowH = 30;
  const plotBottom = top + gaps.length * rowH;
  const height = plotBottom + 48;
  const values = gaps
    .flatMap((g) => [
      g.expectedMs - (g.earlyMs ?? 0),
      g.expectedMs + (g.lateMs ?? 0),
      g.expectedMs,
      ...(g.observedMs !== undefined ? [g.observedMs] : []),
    ])
    .filter((v) => v > 0);
  const low = 10 ** Math.floor(Math.log10(Math.min(...values) / 1.2));
  const high = 10 ** Math.ceil(Math.log10(Math.max(...values) * 1.2));
  const x = logScale([low, high], [left, right]);
  const y = (index: number) => top + index * rowH + rowH / 2;

  const parts: string[] = [
    '<defs><pattern id="' +
      esc(id) +
      '-hatch" class="hatch" patternUnits="userSpaceOnUse" width="6" height="6" patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="6"/></pattern></defs>',
  ];
  // Label the 2 and 5 ticks too when there is room: at most two decades.
  const labelMinor = Math.log10(high / low) <= 2;
  for (const tick of logTicks(low, high)) {
    const tx = x(tick);
    const major = Number.isInteger(Math.log10(tick));
    parts.push(
      `<line class="grid${major ? ' major' : ''}" x1="${px(tx)}" y1="${top}" x2="${px(tx)}" y2="${px(plotBottom)}"/>`,
    );
    if (major || labelMinor)
      parts.push(
        `<text class="tick" x="${px(tx)}" y="${px(plotBottom + 16)}" text-anchor="middle">${esc(tickLabel(tick))}</text>`,
      );
  }
  parts.push(`<line class="axis" x1="${left}" y1="${px(plotBottom)}" x2="${right}" y2="${px(plotBottom)}"/>`);
  parts.push(
    `<text class="axis-title" x="${px((left + right) / 2)}" y="${px(height - 8)}" text-anchor="middle">` +
      `delay from the end of the failed attempt to the next arrival (log scale${series.timeScale ? `, time scale ${series.timeScale}` : ''})</text>`,
  );
  parts.push(`<text class="col-label" x="${right + 12}" y="${top - 8}">observed (verdict)</text>`);
  gaps.forEach((gap, index) => {
    const cy = y(index);
    const spec = specDelayLabel(gap.expectedMs, series.timeScale);
    const judgement = judgeGap(gap);
    if (index % 2 === 0)
      parts.push(
        `<rect class="lane" x="${left}" y="${px(cy - rowH / 2)}" width="${px(right - left)}" height="${rowH}"/>`,
      );
    parts.push(
      `<text class="row-label" x="${left - 10}" y="${px(cy + 4)}" text-anchor="end">${esc(`retry ${gap.retry}${spec ? ` (${spec})` : ''}`)}</text>`,
    );
    if (gap.earlyMs !== undefined && gap.lateMs !== undefined) {
      const x0 = x(Math.max(low, gap.expectedMs - gap.earlyMs));
      const x1 = x(gap.expectedMs + gap.lateMs);
      const band = `accepted: ${acceptedWindow(gap)}`;
      parts.push(
        `<rect class="band" x="${px(x0)}" y="${px(cy - 9)}" width="${px(Math.max(2, x1 - x0))}" height="18"><title>${esc(band)}</title></rect>`,
      );
      parts.push(
        `<rect class="band-hatch" fill="url(#${esc(id)}-hatch)" x="${px(x0)}" y="${px(cy - 9)}" width="${px(Math.max(2, x1 - x0))}" height="18"/>`,
      );
    }
    parts.push(marker('diamond', x(gap.expectedMs), cy, 14, 'mk expected', `expected ${formatMs(gap.expectedMs)}`));
    if (gap.observedMs !== undefined) {
      const ok = judgement === 'within' || judgement === 'unjudged' || judgement === 'counted';
      parts.push(
        marker(
          ok ? 'circle' : 'cross',
          x(gap.observedMs),
          cy,
          ok ? 8 : 12,
          `mk observed ${judgement}`,
          `observed ${formatMs(gap.observedMs)}: ${JUDGEMENT_TEXT[judgement]}`,
        ),
      );
    }
    const said =
      gap.observedMs === undefined
        ? JUDGEMENT_TEXT.missing
        : `${preciseMs(gap.observedMs)} (${JUDGEMENT_TEXT[judgement]})`;
    parts.push(`<text class="value-label ${judgement}" x="${right + 12}" y="${px(cy + 4)}">${esc(said)}</text>`);
  });
  // Legend: shapes named in words.
  const ly = 14;
  parts.push(marker('diamond', left + 6, ly, 12, 'mk expected'));
  parts.push(`<text class="legend" x="${left + 16}" y="${ly + 4}">expected</text>`);
  parts.push(marker('circle', left + 90, ly, 8, 'mk observed within'));
  parts.push(`<text class="legend" x="${left + 98}" y="${ly + 4}">observed, in band</text>`);
  parts.push(marker('cross', left + 222, ly, 10, 'mk observed late'));
  parts.push(`<text class="legend" x="${left + 231}" y="${ly + 4}">observed, outside</text>`);
  parts.push(
    `<rect class="band" x="${left + 350}" y="${ly - 7}" width="22" height="14"/><rect class="band-hatch" fill="url(#${esc(id)}-hatch)" x="${left + 350}" y="${ly - 7}" width="22" height="14"/>`,
  );
  parts.push(`<text class="legend" x="${left + 378}" y="${ly + 4}">tolerance band</text>`);

  const outside = gaps.filter((g) => ['early', 'late', 'missing'].includes(judgeGap(g)));
  const counted = gaps.filter((g) => judgeGap(g) === 'counted');
  const title = 'Retry timeline: expected and observed delay of each retry';
  const description =
    `${gaps.length} retries${series.timeScale ? ` at time scale ${series.timeScale}` : ''}, log time axis; ` +
    `diamonds are the expected delays, hatched bands the tolerance${series.toleranceText ? ` (${series.toleranceText})` : ''}, circles observed delays inside it, crosses outside it; ` +
    (outside.length === 0
      ? 'every timed retry came within its tolerance'
      : `${outside.length} outside or missing: ${outside.map((g) => `retry ${g.retry} ${JUDGEMENT_TEXT[judgeGap(g)]}`).join(', ')}`) +
    (counted.length > 0
      ? `; ${counted.map((g) => `retry ${g.retry}`).join(', ')} counted, not timed (too short to time at this scale).`
      : '.');
  const rows = gaps.map((gap) => {
    const deviation =
      gap.observedMs === undefined
        ? ''
        : `${gap.observedMs >= gap.expectedMs ? '+' : ''}${preciseMs(gap.observedMs - gap.expectedMs)}`;
    const spec = specDelayLabel(gap.expectedMs, series.timeScale);
    return [
      `${gap.retry}${spec ? ` (${spec})` : ''}`,
      preciseMs(gap.expectedMs),
      acceptedWindow(gap),
      gap.observedMs === undefined ? 'never came' : preciseMs(gap.observedMs),
      deviation,
      JUDGEMENT_TEXT[judgeGap(gap)],
    ];
  });
  return {
    id,
    checkId,
    title,
    caption: description,
    svg: svgRoot(id, width, height, title, description, parts.join('')),
    table: textTable(
      'Retry delays against the schedule',
      ['retry (spec delay)', 'expected', 'accepted', 'observed', 'deviation', 'verdict'],
      rows,
    ),
  };
}
