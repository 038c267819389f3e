/**
 * The capturing receiver of a load run, where the settings put it, or where the target needs
 * it: a container (SVC_IMAGE) reaches it at the engine's gateway with the certificate it was given.
 */
import { readFileSync } from 'node:fs';
import type { Settings } from '../config/settings.js';
import { CapturingReceiver } from '../receiver/index.js';
import type { ResolvedTarget } from '../runner/target.js';

export async function startReceiver(settings: Settings, placement: ResolvedTarget['receiver']): Promise<CapturingReceiver> {
  const certPath = placement?.certPath ?? settings.RECEIVER_TLS_CERT;
  const keyPath = placement?.keyPath ?? settings.RECEIVER_TLS_KEY;
  const tls = certPath && keyPath ? { cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8') } : undefined;
  const publicUrl = placement?.publicUrl ?? settings.RECEIVER_PUBLIC_URL;
  return CapturingReceiver.start({
    port: placement?.port ?? settings.RECEIVER_PORT,
    ...(placement ? { host: placement.host } : {}),
    ...(publicUrl ? { publicUrl } : {}),
    ...(tls ? { tls } : {}),
    // The monitor listens to every delivery; the receiver need not keep many bodies.
    maxDeliveriesPerEndpoint: 100,
    requestTimeoutMs: 30_000,
  });
}
