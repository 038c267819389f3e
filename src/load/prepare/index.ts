/** The plan of each k6 scenario of load/scenarios/, by file name; a new scenario adds a module here. */
import { skipped, type ScenarioPlan } from '../context.js';
import { calls, callsRamp } from './calls.js';
import { fanout } from './fanout.js';
import { rotation } from './rotation.js';

export const SCENARIO_PLANS: Record<string, ScenarioPlan> = { calls, 'calls-ramp': callsRamp, rotation, fanout };

/** A scenario file without a plan here still bundles, and is reported skipped. */
export function planOf(scenario: string): ScenarioPlan {
  return (
    SCENARIO_PLANS[scenario] ?? {
      profiles: { smoke: {}, default: {} },
      prepare: async () => skipped(`no preparation known for ${scenario}`),
    }
  );
}
