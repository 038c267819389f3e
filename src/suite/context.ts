/**
 * What a service check body gets: the check record (src/check/record.ts: details,
 * measurements, fail, skip), the target's clients, and workspaces that are cleaned up
 * when the check ends.
 */
import type { ServiceApi } from '../api/service.js';
import type { ControlAdapter } from '../control/adapter.js';
import type { Capabilities, WorkspaceOptions } from '../control/types.js';
import type { CheckSpec } from '../catalog/checks.js';
import { CheckRecord } from '../check/record.js';
import type { Harness } from './harness.js';
import type { RunContext } from './run-context.js';
import { hookEndpoint, sharedReceiver, type HookedEndpoint } from './webhooks.js';
import { REMOVALS_AT_ONCE, TestWorkspace } from './workspace.js';
import { mapLimit } from '../async/map-limit.js';
import { onSuiteEnd } from './suite-end.js';
import type { CapturingReceiver } from '../capturing-receiver/index.js';

const NO_CONTROL = 'needs a control interface: set SVC_CONTROL_URL and SVC_CONTROL_TOKEN, or CERTIFY_CONTROL_ADAPTER';

let endpointsNamed = 0;

/**
 * A receiver endpoint's default name, unique in this process (the run's receiver lives in
 * it) by construction. Six random base-36 characters were not: MODEL-ENDPOINTS names about
 * 10,000 endpoints a run, and two of them collided in 1 run of 20.
 */
export function nextEndpointName(checkId: string): string {
  endpointsNamed += 1;
  return `${checkId}-${endpointsNamed}`;
}

export class CheckContext extends CheckRecord<CheckSpec> {
  private readonly cleanups: Array<() => Promise<unknown> | unknown> = [];
  /** The check's own workspaces, removed after the other clean-ups, several at once. */
  private readonly workspaces: TestWorkspace[] = [];

  constructor(
    spec: CheckSpec,
    private readonly harness: Harness,
  ) {
    super(spec);
  }

  get run(): RunContext {
    return this.harness.run;
  }

  get api(): ServiceApi {
    return this.harness.api;
  }

  /** Whether the run has a control interface (or adapter): for a check that does more with one, and something without. */
  get hasControl(): boolean {
    return this.harness.control !== undefined;
  }

  /** The control interface (or adapter); a check that needs one is skipped when the run has none. */
  get control(): ControlAdapter {
    const control = this.harness.control;
    if (!control) this.skip(NO_CONTROL);
    return control;
  }

  async capabilities(): Promise<Capabilities> {
    const capabilities = await this.harness.capabilities();
    if (!capabilities) this.skip(NO_CONTROL);
    return capabilities;
  }

  /** A fresh workspace for this check, removed (with its tokens and endpoints) when the check ends. */
  async workspace(options: WorkspaceOptions = {}): Promise<TestWorkspace> {
    const workspace = await TestWorkspace.create(this.control, options);
    this.workspaces.push(workspace);
    return workspace;
  }

  /**
   * A workspace for an observation that several checks of a suite share: removed when the
   * suite file ends, not when this check does, so the other checks can still use it.
   */
  async sharedWorkspace(options: WorkspaceOptions = {}): Promise<TestWorkspace> {
    const workspace = await TestWorkspace.create(this.control, options);
    onSuiteEnd(() => workspace.dispose());
    return workspace;
  }

  /** A workspace with one token holding the given scopes (default: all licensed). */
  async workspaceWithToken(options: WorkspaceOptions = {}, scopes?: readonly string[]) {
    const workspace = await this.workspace(options);
    const token = await workspace.createToken(`certify ${this.spec.id}`, scopes);
    return { workspace, token };
  }

  /** The suite file's capturing receiver (HTTPS), started on first use. */
  receiver(): Promise<CapturingReceiver> {
    return sharedReceiver(this.run);
  }

  /**
   * A new receiver endpoint registered with the service for `events` (default `*`), with
   * the service's signing secret set on the receiver so it verifies every delivery.
   */
  hookEndpoint(workspace: TestWorkspace, events: readonly string[] = ['*'], name?: string): Promise<HookedEndpoint> {
    return hookEndpoint(this.run, workspace, events, name ?? nextEndpointName(this.spec.id));
  }

  /** Runs when the check ends, last registered first. */
  defer(cleanup: () => Promise<unknown> | unknown): void {
    this.cleanups.push(cleanup);
  }

  /**
   * Runs the cleanups, last registered first, then removes the check's workspaces (a model
   * check makes hundreds: one after another, across a network, would outlast the check).
   * Their failures never change the verdict: leftovers are recorded, and the runner
   * removes them at the end.
   */
  async dispose(): Promise<void> {
    for (const cleanup of this.cleanups.reverse()) {
      try {
        await cleanup();
      } catch {
        // See above.
      }
    }
    await mapLimit(this.workspaces.splice(0), REMOVALS_AT_ONCE, (workspace) => workspace.dispose());
  }
}
