/**
 * A webhook receiver on express, written from the spec's Signature section the right way:
 * the HMAC is computed over the raw request bytes (`express.raw`), compared in constant
 * time after a length check, the timestamp must be within 300 s of this clock, and each
 * event `id` is processed once (replays are acknowledged, not processed again). It passes
 * `svc-harness certify receiver` with no fail and no warn
 * (test/receiver-cert/framework-receivers.test.ts).
 *
 * Run it: WEBHOOK_SECRET=… PORT=8080 npx tsx examples/receivers/express-raw-body.ts
 * (plain HTTP, for behind a TLS-terminating proxy: the service delivers to HTTPS only).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import express, { type Express } from 'express';

const TOLERANCE_SECONDS = 300;

function signatureMatches(secret: string, rawBody: Buffer, header: string | undefined): boolean {
  if (header === undefined) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(rawBody).digest('hex'), 'utf8');
  const given = Buffer.from(header, 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function timestampFresh(header: string | undefined): boolean {
  if (header === undefined || !/^\d+$/.test(header)) return false;
  return Math.abs(Date.now() / 1000 - Number(header)) <= TOLERANCE_SECONDS;
}

export function createReceiverApp(secret: string): Express {
  const app = express();
  /** Event ids already processed: a replay has the same id and is acknowledged, not processed again. */
  const processed = new Set<string>();

  app.post('/webhooks', express.raw({ type: 'application/json' }), (req, res) => {
    const rawBody: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    if (
      !signatureMatches(secret, rawBody, req.get('x-service-signature')) ||
      !timestampFresh(req.get('x-service-timestamp'))
    ) {
      res.sendStatus(401);
      return;
    }
    let id: unknown;
    try {
      id = (JSON.parse(rawBody.toString('utf8')) as { id?: unknown } | null)?.id;
    } catch {
      // unparseable: id stays undefined
    }
    if (typeof id !== 'string') {
      res.sendStatus(400);
      return;
    }
    if (!processed.has(id)) {
      processed.add(id);
      // Process the event here (queue it, update the order, …): once per id.
    }
    // The count convention of `svc-harness certify receiver`: this id has been processed once.
    res.set('x-receiver-processed-count', '1').sendStatus(204);
  });

  return app;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const secret = process.env.WEBHOOK_SECRET;
  if (!secret) throw new Error('set WEBHOOK_SECRET to the endpoint signing secret');
  createReceiverApp(secret).listen(Number(process.env.PORT ?? 8080));
}
