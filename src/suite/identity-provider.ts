/**
 * The test identity provider's server as the suites use it: one per suite file, started on
 * first use with the run's IDP_ settings and closed when the file ends, like the receiver
 * (./webhooks.ts). Every provider of the file is a path on it, so one port (one tunnel)
 * serves them all.
 */
import { readFileSync } from 'node:fs';
import { JwksServer, type JwksServerOptions } from '../idp/index.js';
import type { RunContext } from './run-context.js';

let server: Promise<JwksServer> | undefined;

/** The server options of the run's identity-provider settings (also used by the runner's reach probe). */
export function jwksServerOptions(idp: RunContext['idp']): JwksServerOptions {
  return {
    host: idp.host,
    port: idp.port,
    ...(idp.publicUrl ? { publicUrl: idp.publicUrl } : {}),
    ...(idp.publicHost ? { publicHost: idp.publicHost } : {}),
    ...(idp.tls
      ? { tls: { cert: readFileSync(idp.tls.certPath, 'utf8'), key: readFileSync(idp.tls.keyPath, 'utf8') } }
      : {}),
  };
}

export function sharedJwksServer(run: RunContext): Promise<JwksServer> {
  server ??= JwksServer.listen(jwksServerOptions(run.idp));
  return server;
}

export async function closeSharedJwksServer(): Promise<void> {
  const closing = server;
  server = undefined;
  if (closing) await (await closing.catch(() => undefined))?.close();
}
