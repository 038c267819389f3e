/**
 * Revocation propagation strip: every poll after the revocation, per connection kind
 * (kept-alive, fresh), as 200 or 401 over time, with the first 401, the last 200 and
 * the 60 s limit (Authentication > Rotation without downtime, 3; Errors > Rules, 2).
 *
 * Reads `measurements.polls` ([{ atMs, connection, status, code? }]), `propagation_ms`
 * and `last_accepted_ms` of REVOKE-PROPAGATION (suites/revocation.suite.ts).
 */
import { REVOCATION_LIMIT_MS } from '../../limits.js';
import {
  esc,
  formatMs,
  isNumber,
  isRecord,
  linearTicks,
  marker,
  px,
  svgRoot,
  textTable,
  tickLabel,
  type Figure,
  type Shape,
} from './svg.js';

export interface Poll {
  atMs: number;
  connection: string;
  status: number;
  code?: string;
}

export interface PropagationSeries {
  polls: Poll[];
  firstRejectionMs?: number;
  lastAcceptedMs?: number;
  limitMs: number;
}

/** The series from a check's measurements, or undefined when they hold no polls. */
export function propagationSeries(measurements: Record<string, unknown> | undefined): PropagationSeries | undefined {
  const raw = measurements?.polls;
  if (!Array.isArray(raw)) return undefined;
  const polls: Poll[] = [];
  for (const item of raw) {
    if (!isRecord(item) || !isNumber(item.atMs) || !isNumber(item.status)) continue;
    const connection = typeof item.connection === 'string' ? item.connection : 'unknown';
    polls.push({
      atMs: item.atMs,
      connection,
      status: item.status,
      ...(typeof item.code === 'string' ? { code: item.code } : {}),
    });
  }
  if (polls.length === 0) return undefined;
  polls.sort((a, b) => a.atMs - b.atMs);
  // The suite's own figures win; without them, work them out from the polls.
  const first = isNumber(measurements?.propagation_ms)
    ? measurements.propagation_ms
    : polls.find((p) => p.status === 401)?.atMs;
  const last = isNumber(measurements?.last_accepted_ms)
    ? measurements.last_accepted_ms
    : [...polls].reverse().find((p) => p.status === 200)?.atMs;
  return {
    polls,
    limitMs: REVOCATION_LIMIT_MS,
    ...(first !== undefined ? { firstRejectionMs: first } : {}),
    ...(last !== undefined ? { lastAcceptedMs: last } : {}),
  };
}

type Outcome = 'accepted' | 'rejected' | 'other';

function outcomeOf(poll: Poll): Outcome {
  if (poll.status === 200) return 'accepted';
  if (poll.status === 401) return 'rejected';
  return 'other';
}

const OUTCOMES: ReadonlyArray<{ outcome: Outcome; label: string; shape: Shape }> = [
  { outcome: 'accepted', label: '200 accepted', shape: 'circle' },
  { outcome: 'rejected', label: '401 rejected', shape: 'cross' },
  { outcome: 'other', label: 'other answer', shape: 'triangle' },
];

const CONNECTION_ORDER = ['kept-alive', 'fresh'];

/**
 * The x axis: linear from 0; when every poll ended well before the limit, the axis is
 * broken so the polls keep most of the width and the limit still shows at the right.
 */
function timeAxis(maxAtMs: number, limitMs: number, left: number, right: number) {
  const broken = maxAtMs < limitMs * 0.75;
  if (!broken) {
    const high = Math.max(limitMs, maxAtMs) * 1.04;
    const x = (ms: number) => left + (ms / high) * (right - left);
    return { broken, x, ticks: linearTicks(high).filter((t) => t <= high), breakAt: undefined as number | undefined };
  }
  const high = Math.max(maxAtMs * 1.06, 100);
  const breakAt = left + (right - left) * 0.86;
  const limitX = right - 8;
  const x = (ms: number) => (ms <= high ? left + (ms / high) * (breakAt - left) : limitX);
  return { broken, x, ticks: linearTicks(high).filter((t) => t <= high), breakAt };
}

