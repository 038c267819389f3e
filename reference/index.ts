import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { App } from './app.js';
import type { Environment } from './auth/tokens.js';
import { TrackedClock } from './clock.js';
import { ConditionedNetwork, hasNetworkConditions, validateNetworkConditions, type NetworkConditions } from './http/conditions.js';
import { createReferenceServer, type ServerTls } from './http/server.js';
import { randomBase62 } from './ids.js';
import type { AttemptRecord } from './webhooks/dispatcher.js';
import { UndiciSender } from './webhooks/transport.js';
import { Outbound } from './outbound.js';
import { PERSONALITY_NAMES, personalityNamed, type PersonalityName } from './personality.js';

// The reference implementation of the service: the public API, the staging control
// interface and the webhook dispatcher, in one process on loopback.

export { FAULTS, type FaultName } from './faults.js';
export { PERSONALITY_NAMES, parsePersonality, type PersonalityName } from './personality.js';
export type { NetworkConditions, RateLimitOptions, RetryAfterForm } from './http/conditions.js';
export { referenceOptionsFromEnv, describeConditions, type ReferenceConditions } from './conditions.js';

export interface ReferenceOptions {
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** Port (default 0: a free one). */
  port?: number;
  /** Bearer token of the control interface (random if absent). */
  controlToken?: string;
  environment?: Environment;
  /** In-process nodes, each with its own token cache (default 3). */
  nodes?: number;
  /** Token-cache lifetime per node, i.e. the revocation propagation bound (default 2000 ms). */
  propagationMs?: number;
  /** Receiver time-out declared in /capabilities (default 2000 ms in staging, 30000 in production). */
  deliveryTimeoutMs?: number;
  /** The largest time scale a workspace may have, as /capabilities declares it (default 3600). */
  maxTimeScale?: number;
  /** Base URL clients use (behind a port mapping, say), for the URLs the service hands out; default the listening address. */
  publicBaseUrl?: string;
  /** No log lines at all. */
  quiet?: boolean;
  /** Observes every finished delivery attempt. */
  onDeliveryAttempt?: (record: AttemptRecord) => void;
  /**
   * Which choice to make where the spec leaves one open (README: "Personalities"):
   * `reference` (default) or `alternate`, the other reasonable choice at each such point.
   */
  personality?: PersonalityName;
  /**
   * Open connections (deliveries, JWKS fetches) only to this host, as a service on another
   * machine that cannot call the harness's loopback address (REFERENCE_OUTBOUND_HOST);
   * default anywhere.
   */
  outboundHost?: string;
  /**
   * The conditions of a service across a real network (README: "Network conditions"):
   * added latency, a rate limit on the public API, a fraction of reset connections.
   */
  network?: NetworkConditions;
  /** Serve HTTPS from these PEM files; with `clientCaPath`, only to clients with a certificate from that CA. */
  tls?: ReferenceTls;
}

export interface ReferenceTls {
  certPath: string;
  keyPath: string;
  clientCaPath?: string;
}

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
    deliveryTimeoutMs: opts.deliveryTimeoutMs ?? (environment === 'staging' ? 2_000 : 30_000),
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
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        clock.cancelAll();
        await app.close();
        clock.cancelAll();
        await closed;
      })();
      return closing;
    },
  };
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
