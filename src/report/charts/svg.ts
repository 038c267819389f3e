/**
 * Small helpers for the report's inline SVG charts: scales, ticks, number formats and
 * marker shapes. Charts are readable without colour: every series has its own shape
 * (and a text label or table), colour only repeats what the shape says.
 */
import { InternalError } from '../../errors.js';
import { escapeXml } from '../escape.js';

export const esc = escapeXml;

/** A figure: the SVG and the table that says the same in text, for screen readers. */
export interface Figure {
  /** Anchor id, unique in the page (`chart-<check id>`). */
  id: string;
  checkId: string;
  title: string;
  /** One sentence: what the chart shows and how to read it. */
  caption: string;
  svg: string;
  table: string;
}

/** Coordinates rounded to 0.1 px: shorter markup, stable output for tests. */
export function px(value: number): string {
  return String(Math.round(value * 10) / 10);
}

export interface Scale {
  (value: number): number;
  domain: [number, number];
  range: [number, number];
}

export function linearScale(domain: [number, number], range: [number, number]): Scale {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const span = d1 - d0 || 1;
  const scale = ((value: number) => r0 + ((value - d0) / span) * (r1 - r0)) as Scale;
  scale.domain = domain;
  scale.range = range;
  return scale;
}

/** A log10 scale; values at or below zero are clamped to the domain's low end. */
export function logScale(domain: [number, number], range: [number, number]): Scale {
  const [d0, d1] = domain;
  if (!(d0 > 0) || !(d1 > d0)) throw new InternalError(`log scale needs 0 < low < high, got [${d0}, ${d1}]`);
  const l0 = Math.log10(d0);
  const l1 = Math.log10(d1);
  const [r0, r1] = range;
  const scale = ((value: number) => r0 + ((Math.log10(Math.max(value, d0)) - l0) / (l1 - l0)) * (r1 - r0)) as Scale;
  scale.domain = domain;
  scale.range = range;
  return scale;
}

/** Ticks at 1, 2, 5 × 10^n inside [low, high]. */
export function logTicks(low: number, high: number): number[] {
  const ticks: number[] = [];
  for (let exp = Math.floor(Math.log10(low)); exp <= Math.ceil(Math.log10(high)); exp++) {
    for (const m of [1, 2, 5]) {
      const value = m * 10 ** exp;
      if (value >= low * 0.999 && value <= high * 1.001) ticks.push(Number(value.toPrecision(3)));
    }
  }
  return ticks;
}

/** About `count` ticks at a round step (1, 2, 5 × 10^n) from 0 to `high`. */
export function linearTicks(high: number, count = 6): number[] {
  if (!(high > 0)) return [0];
  const raw = high / count;
  const exp = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * exp).find((s) => s >= raw) ?? 10 * exp;
  const ticks: number[] = [];
  for (let v = 0; v <= high * 1.0001; v += step) ticks.push(Number(v.toPrecision(6)));
  return ticks;
}

/** Milliseconds for people: 950 ms, 2.2 s, 1.5 min, 3.2 h. */
export function formatMs(ms: number): string {
  const abs = Math.abs(ms);
  if (abs < 1) return `${+ms.toFixed(2)} ms`;
  if (abs < 1_000) return `${+ms.toFixed(abs < 10 ? 1 : 0)} ms`;
  if (abs < 60_000) return `${+(ms / 1_000).toFixed(abs < 10_000 ? 2 : 1)} s`;
  if (abs < 3_600_000) return `${+(ms / 60_000).toFixed(1)} min`;
  return `${+(ms / 3_600_000).toFixed(1)} h`;
}

/** Milliseconds with the precision a timing check has: 21.9 ms, 1.0005 s, 24.0238 s. */
export function preciseMs(ms: number): string {
  const abs = Math.abs(ms);
  if (abs < 1_000) return `${+ms.toFixed(1)} ms`;
  if (abs < 100_000) return `${+(ms / 1_000).toFixed(4)} s`;
  return formatMs(ms);
}

/** Axis tick labels: short (10 ms, 2 s, 100 s, 5 min, 2 h). */
export function tickLabel(ms: number): string {
  if (ms < 1_000) return `${+ms.toPrecision(3)} ms`;
  if (ms < 120_000) return `${+(ms / 1_000).toPrecision(3)} s`;
  if (ms < 7_200_000) return `${+(ms / 60_000).toPrecision(3)} min`;
  return `${+(ms / 3_600_000).toPrecision(3)} h`;
}

export type Shape = 'circle' | 'cross' | 'triangle' | 'diamond' | 'square';

/** A marker centred on (x, y); filled shapes and strokes come from CSS classes. */
export function marker(shape: Shape, x: number, y: number, size: number, cls: string, title?: string): string {
  const r = size / 2;
  const t = title ? `<title>${esc(title)}</title>` : '';
  switch (shape) {
    case 'circle':
      return `<circle class="${cls}" cx="${px(x)}" cy="${px(y)}" r="${px(r)}">${t}</circle>`;
    case 'square':
      return `<rect class="${cls}" x="${px(x - r)}" y="${px(y - r)}" width="${px(size)}" height="${px(size)}">${t}</rect>`;
    case 'diamond':
      return `<path class="${cls}" d="M${px(x)} ${px(y - r)}L${px(x + r)} ${px(y)}L${px(x)} ${px(y + r)}L${px(x - r)} ${px(y)}Z">${t}</path>`;
    case 'triangle':
      return `<path class="${cls}" d="M${px(x)} ${px(y - r)}L${px(x + r)} ${px(y + r)}L${px(x - r)} ${px(y + r)}Z">${t}</path>`;
    case 'cross':
      return `<path class="${cls}" d="M${px(x - r)} ${px(y - r)}L${px(x + r)} ${px(y + r)}M${px(x + r)} ${px(y - r)}L${px(x - r)} ${px(y + r)}">${t}</path>`;
  }
}

/** An <svg> root with a title and description referenced for assistive technology. */
export function svgRoot(
  id: string,
  width: number,
  height: number,
  title: string,
  description: string,
  body: string,
): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" class="chart" id="${esc(id)}-svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" ` +
    `role="img" aria-labelledby="${esc(id)}-t ${esc(id)}-d"><title id="${esc(id)}-t">${esc(title)}</title><desc id="${esc(id)}-d">${esc(description)}</desc>${body}</svg>`
  );
}

/** A plain HTML table: header cells and rows of already-escaped or plain text cells. */
export function textTable(caption: string, head: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const th = head.map((cell) => `<th scope="col">${esc(cell)}</th>`).join('');
  const body = rows.map((row) => `<tr>${row.map((cell) => `<td>${esc(cell)}</td>`).join('')}</tr>`).join('\n');
  return `<table class="data"><caption>${esc(caption)}</caption><thead><tr>${th}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

export const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
