import type { Environment } from './auth/tokens.js';
import type { NetworkConditions } from './http/conditions.js';
import type { PersonalityName } from './personality.js';
import type { AttemptRecord } from './webhooks/dispatcher.js';

// How a reference is started (startReference in index.ts): typed options only. The harness
// reads them from the REFERENCE_* variables (src/config/reference-settings.ts).

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
