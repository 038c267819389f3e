/**
 * What the runner hands to the suites (through vitest's `provide`): the validated
 * target and receiver settings. It crosses a process boundary, so it is plain data.
 */
import type { Area } from '../catalog/checks.js';
import type { NetworkOptions } from '../http/dispatcher.js';

export interface RunContext {
  baseUrl: string;
  controlUrl?: string;
  controlToken?: string;
  /** CERTIFY_CONTROL_ADAPTER, absolute: the module that does the control operations instead of controlUrl. */
  controlAdapter?: string;
  /** A ready-made token for runs without a control interface. */
  svcToken?: string;
  tier: 'fast' | 'full';
  embeddedReference: boolean;
  receiver: {
    /** Interface to listen on (default 127.0.0.1). */
    host?: string;
    port: number;
    publicUrl?: string;
    certPath: string;
    keyPath: string;
  };
  /** The test identity provider's one server (IDP_ settings): every provider of the run is a path on it. */
  idp: {
    /** Interface to listen on. */
    host: string;
    /** 0: any free port. */
    port: number;
    /** Its base URL as the target must call it; default http(s)://<publicHost or host>:<port>. */
    publicUrl?: string;
    /** The host name the target calls, when only that differs (a container target). */
    publicHost?: string;
    /** PEM files: serve HTTPS. */
    tls?: { certPath: string; keyPath: string };
  };
  /** JSON-lines file where created resources are recorded (src/run-state/created-resources.ts), so the runner can remove leftovers. */
  createdResourcesPath: string;
  /** How the target is reached: proxies come from the environment; CAs, client certificate, and self-signed acceptance (the loopback reference only) from here. */
  network: NetworkOptions;
  /** The seed of every generated check of the run (FAST_CHECK_SEED, or one drawn for the run); in report.json. */
  seed: number;
  /** CERTIFY_RATE_LIMIT: most requests a second to the public API. */
  rateLimit?: number;
  /** CERTIFY_ROTATION_DEPLOY_MS: the rotation's deploy phase (ROTATION-DEPLOY-PHASE); unset in runs not started by the runner. */
  rotationDeployMs?: number;
}

declare module 'vitest' {
  export interface ProvidedContext {
    certify: RunContext;
    /** The areas whose suites run, in the order they start (suites/selected.ts). */
    suites: Area[];
  }
}
