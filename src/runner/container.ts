/**
 * The target as a container image (`SVC_IMAGE`): started with testcontainers on the engine
 * DOCKER_HOST names (podman's Docker-compatible socket from `npm run engine`, or Docker),
 * waited for on the control interface's `/capabilities`, stopped and removed at the end.
 *
 * What the container is given (the image contract, README.md, "Certify your image"):
 * - CERTIFY_CONTROL_TOKEN: the control token (SVC_IMAGE_CONTROL_TOKEN, or random per run);
 * - CERTIFY_BASE_URL: the base URL the harness calls it by (through the port mapping), for
 *   URLs the service hands out (transcript_url);
 * - CERTIFY_RECEIVER_CA and NODE_EXTRA_CA_CERTS: a PEM file in the container holding the
 *   capturing receiver's certificate, so deliveries to it can be verified;
 * - `host.containers.internal`: the host, where the receiver listens;
 * - SVC_IMAGE_ENV, last, so it can override any of these.
 * Ryuk (testcontainers' reaper) cannot be pulled everywhere, so this module removes its
 * container itself: at the end, on a failed start, and on SIGINT/SIGTERM outside the suites.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import type { Readable } from 'node:stream';
import { GenericContainer, getContainerRuntimeClient, Wait, type StartedTestContainer } from 'testcontainers';
import { RunAbort } from '../errors.js';
import type { ImageProvenance } from '../report/provenance.js';

/** Every container the harness starts carries this label (the tests look for leftovers by it). */
export const CONTAINER_LABEL = 'svc-conformance.certify';
export const CONTAINER_HOST_ALIAS = 'host.containers.internal';
const CA_PATH_IN_CONTAINER = '/certify/receiver-ca.pem';
const LOG_LINES_KEPT = 20;

export interface ImageTargetOptions {
  image: string;
  apiPort: number;
  controlPort: number;
  /** Path of the control interface on controlPort, e.g. /_control. */
  controlPath: string;
  controlToken?: string;
  env: Record<string, string>;
  startupTimeoutMs: number;
  /** PEM of the receiver's certificate, copied into the container. */
  receiverCertPem: string;
}

export interface StartedImage {
  baseUrl: string;
  controlUrl: string;
  controlToken: string;
  containerId: string;
  /** What was started, by digest, for the reports' provenance; absent when the engine would not say. */
  image?: ImageProvenance;
  /** Stops and removes the container; safe to call more than once. */
  stop(): Promise<void>;
}

/** The address of the engine's default bridge network on the host: the container reaches the host there. */
export async function bridgeGateway(): Promise<string> {
  const client = await engine();
  try {
    const network = (await client.network.getById('bridge').inspect()) as {
      IPAM?: { Config?: Array<{ Gateway?: string }> };
    };
    const gateway = network.IPAM?.Config?.find((config) => config.Gateway)?.Gateway;
    if (gateway) return gateway.replace(/\/\d+$/, '');
  } catch (error) {
    throw new RunAbort(`SVC_IMAGE: cannot read the engine's bridge network (${(error as Error).message})`);
  }
  throw new RunAbort(
    "SVC_IMAGE: the engine's bridge network has no gateway address, so the container could not reach the receiver",
  );
}

/** A free TCP port on the given address (for the receiver, whose public URL must name it in advance). */
export function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function engine() {
  try {
    return await getContainerRuntimeClient();
  } catch (error) {
    const where = process.env.DOCKER_HOST ? `DOCKER_HOST=${process.env.DOCKER_HOST}` : 'no DOCKER_HOST set';
    throw new RunAbort(
      `SVC_IMAGE needs a container engine and none is reachable (${where}: ${firstLine((error as Error).message)}); start one with \`npm run engine\` and export the DOCKER_HOST it prints`,
    );
  }
}

