/**
 * `svc-harness load fanout-host`: the harness's side of a fan-out run whose runners are
 * elsewhere (load/k8s/testrun-fanout.yaml). It starts the capturing receivers where the
 * service can reach them (RECEIVER_HOST, RECEIVER_PUBLIC_URL, LOAD_RECEIVER_WORKERS), makes
 * the fan-out workspace and its endpoints through the control interface, writes the Secret
 * the runners read (mode 600, never printed), and records every arrival to a file until it
 * is stopped (SIGINT, SIGTERM, or `--for`). `svc-harness load merge fanout <samples…>
 * <arrivals>` then judges the runners' samples and the arrivals together.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseLoadSettings, type LoadSettings } from '../../config/load-settings.js';
import { SPEC_RECEIVER_TIMEOUT_MS } from '../../config/receiver-settings.js';
import { loadSettings, readSettingSources } from '../../config/settings.js';
import { RunAbort } from '../../errors.js';
import { resolveTarget } from '../../runner/target.js';
import { registerSecret } from '../../secrets/mask.js';
import { ArrivalRecorder } from '../fanout/arrivals.js';
import { newRunContext } from '../context.js';
import { log } from '../log.js';
import { setUpFanout } from '../prepare/fanout.js';
import { secretManifest } from './k8s-manifests.js';

export interface FanoutHostOptions {
  /** Where the arrivals go. */
  arrivalsPath: string;
  /** Where the runners' Secret goes, and its name (the TestRun's envFrom). */
  secretPath: string;
  secretName: string;
  /** Stop by itself after this long; otherwise only on SIGINT or SIGTERM. */
  forMs?: number;
  allowProduction: boolean;
}

export interface HostedFanout {
  recorded: number;
  dropped: number;
}

/** Runs the host until stopped; returns what it recorded. Throws RunAbort when it cannot start. */
export async function hostFanout(options: FanoutHostOptions): Promise<HostedFanout> {
  const settings = loadSettings();
  const load: LoadSettings = parseLoadSettings(readSettingSources());
  const target = await resolveTarget(
    settings,
    options.allowProduction || load.LOAD_ALLOW_PRODUCTION || settings.CERTIFY_ALLOW_PRODUCTION,
    { deliveryTimeoutMs: SPEC_RECEIVER_TIMEOUT_MS },
  );
  const ctx = newRunContext(target, settings, load);
  try {
    log(`target ${target.baseUrl}${target.embeddedReference ? ' (embedded reference, on this machine only)' : ''}`);
    const setup = await setUpFanout(ctx, 'fanout');
    if (!setup)
      throw new RunAbort(
        'fanout-host needs the control interface (SVC_CONTROL_URL, SVC_CONTROL_TOKEN) to register webhook endpoints',
      );
    try {
      registerSecret(setup.env['LOAD_TOKEN']);
      const values = {
        SVC_BASE_URL: target.baseUrl,
        ...setup.env,
        ...(target.environment ? { LOAD_ENVIRONMENT: target.environment } : {}),
      };
      writeFileSync(options.secretPath, secretManifest(options.secretName, values), { mode: 0o600 });
      const recorder = await ArrivalRecorder.open(options.arrivalsPath, setup.endpointNames);
      const stopFeed = setup.feed((arrival) => recorder.record(arrival));
      log(
        `wrote Secret ${options.secretName} to ${resolve(options.secretPath)} (mode 600; it holds the workspace's token): kubectl apply -f ${options.secretPath}`,
      );
      log(
        `recording arrivals to ${resolve(options.arrivalsPath)} until ${options.forMs !== undefined ? `${Math.round(options.forMs / 1000)} s have passed or ` : ''}SIGINT or SIGTERM`,
      );
      await stopped(options, () =>
        log(
          `  ${recorder.recorded} arrivals recorded${recorder.dropped ? `, ${recorder.dropped} dropped (the disk fell behind)` : ''}`,
        ),
      );
      stopFeed();
      await recorder.close(setup.receiver.stats());
      log(
        `recorded ${recorder.recorded} arrivals; judge the run with: svc-harness load merge fanout <the runners' samples…> ${options.arrivalsPath}`,
      );
      return { recorded: recorder.recorded, dropped: recorder.dropped };
    } finally {
      await setup.cleanup().catch((error: Error) => log(`clean-up: ${error.message}`));
    }
  } finally {
    await ctx.control?.close().catch(() => undefined);
    await ctx.receiver?.close().catch(() => undefined);
    await target.stop().catch(() => undefined);
  }
}

const PROGRESS_EVERY_MS = 10_000;

/** Resolves on SIGINT, SIGTERM or the end of `forMs`; logs progress meanwhile. */
function stopped(options: FanoutHostOptions, progress: () => void): Promise<void> {
  return new Promise((done) => {
    const timers = [setInterval(progress, PROGRESS_EVERY_MS)];
    if (options.forMs !== undefined) timers.push(setTimeout(finish, options.forMs));
    process.once('SIGINT', finish);
    process.once('SIGTERM', finish);
    function finish(): void {
      timers.forEach(clearTimeout);
      process.off('SIGINT', finish);
      process.off('SIGTERM', finish);
      done();
    }
  });
}
