/**
 * fanout: webhook endpoints on the capturing receiver (started once per run), a workspace
 * with faster retries, and the fan-out monitor the k6 script reports placed calls to.
 */
import type { ReceiverEndpoint } from '../../receiver/index.js';
import { log, NEEDS_CONTROL, skipped, type Prepared, type RunContext, type ScenarioPlan } from '../context.js';
import { startFanoutMonitor, type RunningMonitor } from '../fanout-monitor.js';
import { startReceiver } from '../receiver.js';
import { prepareWorkspace } from './workspace.js';

/** Time scale of the fan-out workspace (capped by the target's max_time_scale). */
const FANOUT_TIME_SCALE = 60;

async function prepareFanout(ctx: RunContext, scenario: string): Promise<Prepared> {
  if (!ctx.control) return skipped(`fanout ${NEEDS_CONTROL} to register webhook endpoints`);
  const count = ctx.load.LOAD_ENDPOINTS;
  ctx.receiver ??= await startReceiver(ctx.settings, ctx.target.receiver);
  // Retries run faster (1 min -> 1 s at scale 60) so that a delivery whose first attempt
  // failed under load can still arrive within the drain window; it then counts as a
  // duplicate-free late arrival, and the receiver's client_closed count shows the failures.
  const capabilities = await ctx.control.capabilities();
  const timeScale = Math.max(1, Math.min(FANOUT_TIME_SCALE, Number(capabilities.max_time_scale) || 1));
  const w = await prepareWorkspace(ctx, scenario, 1, timeScale);
  const endpoints: ReceiverEndpoint[] = [];
  let monitor: RunningMonitor | undefined;
  const cleanup = async (): Promise<void> => {
    await monitor?.close();
    await w.cleanup();
  };
  try {
    for (let i = 0; i < count; i++) {
      const endpoint = ctx.receiver.createEndpoint({ name: `load-${ctx.runId}-${scenario}-${i}` });
      const created = await ctx.control.createEndpoint(w.ws, endpoint.url, ['*']);
      endpoint.setSecret(created.secret);
      endpoints.push(endpoint);
    }
    const receiver = ctx.receiver;
    monitor = await startFanoutMonitor(endpoints, () => receiver.stats());
  } catch (error) {
    await cleanup();
    throw error;
  }
  log(`  fanout: ${count} endpoints on the receiver at ${ctx.receiver.publicUrl}; monitor ${monitor.url}`);
  return {
    env: { LOAD_TOKEN: w.tokens[0]!.token, LOAD_AGENT_ID: w.agentId, LOAD_WORKSPACE_ID: w.ws, LOAD_MONITOR_URL: monitor.url, LOAD_ENDPOINTS: String(count) },
    cleanup,
  };
}

export const fanout: ScenarioPlan = {
  profiles: { smoke: { LOAD_RATE: '4', LOAD_DURATION: '5s', LOAD_DRAIN_S: '15' }, default: { LOAD_RATE: '6', LOAD_DURATION: '15s', LOAD_DRAIN_S: '30' } },
  prepare: prepareFanout,
};
