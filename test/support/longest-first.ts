/**
 * The unit tests' order: the files known to take longest start first. Vitest starts the longest
 * first by the durations it cached from the last run, but a fresh clone (CI) has none, and then
 * it orders by file size, which started a short file with a long k6 run among the last, and the
 * whole step waited for it alone.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Longest first; a file not named here keeps vitest's order after them. */
export const LONGEST_FILES = [
  'test/load/smoke.test.ts',
  'test/project/package.test.ts',
  'test/reference/red-team-round-2.test.ts',
  'test/reference/red-team-round-3.test.ts',
  'test/cli/main.test.ts',
  'test/runner/control-adapter.test.ts',
  'test/receiver-cert/certify-receiver.test.ts',
  'test/reference/red-team-round-1.test.ts',
  'test/runner/expected-failures.test.ts',
];

export function rankOf(moduleId: string): number {
  const rank = LONGEST_FILES.findIndex((path) => moduleId.replaceAll('\\', '/').endsWith(`/${path}`));
  return rank === -1 ? LONGEST_FILES.length : rank;
}

export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return sorted.toSorted((a, b) => rankOf(a.moduleId) - rankOf(b.moduleId));
  }
}
