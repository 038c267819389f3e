/**
 * How a check ends other than by passing: a typed failure with a one-line reason, or a
 * skip that says why the check could not run here (src/errors.ts). Both are thrown from
 * check bodies; what the check saw travels to the reports as CheckMeta.
 */
export { CheckFailure, CheckSkip } from '../errors.js';

/** What a check leaves for the reports, carried on the vitest task's meta. */
export interface CheckMeta {
  checkId: string;
  detail?: string;
  measurements?: Record<string, unknown>;
  skipReason?: string;
}

declare module '@vitest/runner' {
  interface TaskMeta {
    check?: CheckMeta;
  }
}
