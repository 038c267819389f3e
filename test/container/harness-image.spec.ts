/**
 * The harness as a container image (`npm run image -- harness`): one run of it certifies
 * the reference image, as a CI job would run it against staging. The two containers share
 * one network namespace, so each reaches the other on 127.0.0.1: the harness calls the
 * service on :8080, and the service calls the harness's receiver and identity provider.
 * The receiver's certificate is made here and given to both (the service trusts it through
 * NODE_EXTRA_CA_CERTS, as for `SVC_IMAGE`). Without a reachable engine every test is
 * skipped with the reason, never passed.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GenericContainer, getContainerRuntimeClient, type StartedTestContainer, Wait } from 'testcontainers';
import { engineProblem, harnessContainers } from './engine.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKS } from '../../src/catalog/checks.js';
import { readReportFile } from '../../src/report/validate.js';
import { CONTAINER_LABEL } from '../../src/runner/container.js';
import { createSelfSignedCertificate } from '../../src/tls/self-signed.js';
import { buildImage, DEFAULT_IMAGES } from '../../scripts/image.js';

const HARNESS_RUN_TIMEOUT_MS = 180_000;
/** The first fast-tier check of every suite: API, control interface, receiver and identity provider all reached from the image. */
const FIRST_OF_EACH_SUITE = [
  ...new Set(CHECKS.filter((check) => check.tier !== 'full').map((check) => check.area)),
].map((area) => CHECKS.find((check) => check.area === area && check.tier !== 'full')!.id);

let noEngine: string | undefined;

interface HarnessRun {
  exitCode: number;
  output: string;
}

/** `docker run --rm --network container:<id> -v … <harness image> <args>`, bounded in time. */
async function runHarness(
  image: string,
  args: string[],
  options: { networkOf?: string; env?: Record<string, string>; binds?: string[]; entrypoint?: string[] },
): Promise<HarnessRun> {
  const dockerode = (await getContainerRuntimeClient()).container.dockerode;
  const container = await dockerode.createContainer({
    Image: image,
    Cmd: args,
    ...(options.entrypoint ? { Entrypoint: options.entrypoint } : {}),
    Env: Object.entries(options.env ?? {}).map(([name, value]) => `${name}=${value}`),
    Labels: { [CONTAINER_LABEL]: 'true' },
    HostConfig: {
      ...(options.networkOf ? { NetworkMode: `container:${options.networkOf}` } : {}),
      Binds: options.binds ?? [],
    },
  });
  try {
    await container.start();
    const timer = setTimeout(() => void container.kill().catch(() => undefined), HARNESS_RUN_TIMEOUT_MS);
    const { StatusCode } = (await container.wait()) as { StatusCode: number };
    clearTimeout(timer);
    const logs = await container.logs({ stdout: true, stderr: true, follow: false });
    return { exitCode: StatusCode, output: demultiplex(logs) };
  } finally {
    await container.remove({ force: true, v: true }).catch(() => undefined);
  }
}

/** Docker's log stream: 8-byte frame headers (stream, 0, 0, 0, length) before each chunk. */
function demultiplex(raw: Buffer): string {
  const parts: Buffer[] = [];
  let at = 0;
  while (at + 8 <= raw.length) {
    const length = raw.readUInt32BE(at + 4);
    parts.push(raw.subarray(at + 8, at + 8 + length));
    at += 8 + length;
  }
  return at === raw.length ? Buffer.concat(parts).toString('utf8') : raw.toString('utf8');
}