export async function startImage(options: ImageTargetOptions): Promise<StartedImage> {
  const client = await engine();
  const controlToken = options.controlToken ?? 'ctl_' + randomBytes(24).toString('base64url');
  const logs: string[] = [];
  const runLabel = randomBytes(8).toString('hex');
  const controlPath = options.controlPath.replace(/\/+$/, '');
  // Host ports chosen here rather than by the engine, so the service can be told its URL.
  const bindings = new Map<number, number>();
  for (const port of [options.apiPort, options.controlPort])
    if (!bindings.has(port)) bindings.set(port, await freePort('127.0.0.1'));
  const host = client.info.containerRuntime.host;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const baseUrl = `http://${urlHost}:${bindings.get(options.apiPort)!}`;
  const container = new GenericContainer(options.image)
    .withExposedPorts(...[...bindings].map(([container, hostPort]) => ({ container, host: hostPort })))
    .withLabels({ [CONTAINER_LABEL]: 'true', [`${CONTAINER_LABEL}.run`]: runLabel })
    .withExtraHosts([{ host: CONTAINER_HOST_ALIAS, ipAddress: await bridgeGateway() }])
    .withCopyContentToContainer([{ content: options.receiverCertPem, target: CA_PATH_IN_CONTAINER, mode: 0o644 }])
    .withEnvironment({
      CERTIFY_CONTROL_TOKEN: controlToken,
      CERTIFY_BASE_URL: baseUrl,
      CERTIFY_RECEIVER_CA: CA_PATH_IN_CONTAINER,
      NODE_EXTRA_CA_CERTS: CA_PATH_IN_CONTAINER,
      ...options.env,
    })
    .withLogConsumer((stream: Readable) => keepLastLines(stream, logs))
    .withWaitStrategy(
      // Not testcontainers' abortOnContainerExit: under podman its log read never ends and the
      // process ran out of work and exited 0; exitWatch below does that job.
      Wait.forHttp(`${controlPath}/capabilities`, options.controlPort)
        .withHeaders({ Authorization: `Bearer ${controlToken}` })
        .forStatusCode(200),
    )
    .withStartupTimeout(options.startupTimeoutMs);

  const started = performance.now();
  const interrupted = watchSignalsDuringStart();
  let running: StartedTestContainer;
  const exited = exitWatch(runLabel);
  try {
    running = await Promise.race([container.start(), exited.promise]);
  } catch (error) {
    exited.dispose();
    interrupted.dispose();
    // testcontainers removes a container that never became ready; one that could not be
    // created at all (unknown image) leaves nothing either.
    await removeByRunLabel(runLabel);
    if (interrupted.signal) process.exit(130);
    const tail =
      logs.length > 0 ? `; last log lines: ${logs.slice(-5).join(' | ')}` : '; the container wrote no log line';
    throw new RunAbort(
      `SVC_IMAGE ${options.image} did not become ready (start-up time-out SVC_IMAGE_STARTUP_TIMEOUT_MS=${options.startupTimeoutMs}): ${firstLine((error as Error).message)}${tail}`,
    );
  }
  exited.dispose();
  interrupted.dispose();
  const startMs = Math.round(performance.now() - started);

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      for (const signal of SIGNALS) process.off(signal, onSignal);
      await running.stop({ remove: true, removeVolumes: true, timeout: 5_000 }).catch(() => removeByRunLabel(runLabel));
    })();
    return stopping;
  };
  // Outside the suites (whose runner owns SIGINT/SIGTERM and then calls stop()), a signal
  // would otherwise end the process with the container still running.
  const onSignal = (signal: NodeJS.Signals) => {
    if (process.listenerCount(signal) > 1) return;
    process.stderr.write(`certify: ${signal}: stopping the container of ${options.image}\n`);
    void stop().finally(() => process.exit(130));
  };
  if (interrupted.signal) {
    await stop();
    process.exit(130);
  }
  for (const signal of SIGNALS) process.on(signal, onSignal);

  process.stderr.write(
    `certify: started ${options.image} (container ${running.getId().slice(0, 12)}) in ${startMs} ms\n`,
  );
  const image = await imageProvenance(options.image, running.getId());
  return {
    ...(image ? { image } : {}),
    baseUrl,
    controlUrl: `http://${urlHost}:${running.getMappedPort(options.controlPort)}${controlPath}`,
    controlToken,
    containerId: running.getId(),
    stop,
  };
}

