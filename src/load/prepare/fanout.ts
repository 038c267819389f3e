/**
 * fanout: webhook endpoints on the capturing receiver (started once per run), a workspace
 * with faster retries, and a tally of what arrives there. Once k6 has ended, the calls the
 * runners placed are read from their samples and the figures judged (../fanout/verdict.ts):
 * runners never talk to the harness, so they split like any other scenario.
 */
import { resolve } from 'node:path';
import type { CapturingReceiver, ReceiverEndpoint } from '../../capturing-receiver/index.js';
import {
  NEEDS_CONTROL,
  skipped,
  type ObservedRun,
  type Prepared,
  type RunContext,
  type ScenarioPlan,
} from '../context.js';
import { log } from '../log.js';
import { writeFanoutObservations } from '../fanout/verdict.js';
import { arrivalsAt, watchFanout, type ArrivalFeed, type FanoutWatch } from '../fanout/watch.js';
import { startReceiver, startReceiverPool } from '../fanout/start-receiver.js';
import { ReceiverPool } from '../fanout/receiver-pool.js';
import { prepareWorkspace } from './workspace.js';

/** Time scale of the fan-out workspace (capped by the target's max_time_scale). */
const FANOUT_TIME_SCALE = 60;
/** Seconds late deliveries get once k6 has ended, when LOAD_DRAIN_S is not set. */
const DEFAULT_DRAIN_S = 20;

/** The fan-out's endpoints on the receivers, registered with the service, and what arrives at them. */
export interface FanoutSetup {
  /** What the runners need (the workspace's token and agent, the endpoint count). */
  env: Record<string, string>;
  /** Every settled delivery at the endpoints, as an Arrival. */
  feed: ArrivalFeed;
  endpointNames: readonly string[];
  receiver: CapturingReceiver | ReceiverPool;
  /** Removes the workspace (and with it the endpoints) from the service. */
  cleanup: () => Promise<void>;
}

/**
 * Starts the receivers (once per run), makes the fan-out workspace with faster retries and
 * registers `LOAD_ENDPOINTS` endpoints on them; undefined without the control interface.
 */
export async function setUpFanout(ctx: RunContext, scenario: string): Promise<FanoutSetup | undefined> {
  if (!ctx.control) return undefined;
  const count = ctx.load.LOAD_ENDPOINTS;
  const workers = ctx.load.LOAD_RECEIVER_WORKERS;
  ctx.receiver ??=
    workers > 1
      ? await startReceiverPool(ctx.settings, ctx.target.receiver, workers)
      : await startReceiver(ctx.settings, ctx.target.receiver);
  const receiver = ctx.receiver;
  // Retries run faster (1 min -> 1 s at scale 60) so that a delivery whose first attempt
  // failed under load can still arrive within the drain window; it then counts as a
  // duplicate-free late arrival, and the receiver's client_closed count shows the failures.
  const capabilities = await ctx.control.capabilities();
  const timeScale = Math.max(1, Math.min(FANOUT_TIME_SCALE, Number(capabilities.max_time_scale) || 1));
  const w = await prepareWorkspace(ctx, scenario, 1, timeScale);
  try {
    const control = ctx.control;
    const register = async (url: string) => (await control.createEndpoint(w.ws, url, ['*'])).secret;
    const names = Array.from({ length: count }, (_, i) => `load-${ctx.runId}-${scenario}-${i}`);
    const feed =
      receiver instanceof ReceiverPool
        ? await poolEndpoints(receiver, names, register)
        : await ownEndpoints(receiver, names, register);
    const processes = receiver instanceof ReceiverPool ? ` (${receiver.workers} processes on one port)` : '';
    log(`  fanout: ${count} endpoints on the receiver at ${receiver.publicUrl}${processes}`);
    return {
      env: {
        LOAD_TOKEN: w.tokens[0]!.token,
        LOAD_AGENT_ID: w.agentId,
        LOAD_WORKSPACE_ID: w.ws,
        LOAD_ENDPOINTS: String(count),
      },
      feed,
      endpointNames: names,
      receiver,
      cleanup: w.cleanup,
    };
  } catch (error) {
    await w.cleanup();
    throw error;
  }
}

async function prepareFanout(ctx: RunContext, scenario: string): Promise<Prepared> {
  const setup = await setUpFanout(ctx, scenario);
  if (!setup) return skipped(`fanout ${NEEDS_CONTROL} to register webhook endpoints`);
  const watch = watchFanout(setup.endpointNames, setup.feed, () => setup.receiver.stats());
  return {
    env: setup.env,
    cleanup: async () => {
      watch.stop();
      await setup.cleanup();
    },
    observe: (run) => observeFanout(watch, run),
  };
}

/** The receivers' side of the verdict, beside the runners' samples as `<scenario>.receivers.ndjson`. */
async function observeFanout(watch: FanoutWatch, run: ObservedRun): Promise<string[]> {
  const out = resolve(run.reportDir, `${run.scenario}.receivers.ndjson`);
  const drainMs = 1000 * Number(run.env.LOAD_DRAIN_S ?? DEFAULT_DRAIN_S);
  const { stats, calls, receiver } = await writeFanoutObservations({
    tally: watch.tally,
    samples: run.samples,
    drainMs,
    receiver: watch.receiverStats,
    out,
  });
  log(
    `  fan-out: ${stats.endpoints} endpoints, ${calls.placed} calls placed, ${stats.arrived}/${stats.expected} expected deliveries arrived ` +
      `(${stats.lost} lost), ${stats.deliveries_total} deliveries at ${stats.deliveries_per_second.toFixed(1)}/s, ` +
      `${stats.bad_signatures} bad signatures, ${stats.duplicates} duplicates, ${receiver?.clientClosed ?? 0} attempts abandoned by the service`,
  );
  // For the reader of a loss: which events went missing, and what the receivers saw of the connections.
  if (stats.lost > 0) {
    const byType = Object.entries(watch.tally.lostByType()).map(([type, count]) => `${count} ${type}`);
    log(`  fan-out lost by event: ${byType.join(', ')}`);
    if (receiver)
      log(
        `  fan-out receivers: ${receiver.total} captured, ${receiver.resets} connections reset, ${receiver.timedOut} timed out, ${receiver.clientErrors} malformed requests or failed TLS handshakes, ${receiver.strays} to unknown paths`,
      );
  }
  return [out];
}

type Register = (url: string) => Promise<string>;

/** Endpoints on the receiver of this process, each registered with the service for its secret. */
async function ownEndpoints(
  receiver: Exclude<RunContext['receiver'], ReceiverPool | undefined>,
  names: string[],
  register: Register,
): Promise<ArrivalFeed> {
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
  profiles: {
    smoke: { LOAD_RATE: '4', LOAD_DURATION: '5s', LOAD_DRAIN_S: '15' },
    default: { LOAD_RATE: '6', LOAD_DURATION: '15s', LOAD_DRAIN_S: '30' },
  },
  prepare: prepareFanout,
};
