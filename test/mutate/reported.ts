import type { ReportedMutant } from '../../scripts/mutate/against.js';
import type { PlannedMutant } from '../../scripts/mutate/instrument.js';

/** A mutant Stryker plans (positions from 0) as a run's report lists it (from 1), with `status`. */
export function asReported(mutant: PlannedMutant, status: string): ReportedMutant {
  const fromZero = ({ line, column }: { line: number; column: number }) => ({ line: line + 1, column: column + 1 });
  return {
    mutatorName: mutant.mutatorName,
    replacement: mutant.replacement,
    status,
    location: { start: fromZero(mutant.location.start), end: fromZero(mutant.location.end) },
  };
}
