import { describe, expect, it } from 'vitest';
import { RUN_DEADLINE_MS } from '../../src/runner/deadline.js';
import { STOP_GRACE_MS } from '../../src/run-state/stop.js';
import { LONGEST_BOUNDED_TIMEOUT_MS } from '../../src/suite/timing/budget.js';

/** The run's start before the checks (the reference, the receiver, the suites' import) and a check's clean-up allowance. */
const ROOM_MS = 60_000;

describe('the run deadline', () => {
  it('leaves room, in each tier, for a check at the slowest time scale the bound on scaled time allows', () => {
    for (const tier of ['fast', 'full'] as const) {
      expect(RUN_DEADLINE_MS[tier] - STOP_GRACE_MS).toBeGreaterThanOrEqual(LONGEST_BOUNDED_TIMEOUT_MS + ROOM_MS);
    }
  });
});
