/**
 * The connection side of the harness's requests to a target: proxies (HTTP_PROXY, HTTPS_PROXY,
 * NO_PROXY, through undici's EnvHttpProxyAgent), certificate authorities trusted besides the
 * system's (SVC_CA_CERT) and a client certificate for mutual TLS (SVC_CLIENT_CERT/KEY). The
 * same options reach the target directly and through a proxy's tunnel.
 */
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { Agent, EnvHttpProxyAgent, type Dispatcher } from 'undici';

export interface NetworkOptions {
  /** PEM file of certificate authorities to trust besides the system's. */
  caCertPath?: string;
  /** PEM client certificate and key, for targets that ask for one. */
  clientCertPath?: string;
  clientKeyPath?: string;
  /** Accept any certificate (the embedded reference on loopback only). */
  insecureTls?: boolean;
  /** Where the proxy variables are read from (default process.env). */
  env?: NodeJS.ProcessEnv;
}

export interface TlsOptions {
  rejectUnauthorized: boolean;
  ca?: string[];
  cert?: Buffer;
  key?: Buffer;
}

/** The TLS options of every connection: read once, so a missing file fails at start, not per request. */
export function tlsOptions(options: NetworkOptions): TlsOptions {
  const tls: TlsOptions = { rejectUnauthorized: !options.insecureTls };
  // Node's `ca` replaces the system's list: keep it, and add the target's authorities.
  if (options.caCertPath) tls.ca = [...rootCertificates, readFileSync(options.caCertPath, 'utf8')];
  if (options.clientCertPath) tls.cert = readFileSync(options.clientCertPath);
  if (options.clientKeyPath) tls.key = readFileSync(options.clientKeyPath);
  return tls;
}

/** The proxy settings in effect, from the usual variables (either case). */
export function proxySettings(env: NodeJS.ProcessEnv = process.env): {
  httpProxy?: string;
  httpsProxy?: string;
  noProxy?: string;
} {
  const pick = (name: string) => env[name.toLowerCase()] || env[name] || undefined;
  const settings: { httpProxy?: string; httpsProxy?: string; noProxy?: string } = {};
  const httpProxy = pick('HTTP_PROXY');
  const httpsProxy = pick('HTTPS_PROXY');
  const noProxy = pick('NO_PROXY');
  if (httpProxy) settings.httpProxy = httpProxy;
  if (httpsProxy) settings.httpsProxy = httpsProxy;
  if (noProxy) settings.noProxy = noProxy;
  return settings;
}

/**
 * A connection pool for a target. HTTP/1.1 only: undici 8 speaks HTTP/2 wherever TLS offers
 * it, and the checks are written against HTTP/1.1 (a `fresh` request means a new connection,
 * and the pool's connections would become one multiplexed one).
 */
export function createDispatcher(
  tls: TlsOptions,
  env: NodeJS.ProcessEnv = process.env,
  pool: { connections?: number; keepAliveTimeout?: number; keepAliveTimeoutThreshold?: number } = {},
): Dispatcher {
  const common = { allowH2: false, ...pool, connect: tls };
  const proxies = proxySettings(env);
  if (!proxies.httpProxy && !proxies.httpsProxy) return new Agent(common);
  // Given explicitly (an empty string is "none"), so that `env` is the one source, as in tests.
  return new EnvHttpProxyAgent({
    ...common,
    requestTls: tls,
    httpProxy: proxies.httpProxy ?? '',
    httpsProxy: proxies.httpsProxy ?? '',
    noProxy: proxies.noProxy ?? '',
  });
}