/**
 * The image the container runs, by the id the engine gives it (the digest of its
 * configuration: the same bytes under any tag), and its registry digests when known.
 */
async function imageProvenance(reference: string, containerId: string): Promise<ImageProvenance | undefined> {
  try {
    const dockerode = (await getContainerRuntimeClient()).container.dockerode;
    const { Image: id } = await dockerode.getContainer(containerId).inspect();
    // Docker says sha256:<hex>; an engine that gives the bare hex means the same digest.
    const digest = /^[0-9a-f]{64}$/.test(id) ? `sha256:${id}` : id;
    if (!/^sha256:[0-9a-f]{64}$/.test(digest)) return undefined;
    const { RepoDigests } = await dockerode.getImage(digest).inspect();
    return { reference, digest, ...(RepoDigests?.length ? { repo_digests: RepoDigests } : {}) };
  } catch (error) {
    process.stderr.write(
      `certify: the engine did not give the digest of ${reference} (${firstLine((error as Error).message)}); the reports name it by reference only\n`,
    );
    return undefined;
  }
}

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** While the container starts, a signal is noted (and the container removed once start settles). */
function watchSignalsDuringStart(): { signal?: NodeJS.Signals; dispose(): void } {
  const state: { signal?: NodeJS.Signals; dispose(): void } = {
    dispose: () => {
      for (const signal of SIGNALS) process.off(signal, note);
    },
  };
  const note = (signal: NodeJS.Signals) => {
    state.signal ??= signal;
    process.stderr.write(`certify: ${signal}: removing the container once its start settles\n`);
  };
  for (const signal of SIGNALS) process.on(signal, note);
  return state;
}

/** Rejects when the container of this run has exited (a crash at start), polling its state. */
function exitWatch(runLabel: string): { promise: Promise<never>; dispose(): void } {
  let timer: NodeJS.Timeout | undefined;
  let disposed = false;
  const promise = new Promise<never>((_, reject) => {
    const poll = async () => {
      try {
        const client = await getContainerRuntimeClient();
        const found = await client.container.dockerode.listContainers({
          all: true,
          filters: { label: [`${CONTAINER_LABEL}.run=${runLabel}`] },
        });
        const dead = found.find((info) => info.State === 'exited' || info.State === 'dead');
        if (dead && !disposed) return reject(new Error(`the container exited during start-up (${dead.Status})`));
      } catch {
        // the engine hiccuped; the start-up time-out still bounds the wait
      }
      if (!disposed) timer = setTimeout(() => void poll(), 500);
    };
    timer = setTimeout(() => void poll(), 500);
  });
  promise.catch(() => undefined);
  return {
    promise,
    dispose: () => {
      disposed = true;
      clearTimeout(timer);
    },
  };
}

/** Removes any container of this run (by its label), ignoring errors: a last-resort clean-up. */
async function removeByRunLabel(runLabel: string): Promise<void> {
  try {
    const client = await getContainerRuntimeClient();
    const dockerode = client.container.dockerode;
    const leftovers = await dockerode.listContainers({
      all: true,
      filters: { label: [`${CONTAINER_LABEL}.run=${runLabel}`] },
    });
    await Promise.all(
      leftovers.map((info) =>
        dockerode
          .getContainer(info.Id)
          .remove({ force: true, v: true })
          .catch(() => undefined),
      ),
    );
  } catch {
    // nothing more can be done; the tests look for leftovers by CONTAINER_LABEL
  }
}

function keepLastLines(stream: Readable, lines: string[]): void {
  let partial = '';
  stream.on('data', (chunk: Buffer | string) => {
    const text = partial + chunk.toString();
    const parts = text.split('\n');
    partial = parts.pop() ?? '';
    for (const line of parts) if (line.trim() !== '') lines.push(line.trim());
    if (lines.length > LOG_LINES_KEPT) lines.splice(0, lines.length - LOG_LINES_KEPT);
  });
  stream.on('error', () => undefined);
}

function firstLine(text: string): string {
  return text.split('\n')[0]!.trim();
}
