/**
 * fanout: webhook endpoints on the capturing receiver (started once per run), a workspace
 * with faster retries, and the fan-out monitor the k6 script reports placed calls to.
 */
import type { ReceiverEndpoint } from '../../receiver/index.js';
import { log, NEEDS_CONTROL, skipped, type Prepared, type RunContext, type ScenarioPlan } from '../context.js';
import { arrivalsAt, startFanoutMonitor, type ArrivalFeed, type RunningMonitor } from '../fanout-monitor.js';
import { startReceiver, startReceiverPool } from '../receiver.js';
import { ReceiverPool } from '../receiver-pool.js';
import { prepareWorkspace } from './workspace.js';

/** Time scale of the fan-out workspace (capped by the target's max_time_scale). */
const FANOUT_TIME_SCALE = 60;

async function prepareFanout(ctx: RunContext, scenario: string): Promise<Prepared> {
  if (!ctx.control) return skipped(`fanout ${NEEDS_CONTROL} to register webhook endpoints`);
  const count = ctx.load.LOAD_ENDPOINTS;
  const workers = ctx.load.LOAD_RECEIVER_WORKERS;
  ctx.receiver ??= workers > 1 ? await startReceiverPool(ctx.settings, ctx.target.receiver, workers) : await startReceiver(ctx.settings, ctx.target.receiver);
  const receiver = ctx.receiver;
  // Retries run faster (1 min -> 1 s at scale 60) so that a delivery whose first attempt
  // failed under load can still arrive within the drain window; it then counts as a
  // duplicate-free late arrival, and the receiver's client_closed count shows the failures.
  const capabilities = await ctx.control.capabilities();
  const timeScale = Math.max(1, Math.min(FANOUT_TIME_SCALE, Number(capabilities.max_time_scale) || 1));
  const w = await prepareWorkspace(ctx, scenario, 1, timeScale);
  const names: string[] = [];
  let monitor: RunningMonitor | undefined;
  const cleanup = async (): Promise<void> => {
    await monitor?.close();
    await w.cleanup();
  };
  try {
    const control = ctx.control;
    const register = async (url: string) => (await control.createEndpoint(w.ws, url, ['*'])).secret;
    for (let i = 0; i < count; i++) names.push(`load-${ctx.runId}-${scenario}-${i}`);
    const feed = receiver instanceof ReceiverPool ? await poolEndpoints(receiver, names, register) : await ownEndpoints(receiver, names, register);
    monitor = await startFanoutMonitor(names, feed, () => receiver.stats());
  } catch (error) {
    await cleanup();
    throw error;
  }
  const processes = receiver instanceof ReceiverPool ? ` (${receiver.workers} processes on one port)` : '';
  log(`  fanout: ${count} endpoints on the receiver at ${receiver.publicUrl}${processes}; monitor ${monitor.url}`);
  return {
    env: { LOAD_TOKEN: w.tokens[0]!.token, LOAD_AGENT_ID: w.agentId, LOAD_WORKSPACE_ID: w.ws, LOAD_MONITOR_URL: monitor.url, LOAD_ENDPOINTS: String(count) },
    cleanup,
  };
}

type Register = (url: string) => Promise<string>;

/** Endpoints on the receiver of this process, each registered with the service for its secret. */
async function ownEndpoints(receiver: Exclude<RunContext['receiver'], ReceiverPool | undefined>, names: string[], register: Register): Promise<ArrivalFeed> {
  const endpoints: ReceiverEndpoint[] = [];
  for (const name of names) {
    const endpoint = receiver.createEndpoint({ name });
    endpoint.setSecret(await register(endpoint.url));
    endpoints.push(endpoint);
  }
  return arrivalsAt(endpoints);
}

/** The same on every process of a pool: the path is chosen first, the secret given to all. */
async function poolEndpoints(pool: ReceiverPool, names: string[], register: Register): Promise<ArrivalFeed> {
  for (const name of names) await pool.endpoint(name, register);
  return pool.arrivals;
}

export const fanout: ScenarioPlan = {
  profiles: { smoke: { LOAD_RATE: '4', LOAD_DURATION: '5s', LOAD_DRAIN_S: '15' }, default: { LOAD_RATE: '6', LOAD_DURATION: '15s', LOAD_DRAIN_S: '30' } },
  prepare: prepareFanout,
};