export function renderPropagation(checkId: string, series: PropagationSeries): Figure {
  const id = `chart-${checkId}`;
  const connections = [...new Set(series.polls.map((p) => p.connection))].sort(
    (a, b) => (CONNECTION_ORDER.indexOf(a) + 1 || 99) - (CONNECTION_ORDER.indexOf(b) + 1 || 99) || a.localeCompare(b),
  );
  const outcomes = OUTCOMES.filter((o) => o.outcome !== 'other' || series.polls.some((p) => outcomeOf(p) === 'other'));
  const rows = connections.flatMap((connection) => outcomes.map((o) => ({ connection, ...o })));

  const width = 720;
  const left = 196;
  const right = width - 24;
  const top = 44;
  const rowH = 22;
  const laneGap = 10;
  const plotBottom = top + rows.length * rowH + (connections.length - 1) * laneGap;
  const height = plotBottom + 44;
  const maxAt = series.polls[series.polls.length - 1]!.atMs;
  const axis = timeAxis(maxAt, series.limitMs, left, right);
  const rowY = (index: number) => top + index * rowH + rowH / 2 + Math.floor(index / outcomes.length) * laneGap;

  const parts: string[] = [];
  // Lanes: a light band per connection kind, a label per row.
  connections.forEach((connection, ci) => {
    const y0 = rowY(ci * outcomes.length) - rowH / 2;
    parts.push(
      `<rect class="lane" x="${left}" y="${px(y0)}" width="${px(right - left)}" height="${px(outcomes.length * rowH)}"/>`,
    );
    parts.push(
      `<text class="lane-label" x="8" y="${px(y0 + (outcomes.length * rowH) / 2 + 4)}">${esc(connection)}</text>`,
    );
  });
  rows.forEach((row, i) => {
    const y = rowY(i);
    parts.push(marker(row.shape, left - 12, y, 8, `mk ${row.outcome}`));
    parts.push(`<text class="row-label" x="${left - 22}" y="${px(y + 4)}" text-anchor="end">${esc(row.label)}</text>`);
  });
  // Axis with ticks and grid lines.
  parts.push(`<line class="axis" x1="${left}" y1="${px(plotBottom)}" x2="${right}" y2="${px(plotBottom)}"/>`);
  for (const tick of axis.ticks) {
    const x = axis.x(tick);
    parts.push(`<line class="grid" x1="${px(x)}" y1="${top}" x2="${px(x)}" y2="${px(plotBottom)}"/>`);
    parts.push(
      `<text class="tick" x="${px(x)}" y="${px(plotBottom + 16)}" text-anchor="middle">${esc(tickLabel(tick))}</text>`,
    );
  }
  if (axis.breakAt !== undefined) {
    const b = axis.breakAt + 12;
    parts.push(
      `<path class="axis-break" d="M${px(b - 4)} ${px(plotBottom + 6)}L${px(b + 2)} ${px(plotBottom - 6)}M${px(b + 2)} ${px(plotBottom + 6)}L${px(b + 8)} ${px(plotBottom - 6)}"/>`,
    );
  }
  parts.push(
    `<text class="axis-title" x="${px((left + right) / 2)}" y="${px(height - 6)}" text-anchor="middle">time since the revocation${axis.broken ? ' (axis broken before the limit)' : ''}</text>`,
  );
  // The polls.
  series.polls.forEach((poll) => {
    const index = rows.findIndex((row) => row.connection === poll.connection && row.outcome === outcomeOf(poll));
    const row = rows[index]!;
    const label = `${poll.connection} poll at ${formatMs(poll.atMs)}: ${poll.status}${poll.code ? ` ${poll.code}` : ''}`;
    parts.push(marker(row.shape, axis.x(poll.atMs), rowY(index), 8, `mk ${row.outcome}`, label));
  });
  // Reference lines: the limit, the first 401, the last 200.
  const limitX = axis.x(series.limitMs);
  parts.push(`<line class="limit" x1="${px(limitX)}" y1="${top - 6}" x2="${px(limitX)}" y2="${px(plotBottom)}"/>`);
  parts.push(
    `<text class="ref-label" x="${px(limitX)}" y="${top - 10}" text-anchor="end">${esc(`${tickLabel(series.limitMs)} limit`)}</text>`,
  );
  if (series.firstRejectionMs !== undefined) {
    const x = axis.x(series.firstRejectionMs);
    parts.push(`<line class="first-reject" x1="${px(x)}" y1="14" x2="${px(x)}" y2="${px(plotBottom)}"/>`);
    parts.push(
      `<text class="ref-label" x="${px(x + 4)}" y="12">${esc(`first 401 at ${formatMs(series.firstRejectionMs)}`)}</text>`,
    );
  }
  if (series.lastAcceptedMs !== undefined) {
    const x = axis.x(series.lastAcceptedMs);
    parts.push(`<line class="last-accept" x1="${px(x)}" y1="28" x2="${px(x)}" y2="${px(plotBottom)}"/>`);
    parts.push(
      `<text class="ref-label" x="${px(x - 4)}" y="26" text-anchor="end">${esc(`last 200 at ${formatMs(series.lastAcceptedMs)}`)}</text>`,
    );
  }

  const first = series.firstRejectionMs;
  const title = 'Revocation propagation: 200 or 401 per poll over time';
  const description =
    `${series.polls.length} polls on ${connections.join(' and ')} connections after the token was revoked; ` +
    (first !== undefined ? `first 401 at ${formatMs(first)}` : 'never rejected') +
    (series.lastAcceptedMs !== undefined
      ? `, last 200 at ${formatMs(series.lastAcceptedMs)}`
      : ', no 200 after the revocation') +
    `; the limit is ${tickLabel(series.limitMs)}. Circles are 200 answers, crosses 401, triangles any other answer.`;
  const svg = svgRoot(id, width, height, title, description, parts.join(''));

  const tableRows = connections.map((connection) => {
    const mine = series.polls.filter((p) => p.connection === connection);
    const firstReject = mine.find((p) => p.status === 401)?.atMs;
    const lastAccept = [...mine].reverse().find((p) => p.status === 200)?.atMs;
    return [
      connection,
      String(mine.length),
      String(mine.filter((p) => p.status === 200).length),
      String(mine.filter((p) => p.status === 401).length),
      String(mine.filter((p) => outcomeOf(p) === 'other').length),
      firstReject === undefined ? 'none' : formatMs(firstReject),
      lastAccept === undefined ? 'none' : formatMs(lastAccept),
    ];
  });
  const summary = textTable(
    'Polls per connection kind',
    ['connection', 'polls', '200', '401', 'other', 'first 401', 'last 200'],
    tableRows,
  );
  const all = textTable(
    'Every poll, in time order',
    ['ms after revocation', 'connection', 'status', 'code'],
    series.polls.map((p) => [String(p.atMs), p.connection, String(p.status), p.code ?? '']),
  );
  return {
    id,
    checkId,
    title,
    caption: description,
    svg,
    table: `${summary}<details><summary>all ${series.polls.length} polls</summary>${all}</details>`,
  };
}
