/**
 * Workspaces whose endpoints the target has auto-disabled, for the endpoint health model:
 * 24 h of consecutive failures (scaled) is too slow to be one step of a generated sequence,
 * so a batch of workspaces is driven there side by side before the sequences use them. Each
 * gets its endpoints, subscribed as asked, whose receivers answer 500 while an event is fired
 * every 4 scaled hours (a target that disables at the first failure after 24 h sees one within 4 h),
 * until every one reads disabled; then the receivers answer 2xx again ("the receiver is
 * back"), as the spec's re-enable assumes. The events, their retries and the reads are kept
 * few: the batch runs beside timing checks of the same run.
 */
import { pollUntil, sleep, type PollResult } from '../../clock/wait.js';
import type { EndpointStatus } from '../../control/types.js';
import type { CheckContext } from '../context.js';
import { SPEC_AUTO_DISABLE_MS } from '../timing/schedule.js';
import { repeatedly } from '../timing/wait.js';
import type { HookedEndpoint } from '../webhooks.js';
import type { TestWorkspace } from '../workspace.js';

const EVENT_EVERY_MS = 4 * 3_600_000;
const POLL_MS = 1_000;
/** One endpoint driven alone is read more often: its checks time what follows the transition. */
const ONE_ENDPOINT_POLL_MS = 500;
/** Reads start at this fraction of the period: disabling early is HOOK-AUTO-DISABLE's to judge. */
const FIRST_READ_AT = 0.9;
/** Past the scaled 24 h: one more event interval, a tenth of the period and 3 s for the reads. */
const slackMs = (periodMs: number, intervalMs: number): number => intervalMs + periodMs / 10 + 3_000;

export interface DisabledWorkspace {
  workspace: TestWorkspace;
  /** The auto-disabled endpoints, receivers answering 2xx again. */
  hooks: HookedEndpoint[];
}

/**
 * `count` workspaces at `scale`, each with one auto-disabled endpoint per entry of
 * `subscriptions`, subscribed to its event types (each must take `event`, which fails them);
 * undefined when an endpoint did not read disabled in time (HOOK-AUTO-DISABLE judges that;
 * the caller skips).
 */
export async function disabledEndpointWorkspaces(
  t: CheckContext,
  options: { count: number; subscriptions: ReadonlyArray<readonly string[]>; scale: number; event: string },
): Promise<DisabledWorkspace[] | undefined> {
  const { count, subscriptions, scale, event } = options;
  const missing = subscriptions.find((events) => !events.includes('*') && !events.includes(event));
  if (missing)
    throw new TypeError(
      `an endpoint subscribed to ${missing.join(', ')} never gets ${event}, which is to fail it until disabled`,
    );
  const intervalMs = EVENT_EVERY_MS / scale;
  const periodMs = SPEC_AUTO_DISABLE_MS / scale;
  const prepared = await Promise.all(
    Array.from({ length: count }, async (): Promise<DisabledWorkspace> => {
      const workspace = await t.workspace({ timeScale: scale });
      const hooks: HookedEndpoint[] = [];
      for (const events of subscriptions) {
        const hook = await t.hookEndpoint(workspace, events);
        hook.inbox.failAll({ status: 500 });
        hooks.push(hook);
      }
      return { workspace, hooks };
    }),
  );
  return driveToDisabled(prepared, { intervalMs, periodMs, event });
}

async function driveToDisabled(
  prepared: DisabledWorkspace[],
  o: { intervalMs: number; periodMs: number; event: string },
): Promise<DisabledWorkspace[] | undefined> {
  const firing = repeatedly(
    () =>
      Promise.all(
        prepared.map((p) => p.workspace.fireEvent(o.event, { certify: 'endpoint health model: auto-disable' })),
      ),
    o.intervalMs,
  );
  try {
    await sleep(FIRST_READ_AT * o.periodMs);
    const states = await Promise.all(
      prepared.flatMap((p) =>
        p.hooks.map((hook) =>
          pollUntil(
            () => p.workspace.getEndpoint(hook.registered.endpointId),
            (status) => status.state === 'disabled',
            { intervalMs: POLL_MS, timeoutMs: (1 - FIRST_READ_AT) * o.periodMs + slackMs(o.periodMs, o.intervalMs) },
          ),
        ),
      ),
    );
    if (!states.every((state) => state.ok)) return undefined;
  } finally {
    await firing.stop();
  }
  for (const p of prepared) for (const hook of p.hooks) hook.inbox.reset();
  return prepared;
}

/**
 * Fails `hook`'s deliveries (500) and fires `event` every 4 scaled hours until its endpoint
 * reads disabled, for a check that judges what follows the auto-disable (a replay, a
 * re-enable). Read from the start, for up to a tenth more than the scaled 24 h, one event
 * interval and 3 s; the result is not ok when it never read disabled (HOOK-AUTO-DISABLE judges
 * that; the caller skips). The receiver keeps failing afterwards: the caller says when it is back.
 */
export async function failUntilDisabled(
  workspace: TestWorkspace,
  hook: HookedEndpoint,
  options: { scale: number; event: string; certify: string },
): Promise<PollResult<EndpointStatus>> {
  hook.inbox.failAll({ status: 500 });
  const periodMs = SPEC_AUTO_DISABLE_MS / options.scale;
  const intervalMs = EVENT_EVERY_MS / options.scale;
  const failing = repeatedly(() => workspace.fireEvent(options.event, { certify: options.certify }), intervalMs);
  try {
    return await pollUntil(
      () => workspace.getEndpoint(hook.registered.endpointId),
      (status) => status.state === 'disabled',
      { intervalMs: ONE_ENDPOINT_POLL_MS, timeoutMs: 1.1 * periodMs + intervalMs + 3_000 },
    );
  } finally {
    await failing.stop();
  }
}
