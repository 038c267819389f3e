/**
 * A webhook receiver on express with the most common mistake: the body is parsed by
 * `express.json()` and the HMAC computed over `JSON.stringify(req.body)`, not over the raw
 * bytes that were signed (Events > Signature, 5: "Verification must use the raw body, not a
 * re-serialised parsed body"). Everything else is right (constant-time compare after a
 * length check, the 300 s window, idempotent on id). It works for bodies that happen to be
 * serialised as JSON.stringify would, and breaks on the rest: `svc-harness certify receiver`
 * fails it (test/receiver-cert/framework-receivers.test.ts). Kept as the counter-example:
 * do not copy it.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import express, { type Express } from 'express';

const TOLERANCE_SECONDS = 300;

function signatureMatches(secret: string, signedText: string, header: string | undefined): boolean {
  if (header === undefined) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(signedText).digest('hex'), 'utf8');
  const given = Buffer.from(header, 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function timestampFresh(header: string | undefined): boolean {
  if (header === undefined || !/^\d+$/.test(header)) return false;
  return Math.abs(Date.now() / 1000 - Number(header)) <= TOLERANCE_SECONDS;
}

export function createReceiverApp(secret: string): Express {
  const app = express();
  const processed = new Set<string>();

  app.post('/webhooks', express.json(), (req, res) => {
    // The mistake: these are not the bytes the service signed.
    const signedText = JSON.stringify(req.body);
    if (
      !signatureMatches(secret, signedText, req.get('x-service-signature')) ||
      !timestampFresh(req.get('x-service-timestamp'))
    ) {
      res.sendStatus(401);
      return;
    }
    const id: unknown = req.body?.id;
    if (typeof id !== 'string') {
      res.sendStatus(400);
      return;
    }
    if (!processed.has(id)) {
      processed.add(id);
      // Process the event here: once per id.
    }
    res.set('x-receiver-processed-count', '1').sendStatus(204);
  });

  return app;
}
