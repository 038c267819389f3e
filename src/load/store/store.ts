/**
 * The metrics store of a run (Prometheus, or anything that takes its remote write): where
 * k6's own series go and where the harness writes each scenario's verdict and figures
 * (series.ts). It is `--prometheus-rw <url>`, else LOAD_PROMETHEUS_RW_URL, else, when the k6
 * options after `--` already send k6's samples there (`--out experimental-prometheus-rw`),
 * the store k6 writes to: K6_PROMETHEUS_RW_SERVER_URL, or k6's default. Credentials are
 * k6's too (K6_PROMETHEUS_RW_BEARER_TOKEN, or K6_PROMETHEUS_RW_USERNAME and _PASSWORD, or
 * user:password in the URL), so one set serves both writers.
 *
 * A write that fails is reported and changes no verdict, as k6 does with its own output.
 */
import { UsageError } from '../../errors.js';
import { mask, registerSecret } from '../../secrets/mask.js';
import { PROMETHEUS_RW_OUTPUT, type K6Options } from '../k6/options.js';
import { log } from '../log.js';
import { remoteWrite, type RemoteWriteTarget, type TimeSeries, type WriteOptions } from './remote-write.js';

/** Where k6's remote-write output writes when K6_PROMETHEUS_RW_SERVER_URL is not set. */
export const K6_DEFAULT_RW_URL = 'http://localhost:9090/api/v1/write';

export interface MetricsStore extends RemoteWriteTarget {
  /** Where the URL came from, for the log. */
  source: string;
  /** What k6 gets to write there too (`load` only): its output and the environment naming the store. */
  k6: { args: string[]; env: Record<string, string> };
}

/** `url` as a remote-write target: http or https, credentials moved to a header (fetch refuses them in a URL). */
export function storeTarget(
  url: string,
  env: NodeJS.ProcessEnv = process.env,
  what = '--prometheus-rw',
): RemoteWriteTarget & { username?: string; password?: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(
      `${what}: ${JSON.stringify(mask(url))} is not a URL (e.g. http://prometheus:9090/api/v1/write)`,
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new UsageError(`${what}: ${mask(url)} is not an http or https URL`);
  const username = parsed.username ? decodeURIComponent(parsed.username) : env.K6_PROMETHEUS_RW_USERNAME;
  const password = parsed.password ? decodeURIComponent(parsed.password) : env.K6_PROMETHEUS_RW_PASSWORD;
  parsed.username = '';
  parsed.password = '';
  const bearer = env.K6_PROMETHEUS_RW_BEARER_TOKEN;
  registerSecret(password);
  registerSecret(bearer);
  const headers: Record<string, string> = {};
  if (bearer) headers.Authorization = `Bearer ${bearer}`;
  else if (username !== undefined && username !== '')
    headers.Authorization = `Basic ${Buffer.from(`${username}:${password ?? ''}`).toString('base64')}`;
  if (headers.Authorization) registerSecret(headers.Authorization);
  return { url: parsed.toString(), headers, ...(username ? { username } : {}), ...(password ? { password } : {}) };
}

export interface StoreChoice {
  /** --prometheus-rw */
  flag?: string;
  /** LOAD_PROMETHEUS_RW_URL */
  setting?: string;
  /** The k6 options after `--` (load only). */
  k6Options?: K6Options;
  env?: NodeJS.ProcessEnv;
}

/** The run's store, or undefined when it has none. */
export function chooseStore(choice: StoreChoice): MetricsStore | undefined {
  const env = choice.env ?? process.env;
  const k6Writes = choice.k6Options?.outputs.includes(PROMETHEUS_RW_OUTPUT) ?? false;
  const [url, source] =
    choice.flag !== undefined
      ? [choice.flag, '--prometheus-rw']
      : choice.setting !== undefined
        ? [choice.setting, 'LOAD_PROMETHEUS_RW_URL']
        : k6Writes
          ? [
              env.K6_PROMETHEUS_RW_SERVER_URL || K6_DEFAULT_RW_URL,
              env.K6_PROMETHEUS_RW_SERVER_URL ? 'K6_PROMETHEUS_RW_SERVER_URL' : "k6's default",
            ]
          : [undefined, ''];
  if (url === undefined) return undefined;
  const target = storeTarget(url, env, source);
  // k6 writes where the harness does: the same URL (credentials apart) and the same credentials.
  const k6Env: Record<string, string> = {
    K6_PROMETHEUS_RW_SERVER_URL: target.url,
    ...(target.username !== undefined && !env.K6_PROMETHEUS_RW_BEARER_TOKEN
      ? { K6_PROMETHEUS_RW_USERNAME: target.username, K6_PROMETHEUS_RW_PASSWORD: target.password ?? '' }
      : {}),
  };
  return {
    url: target.url,
    headers: target.headers ?? {},
    source,
    k6: { args: k6Writes ? [] : ['--out', PROMETHEUS_RW_OUTPUT], env: k6Env },
  };
}

/** Writes `series` to the store and says so; a failure is logged, never thrown: the verdict stands. */
export async function publish(
  store: MetricsStore,
  what: string,
  series: readonly TimeSeries[],
  options?: WriteOptions,
): Promise<boolean> {
  if (series.length === 0) return true;
  const started = Date.now();
  try {
    await remoteWrite(store, series, options);
    log(`  ${what}: ${series.length} series written to ${store.url} in ${Date.now() - started} ms`);
    return true;
  } catch (error) {
    log(`  ${what}: NOT written to the metrics store: ${mask((error as Error).message)}`);
    return false;
  }
}
