/**
 * Receivers written the usual ways on express (examples/receivers/), certified as a team
 * would certify its own: each served over HTTPS on a free loopback port with a self-signed
 * certificate, then `certify receiver` run against it in-process. The one that keeps the
 * raw body passes clean; the one that verifies JSON.stringify(req.body) fails, by the
 * checks about re-serialised bodies.
 */
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Express } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseReceiverSettings } from '../../src/config/receiver-settings.js';
import type { CheckResult, RunReport } from '../../src/report/model.js';
import { runReceiverCertification } from '../../src/receiver-cert/runner.js';
import { createSelfSignedCertificate, type SelfSignedCertificate } from '../../src/tls/self-signed.js';
import { serveHttps, type ServedApp } from '../support/serve-app.js';
import { createReceiverApp as rawBodyReceiver } from '../../examples/receivers/express-raw-body.js';
import { createReceiverApp as reserializingReceiver } from '../../examples/receivers/express-json-reserialized.js';

const SECRET = 'whsec_framework_receivers_5ecret';
/** The checks a receiver that signs JSON.stringify(parsed body) fails (as test/receiver-cert/faults.ts's reserialized-json). */
const RESERIALIZED_FAILS = [
  'RCV-ACCEPT-RAW-BODIES',
  'RCV-REJECT-RESERIALIZED-SIGNATURE',
  'RCV-REJECT-TAMPERED-BODY',
  'RCV-REPLAY-ACKNOWLEDGED',
];

let tls: SelfSignedCertificate;
const served: ServedApp[] = [];

async function serve(app: Express): Promise<ServedApp> {
  const handle = await serveHttps(app, tls);
  served.push(handle);
  return handle;
}

function certify(url: string): Promise<RunReport> {
  // Few timing rounds: the constant-time probe is observe-only, and not the point here.
  return runReceiverCertification(
    parseReceiverSettings({
      TARGET_RECEIVER_URL: url,
      TARGET_RECEIVER_SECRET: SECRET,
      TARGET_RECEIVER_TIMING_SAMPLES: '3',
    }),
  );
}

const byVerdict = (report: RunReport, ...verdicts: CheckResult['verdict'][]) =>
  report.checks.filter((c) => verdicts.includes(c.verdict));
const explain = (checks: readonly CheckResult[]) => checks.map((c) => `${c.verdict} ${c.id}: ${c.detail}`).join('\n');

beforeAll(async () => {
  tls = await createSelfSignedCertificate({ hosts: ['127.0.0.1'] });
});

afterAll(async () => {
  await Promise.all(served.map((s) => s.close()));
  if (tls) await rm(dirname(tls.certPath), { recursive: true, force: true });
});

describe('receivers on express, certified', () => {
  it('passes the receiver that verifies the raw body (express.raw): no fail, no warn, no skip', async () => {
    const receiver = await serve(rawBodyReceiver(SECRET));
    const report = await certify(receiver.url);
    expect(explain(byVerdict(report, 'fail', 'warn', 'skip', 'error'))).toBe('');
    // Idempotency is judged, not skipped: the example offers the count header.
    expect(report.checks.find((c) => c.id === 'RCV-REPLAY-PROCESSED-ONCE')?.verdict).toBe('pass');
  }, 60_000);

  it('fails the receiver that verifies JSON.stringify(req.body) (express.json) by the re-serialised body checks', async () => {
    const receiver = await serve(reserializingReceiver(SECRET));
    const report = await certify(receiver.url);
    const failing = byVerdict(report, 'fail', 'warn');
    expect(failing.map((c) => c.id).sort(), explain(failing)).toEqual([...RESERIALIZED_FAILS].sort());
    expect(failing.every((c) => c.verdict === 'fail' && c.level === 'must')).toBe(true);
  }, 60_000);
});
