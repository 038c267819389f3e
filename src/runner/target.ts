/**
 * Resolving the target of a run: the service the settings name, or the bundled reference
 * implementation started on a free loopback port. Checks that it answers, and refuses a
 * production target unless the user allowed it explicitly.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ControlClient } from '../control/client.js';
import { HttpClient } from '../http/client.js';
import { networkOf, type Settings } from '../config/settings.js';
import { loadReferenceSettings } from '../config/reference-settings.js';
import { proxySettings, type NetworkOptions } from '../http/dispatcher.js';
import { registerSecret } from '../secrets/mask.js';
import { createSelfSignedCertificate } from '../tls/self-signed.js';
import { HttpError, RunAbort } from '../errors.js';
import { isCertificateRefusal } from '../http/retry-policy.js';
import { CONTROL_CONTRACT } from '../catalog/documents.js';
import type { ImageProvenance } from '../report/provenance.js';

export interface ResolvedTarget {
  baseUrl: string;
  controlUrl?: string;
  controlToken?: string;
  svcToken?: string;
  embeddedReference: boolean;
  /** How it is reached: the settings' CAs and client certificate; any certificate for the embedded reference. */
  network: NetworkOptions;
  environment?: 'staging' | 'production';
  /** Set when the target dictates where the capturing receiver listens and how it is called (SVC_IMAGE). */
  receiver?: { host: string; port: number; publicUrl: string; certPath: string; keyPath: string };
  /** The image certified (SVC_IMAGE), by digest, for the reports' provenance. */
  image?: ImageProvenance;
  /** Likewise for the test identity provider: where it listens and the host name the target calls (SVC_IMAGE). */
  idp?: { host: string; publicHost: string };
  stop(): Promise<void>;
}

const PROBE_TIMEOUT_MS = 5_000;

/** How the embedded reference is started, when neither SVC_IMAGE nor SVC_BASE_URL names a target. */
export interface EmbeddedOptions {
  /** The receiver time-out it declares and keeps (its staging default: 2 s, for certify's fast time-out checks). */
  deliveryTimeoutMs?: number;
}

export async function resolveTarget(
  settings: Settings,
  allowProduction: boolean,
  embedded: EmbeddedOptions = {},
): Promise<ResolvedTarget> {
  const target = settings.SVC_IMAGE
    ? await startImageTarget(settings)
    : settings.SVC_BASE_URL
      ? fromSettings(settings)
      : await startEmbeddedReference(embedded);
  try {
    await probe(target, allowProduction);
  } catch (error) {
    await target.stop();
    throw error;
  }
  return target;
}

function fromSettings(settings: Settings): ResolvedTarget {
  registerSecret(settings.SVC_CONTROL_TOKEN);
  registerSecret(settings.SVC_TOKEN);
  return {
    baseUrl: settings.SVC_BASE_URL!,
    controlUrl: settings.SVC_CONTROL_URL,
    controlToken: settings.SVC_CONTROL_TOKEN,
    svcToken: settings.SVC_TOKEN,
    embeddedReference: false,
    network: networkOf(settings),
    stop: async () => undefined,
  };
}

async function startEmbeddedReference(embedded: EmbeddedOptions): Promise<ResolvedTarget> {
  // What it plays, from the REFERENCE_* settings; where it listens and its token are the run's.
  const { personality, outboundHost, network, tls, maxTimeScale } = loadReferenceSettings().options;
  // Loaded on demand: a run against another implementation never loads the reference.
  const { startReference } = await import('../../reference/index.js');
  const reference = await startReference({
    quiet: true,
    ...(embedded.deliveryTimeoutMs !== undefined ? { deliveryTimeoutMs: embedded.deliveryTimeoutMs } : {}),
    personality,
    // The reference as a service on another machine (npm run certify:remote).
    outboundHost,
    // A staging service across a real network (latency, rate limit, resets, TLS) or with a
    // slower clock than the reference's 3600 (npm run certify:slow-clock).
    network,
    tls,
    maxTimeScale,
  });
  registerSecret(reference.controlToken);
  return {
    baseUrl: reference.baseUrl,
    controlUrl: reference.controlUrl,
    controlToken: reference.controlToken,
    embeddedReference: true,
    network: { insecureTls: true },
    stop: () => reference.close(),
  };
}

/**
 * SVC_IMAGE: the image started with testcontainers (./container.ts). The container reaches
 * the host at the engine's bridge gateway, so the receiver listens there, is called by
 * `host.containers.internal`, and its certificate (made here, before the container starts,
 * so it can be copied in) names both.
 */
