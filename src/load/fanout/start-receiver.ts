/**
 * The capturing receiver of a load run, where the settings put it, or where the target needs
 * it: a container (SVC_IMAGE) reaches it at the engine's gateway with the certificate it was given.
 */
import { readFileSync } from 'node:fs';
import type { Settings } from '../../config/settings.js';
import { CapturingReceiver, type ReceiverOptions } from '../../capturing-receiver/index.js';
import type { ResolvedTarget } from '../../runner/target.js';
import { ReceiverPool } from './receiver-pool.js';

/** Bodies a load run's receiver keeps per endpoint: the fan-out tally listens to every delivery as it settles. */
export const LOAD_RECEIVER_KEPT_DELIVERIES = 100;

export async function startReceiver(
  settings: Settings,
  placement: ResolvedTarget['receiver'],
): Promise<CapturingReceiver> {
  return CapturingReceiver.start(receiverOptions(settings, placement));
}

/** `workers` receiver processes on the one port the settings give (LOAD_RECEIVER_WORKERS). */
export async function startReceiverPool(
  settings: Settings,
  placement: ResolvedTarget['receiver'],
  workers: number,
): Promise<ReceiverPool> {
  return ReceiverPool.start(workers, receiverOptions(settings, placement));
}

function receiverOptions(settings: Settings, placement: ResolvedTarget['receiver']): ReceiverOptions {
  const certPath = placement?.certPath ?? settings.RECEIVER_TLS_CERT;
  const keyPath = placement?.keyPath ?? settings.RECEIVER_TLS_KEY;
  const tls =
    certPath && keyPath ? { cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8') } : undefined;
  const publicUrl = placement?.publicUrl ?? settings.RECEIVER_PUBLIC_URL;
  return {
    port: placement?.port ?? settings.RECEIVER_PORT,
    ...(placement ? { host: placement.host } : {}),
    ...(publicUrl ? { publicUrl } : {}),
    ...(tls ? { tls } : {}),
    maxDeliveriesPerEndpoint: LOAD_RECEIVER_KEPT_DELIVERIES,
    requestTimeoutMs: 30_000,
  };
}