describe('the harness image', () => {
  const images = { ...DEFAULT_IMAGES };
  const workDir = mkdtempSync(join(tmpdir(), 'harness-image-'));
  let reference: StartedTestContainer | undefined;

  beforeAll(async () => {
    noEngine = await engineProblem();
    if (noEngine) {
      process.stderr.write(`test/container: skipped: ${noEngine}\n`);
      return;
    }
    images.reference = await buildImage(DEFAULT_IMAGES.reference, () => undefined, 'reference');
    images.harness = await buildImage(DEFAULT_IMAGES.harness, () => undefined, 'harness');
    const client = await getContainerRuntimeClient();
    const { Size } = (await client.container.dockerode.getImage(images.harness).inspect()) as { Size: number };
    process.stderr.write(`test/container: ${images.harness} is ${(Size / 1e6).toFixed(0)} MB\n`);
  });

  afterAll(async () => {
    await reference?.stop({ remove: true, removeVolumes: true, timeout: 5_000 }).catch(() => undefined);
    rmSync(workDir, { recursive: true, force: true });
  });

  it('answers --help with the certify usage, settings and exit codes', async (t) => {
    if (noEngine) return t.skip(noEngine);
    const run = await runHarness(images.harness, ['certify', '--help'], {});
    expect(run.exitCode, run.output).toBe(0);
    expect(run.output).toMatch(/^usage: svc-harness certify/);
    expect(run.output).toContain('SVC_BASE_URL');
    expect(run.output).toContain('exit codes:');
  });

  it('starts from the bundle the package was packed with, not from the sources', async (t) => {
    if (noEngine) return t.skip(noEngine);
    const probe =
      "import('/app/src/install/bundles.js').then((m) => console.log('packaged bundle: ' + (m.packagedBundle() ?? 'none')))";
    const run = await runHarness(images.harness, ['--input-type=module', '--eval', probe], {
      entrypoint: ['/usr/bin/node'],
    });
    expect(run.exitCode, run.output).toBe(0);
    expect(run.output.trim()).toBe('packaged bundle: /app/dist/main.mjs');
  });

  it('certifies the reference image in one run, writes a report that conforms to the schema, and leaves no container', async (t) => {
    if (noEngine) return t.skip(noEngine);
    const controlToken = `ctl_fake_${randomBytes(12).toString('hex')}`;
    const certs = join(workDir, 'certs');
    const reports = join(workDir, 'reports');
    const tls = await createSelfSignedCertificate({ hosts: ['127.0.0.1'], dir: mkdtempSync(join(workDir, 'tls-')) });
    for (const dir of [certs, reports]) {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir);
    }
    // The image runs as nobody: the (throw-away) key must be readable, the report folder writable.
    writeFileSync(join(certs, 'cert.pem'), tls.cert, { mode: 0o644 });
    writeFileSync(join(certs, 'key.pem'), tls.key, { mode: 0o644 });
    chmodSync(certs, 0o755);
    chmodSync(reports, 0o777);

    reference = await new GenericContainer(images.reference)
      .withLabels({ [CONTAINER_LABEL]: 'true' })
      .withExposedPorts(8080)
      .withCopyContentToContainer([{ content: tls.cert, target: '/certify/receiver-ca.pem', mode: 0o644 }])
      .withEnvironment({
        CERTIFY_CONTROL_TOKEN: controlToken,
        CERTIFY_BASE_URL: 'http://127.0.0.1:8080',
        CERTIFY_RECEIVER_CA: '/certify/receiver-ca.pem',
        NODE_EXTRA_CA_CERTS: '/certify/receiver-ca.pem',
      })
      .withWaitStrategy(
        Wait.forHttp('/_control/capabilities', 8080)
          .withHeaders({ Authorization: `Bearer ${controlToken}` })
          .forStatusCode(200),
      )
      .withStartupTimeout(60_000)
      .start();

    const run = await runHarness(images.harness, ['certify'], {
      networkOf: reference.getId(),
      env: {
        SVC_BASE_URL: 'http://127.0.0.1:8080',
        SVC_CONTROL_URL: 'http://127.0.0.1:8080/_control',
        SVC_CONTROL_TOKEN: controlToken,
        RECEIVER_TLS_CERT: '/certs/cert.pem',
        RECEIVER_TLS_KEY: '/certs/key.pem',
        CERTIFY_CHECKS: FIRST_OF_EACH_SUITE.join(','),
      },
      binds: [`${certs}:/certs:ro`, `${reports}:/work/reports:rw`],
    });
    expect(run.exitCode, run.output.slice(-3000)).toBe(0);
    expect(run.output).not.toContain(controlToken);

    const report = readReportFile(join(reports, 'report.json'));
    expect(report.target).toEqual({ base_url: 'http://127.0.0.1:8080', embedded_reference: false });
    expect(report.checks.map((check) => check.id).sort()).toEqual([...FIRST_OF_EACH_SUITE].sort());
    expect(
      report.checks
        .filter((check) => check.verdict !== 'pass')
        .map((check) => `${check.id} ${check.verdict}: ${check.detail ?? ''}`),
    ).toEqual([]);

    await reference.stop({ remove: true, removeVolumes: true, timeout: 5_000 });
    reference = undefined;
    expect(await harnessContainers()).toEqual([]);
  });
});
