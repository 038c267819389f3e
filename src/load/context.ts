/** What every step of a load run shares (the target, settings, clients), and what a scenario's preparation gives back. */
import { randomBytes } from 'node:crypto';
import { ControlClient } from '../control/client.js';
import type { LoadSettings } from '../config/load-settings.js';
import type { Settings } from '../config/settings.js';
import type { CapturingReceiver } from '../capturing-receiver/index.js';
import type { ReceiverPool } from './fanout/receiver-pool.js';
import type { ResolvedTarget } from '../runner/target.js';

export interface RunContext {
  target: ResolvedTarget;
  settings: Settings;
  load: LoadSettings;
  control?: ControlClient;
  runId: string;
  /** Started by the first scenario that needs it (fanout), closed at the end of the run; a pool under LOAD_RECEIVER_WORKERS > 1. */
  receiver?: CapturingReceiver | ReceiverPool;
}

const CONTROL_TIMEOUT_MS = 15_000;

/** A run's context: a fresh run id, and a control client when the target has a control interface. */
export function newRunContext(target: ResolvedTarget, settings: Settings, load: LoadSettings): RunContext {
  return {
    target,
    settings,
    load,
    runId: randomBytes(4).toString('hex'),
    ...(target.controlUrl && target.controlToken
      ? { control: new ControlClient(target.controlUrl, target.controlToken, { timeoutMs: CONTROL_TIMEOUT_MS }) }
      : {}),
  };
}

/** Everything one scenario needs before k6 starts, and how to undo it. */
export interface Prepared {
  env: Record<string, string>;
  cleanup: () => Promise<void>;
  skip?: string;
  /**
   * What the harness saw itself, judged with the runners' samples: called once k6 has
   * ended with the sample files and the run's environment; returns more files of k6 output
   * lines. A scenario with it always runs with `--out json`, one instance or several.
   */
  observe?: (run: ObservedRun) => Promise<string[]>;
}

export interface ObservedRun {
  samples: readonly string[];
  env: Readonly<Record<string, string>>;
  reportDir: string;
  scenario: string;
}

export const nothingToUndo = async (): Promise<void> => undefined;

export const skipped = (reason: string): Prepared => ({ env: {}, cleanup: nothingToUndo, skip: reason });

export const NEEDS_CONTROL = 'needs the control interface (SVC_CONTROL_URL, SVC_CONTROL_TOKEN)';

/** How the load command runs one k6 scenario of load/scenarios/: its sizes and its preparation. */
export interface ScenarioPlan {
  /** LOAD_ values of the short (--smoke) and the default run; the user's LOAD_ settings win. */
  profiles: { smoke: Record<string, string>; default: Record<string, string> };
  prepare(ctx: RunContext, scenario: string): Promise<Prepared>;
}