async function startImageTarget(settings: Settings): Promise<ResolvedTarget> {
  const { bridgeGateway, CONTAINER_HOST_ALIAS, freePort, startImage } = await import('./container.js');
  registerSecret(settings.SVC_IMAGE_CONTROL_TOKEN);
  const gateway = await bridgeGateway();
  const host = settings.RECEIVER_HOST ?? gateway;
  const publicHost = settings.RECEIVER_PUBLIC_URL
    ? new URL(settings.RECEIVER_PUBLIC_URL).hostname
    : CONTAINER_HOST_ALIAS;
  const tlsDir = await mkdtemp(join(tmpdir(), 'certify-image-'));
  const removeTlsDir = () => rm(tlsDir, { recursive: true, force: true });
  try {
    const tls =
      settings.RECEIVER_TLS_CERT && settings.RECEIVER_TLS_KEY
        ? { certPath: settings.RECEIVER_TLS_CERT, keyPath: settings.RECEIVER_TLS_KEY }
        : await createSelfSignedCertificate({
            hosts: [...new Set(['127.0.0.1', 'localhost', gateway, host, CONTAINER_HOST_ALIAS, publicHost])],
            dir: tlsDir,
          });
    const started = await startImage({
      image: settings.SVC_IMAGE!,
      apiPort: settings.SVC_IMAGE_API_PORT,
      controlPort: settings.SVC_IMAGE_CONTROL_PORT ?? settings.SVC_IMAGE_API_PORT,
      controlPath: settings.SVC_IMAGE_CONTROL_PATH,
      ...(settings.SVC_IMAGE_CONTROL_TOKEN ? { controlToken: settings.SVC_IMAGE_CONTROL_TOKEN } : {}),
      env: settings.SVC_IMAGE_ENV,
      startupTimeoutMs: settings.SVC_IMAGE_STARTUP_TIMEOUT_MS,
      receiverCertPem: await readFile(tls.certPath, 'utf8'),
    });
    registerSecret(started.controlToken);
    // The engine brings its bridge (the gateway address) up with the first container, so
    // the receiver's port is chosen only now.
    let port: number;
    try {
      port = settings.RECEIVER_PORT || (await freePort(host));
    } catch (error) {
      await started.stop();
      throw new RunAbort(`the receiver cannot listen on ${host} (${(error as Error).message}); check RECEIVER_HOST`);
    }
    const publicUrl = settings.RECEIVER_PUBLIC_URL ?? `https://${CONTAINER_HOST_ALIAS}:${port}`;
    return {
      baseUrl: started.baseUrl,
      controlUrl: started.controlUrl,
      controlToken: started.controlToken,
      embeddedReference: false,
      ...(started.image ? { image: started.image } : {}),
      network: networkOf(settings),
      receiver: { host, port, publicUrl, ...tls },
      // The identity provider is reached like the receiver: on the gateway, by the host alias.
      idp: { host: settings.IDP_HOST ?? gateway, publicHost: CONTAINER_HOST_ALIAS },
      stop: async () => {
        await started.stop();
        await removeTlsDir();
      },
    };
  } catch (error) {
    await removeTlsDir();
    throw error;
  }
}

/** Which settings to look at when the target cannot be reached. */
export function unreachableHint(baseUrl: string, error: unknown): string {
  const causeCode = error instanceof HttpError ? error.causeCode : undefined;
  if (isCertificateRefusal(causeCode))
    return 'check SVC_CA_CERT (the certificate authorities its certificate is trusted by)';
  const tls = baseUrl.startsWith('https:')
    ? '; a target that requires a client certificate closes the connection without one: check SVC_CLIENT_CERT and SVC_CLIENT_KEY'
    : '';
  const proxies = proxySettings();
  const proxy =
    proxies.httpProxy || proxies.httpsProxy
      ? '; requests go through the proxy in HTTP(S)_PROXY (NO_PROXY to bypass it)'
      : '';
  return `check SVC_BASE_URL${tls}${proxy}`;
}

async function probe(target: ResolvedTarget, allowProduction: boolean): Promise<void> {
  const http = new HttpClient(target.baseUrl, { ...target.network, timeoutMs: PROBE_TIMEOUT_MS, paced: false });
  try {
    await http.request({ path: '/v1/whoami' });
  } catch (error) {
    throw new RunAbort(
      `target unreachable: ${target.baseUrl} (${(error as Error).message}); ${unreachableHint(target.baseUrl, error)}`,
    );
  } finally {
    await http.close();
  }
  if (target.svcToken?.startsWith('svc_live_') && !allowProduction) {
    throw new RunAbort('SVC_TOKEN is a production (svc_live_) token; certify staging, or pass --allow-production');
  }
  if (!target.controlUrl || !target.controlToken) return;
  const control = new ControlClient(target.controlUrl, target.controlToken, {
    timeoutMs: PROBE_TIMEOUT_MS,
    network: target.network,
  });
  try {
    const capabilities = await control.capabilities();
    if (String(capabilities.contract) !== String(CONTROL_CONTRACT.version)) {
      throw new RunAbort(
        `control interface speaks contract ${String(capabilities.contract)}, this harness contract ${CONTROL_CONTRACT.version}`,
      );
    }
    target.environment = capabilities.environment;
  } catch (error) {
    if (error instanceof RunAbort) throw error;
    throw new RunAbort(
      `control interface unusable at ${target.controlUrl}: ${(error as Error).message}; check SVC_CONTROL_URL and SVC_CONTROL_TOKEN`,
    );
  } finally {
    await control.close();
  }
  if (target.environment === 'production' && !allowProduction) {
    throw new RunAbort(
      'the control interface reports a production environment; certify staging, or pass --allow-production',
    );
  }
}
