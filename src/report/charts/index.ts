/** Every chart a report can show, chosen by the shape of each check's measurements. */
import type { CheckResult } from '../model.js';
import { propagationSeries, renderPropagation } from './propagation.js';
import { renderRetryTimeline, retrySeries } from './retry-timeline.js';
import type { Figure } from './svg.js';

export type { Figure } from './svg.js';

export function figuresFor(check: CheckResult): Figure[] {
  const figures: Figure[] = [];
  const polls = propagationSeries(check.measurements);
  if (polls) figures.push(renderPropagation(check.id, polls));
  const retries = retrySeries(check.measurements);
  if (retries) figures.push(renderRetryTimeline(check.id, retries));
  return figures;
}
