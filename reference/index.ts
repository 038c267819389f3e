import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App } from './app.js';
import { TrackedClock } from './clock.js';
import { ConditionedNetwork, hasNetworkConditions, validateNetworkConditions } from './http/conditions.js';
import { createReferenceServer, type ServerTls } from './http/server.js';
import { randomBase62 } from './ids.js';
import { UndiciSender } from './webhooks/transport.js';
import { Outbound } from './outbound.js';
import { PERSONALITY_NAMES, personalityNamed } from './personality.js';
import type { ReferenceOptions, ReferenceTls } from './options.js';

/** The receiver time-out staging declares in `/capabilities` (production: the spec's 30 s). */
export const STAGING_DELIVERY_TIMEOUT_MS = 10_000;

// The reference implementation of the service: the public API, the staging control
// interface and the webhook dispatcher, in one process on loopback.

export { FAULTS, type FaultName } from './faults.js';
export { PERSONALITY_NAMES, type PersonalityName } from './personality.js';
export type { NetworkConditions, RateLimitOptions, RetryAfterForm } from './http/conditions.js';
export { describeConditions, type ReferenceConditions } from './conditions.js';
export type { ReferenceOptions, ReferenceTls } from './options.js';

export interface RunningReference {
  /** http://127.0.0.1:PORT (https:// under `tls`), without /v1. */
  baseUrl: string;
  /** baseUrl + /_control */
  controlUrl: string;
  controlToken: string;
  /** Stops the server, every timer and the delivery pools. */
  close(): Promise<void>;
}

export async function startReference(opts: ReferenceOptions = {}): Promise<RunningReference> {
  const environment = opts.environment ?? 'staging';
  if (opts.personality !== undefined && !PERSONALITY_NAMES.includes(opts.personality)) {
    throw new Error(`personality must be ${PERSONALITY_NAMES.join(' or ')}, got "${String(opts.personality)}"`);
  }
  const host = opts.host ?? '127.0.0.1';
  const clock = new TrackedClock();
  const controlToken = opts.controlToken ?? 'ctl_' + randomBase62(40);
  const log = opts.quiet ? () => undefined : (line: string) => process.stderr.write(line + '\n');
  const tls = opts.tls ? readTls(opts.tls) : undefined;
  if (opts.network) validateNetworkConditions(opts.network);
  const network = hasNetworkConditions(opts.network) ? opts.network : undefined;
  // The store is the app's, made below: the conditions only read it when a request arrives.
  let conditions: ConditionedNetwork | undefined;
  const outbound = new Outbound(opts.outboundHost, network ? () => conditions!.beforeConnect() : undefined);
  const app = new App({
    environment,
    nodes: opts.nodes ?? 3,
    propagationMs: opts.propagationMs ?? 2_000,
    // Staging's is shorter, as the contract allows, so that the time-out checks are quick; not so
    // short that a receiver on a busy machine (the harness's, on a 2-core CI runner with other
    // runs beside it) misses it and a delivery goes to its first retry a minute later.
    deliveryTimeoutMs: opts.deliveryTimeoutMs ?? (environment === 'staging' ? STAGING_DELIVERY_TIMEOUT_MS : 30_000),
    maxTimeScale: opts.maxTimeScale ?? 3_600,
    clock,
    sender: new UndiciSender(outbound),
    outbound,
    onAttempt: opts.onDeliveryAttempt,
    personality: personalityNamed(opts.personality),
  });
  if (network) conditions = new ConditionedNetwork(network, { store: app.store });
  const server = createReferenceServer(app, Buffer.from(controlToken, 'utf8'), log, { conditions, tls });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const internal = await listenInternal(host);
  app.internalBaseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${(internal.address() as AddressInfo).port}`;
  const baseUrl = `${tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`;
  app.publicBaseUrl = opts.publicBaseUrl?.replace(/\/+$/, '') ?? baseUrl;
  const sweep = setInterval(() => {
    app.nodes.sweep();
    conditions?.sweep();
  }, 10_000);
  sweep.unref();

  let closing: Promise<void> | null = null;
  return {
    baseUrl,
    controlUrl: `${baseUrl}/_control`,
    controlToken,
    close() {
      closing ??= (async () => {
        clearInterval(sweep);
        conditions?.close();
        const closed = Promise.all(
          [server, internal].map((listening) => new Promise<void>((resolve) => listening.close(() => resolve()))),
        );
        server.closeAllConnections();
        internal.closeAllConnections();
        clock.cancelAll();
        await app.close();
        clock.cancelAll();
        await closed;
      })();
      return closing;
    },
  };
}

/**
 * The listener a deployed service keeps beside its API (health, metrics): it answers 404 to
 * every API path. Only fault transcript-url-other-port hands out its address.
 */
async function listenInternal(host: string): Promise<Server> {
  const internal = createServer((_req, res) => {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"error":{"code":"not_found","message":"not the API listener"}}');
  });
  await new Promise<void>((resolve, reject) => {
    internal.once('error', reject);
    internal.listen(0, host, () => {
      internal.off('error', reject);
      resolve();
    });
  });
  return internal;
}

function readTls(tls: ReferenceTls): ServerTls {
  const read = (what: string, path: string) => {
    try {
      return readFileSync(path);
    } catch (error) {
      throw new Error(`tls.${what}: cannot read ${path}: ${(error as Error).message}`);
    }
  };
  return {
    cert: read('certPath', tls.certPath),
    key: read('keyPath', tls.keyPath),
    ...(tls.clientCaPath !== undefined ? { clientCa: read('clientCaPath', tls.clientCaPath) } : {}),
  };
}
