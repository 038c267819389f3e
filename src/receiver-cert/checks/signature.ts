/**
 * Bad signatures are rejected (Events > Signature, 1, 4, 5): each check sends a fresh,
 * otherwise valid delivery (current timestamp, new event id) with one thing wrong.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { RAW_BODY_FIXTURES, envelopeBody, rawBody } from '../fixtures.js';
import { RESERIALIZERS, reserialize } from '../reserialize.js';
import { expectRejected, type ReceiverCheck } from '../context.js';
import type { DeliveryRequest } from '../sender.js';
import { check, receiverSuite } from '../registry.js';

/** A request whose signature is computed from the body and its right signature. */
function variant(
  t: ReceiverCheck,
  label: string,
  make: (body: string, right: string) => string | null,
  body = envelopeBody().body,
): DeliveryRequest {
  return { purpose: 'invalid', label, body, signature: make(body, t.sender.sign(body)) };
}

function differentHex(right: string): string {
  let out = randomBytes(32).toString('hex');
  while (out === right) out = randomBytes(32).toString('hex');
  return out;
}

receiverSuite('receiver-signature', () => {
  check('RCV-REJECT-WRONG-SIGNATURE', (t) =>
    expectRejected(t, [
      variant(t, 'random 64 hex', (_b, right) => differentHex(right)),
      variant(t, 'all zeros', () => '0'.repeat(64)),
    ]),
  );

  check('RCV-REJECT-OTHER-SECRET', (t) => {
    const other = `whsec_other_${randomBytes(12).toString('hex')}`;
    return expectRejected(t, [
      variant(t, 'signed with another secret', (body) => createHmac('sha256', other).update(body).digest('hex')),
    ]);
  });

  check('RCV-REJECT-TAMPERED-BODY', (t) => {
    const { body } = envelopeBody('voice.call.completed');
    const right = t.sender.sign(body);
    return expectRejected(t, [
      {
        purpose: 'invalid',
        label: 'duration_seconds 42 changed to 43',
        body: body.replace('"duration_seconds":42', '"duration_seconds":43'),
        signature: right,
      },
      { purpose: 'invalid', label: 'a space appended to the body', body: `${body} `, signature: right },
    ]);
  });

  check('RCV-REJECT-UPPERCASE-HEX', (t) => {
    // A digest with no letter a-f has no upper case; a fresh body makes that vanishingly rare.
    let body = envelopeBody().body;
    while (!/[a-f]/.test(t.sender.sign(body))) body = envelopeBody().body;
    return expectRejected(t, [variant(t, 'upper-case hex', (_b, right) => right.toUpperCase(), body)]);
  });

  check('RCV-REJECT-BASE64', (t) =>
    expectRejected(t, [
      variant(t, 'base64', (_b, right) => Buffer.from(right, 'hex').toString('base64')),
      variant(t, 'base64url', (_b, right) => Buffer.from(right, 'hex').toString('base64url')),
    ]),
  );

  check('RCV-REJECT-TRUNCATED', (t) =>
    expectRejected(t, [
      variant(t, '63 hex chars', (_b, right) => right.slice(0, 63)),
      variant(t, '32 hex chars', (_b, right) => right.slice(0, 32)),
    ]),
  );

  check('RCV-REJECT-OVERLONG', (t) =>
    expectRejected(t, [
      variant(t, 'right + "0" (65 chars)', (_b, right) => `${right}0`),
      variant(t, 'right twice (128 chars)', (_b, right) => right + right),
    ]),
  );

  check('RCV-REJECT-EMPTY-SIGNATURE', (t) => expectRejected(t, [variant(t, 'empty header', () => '')]));

  check('RCV-REJECT-MISSING-SIGNATURE', (t) => expectRejected(t, [variant(t, 'no header', () => null)]));

  check('RCV-REJECT-RESERIALIZED-SIGNATURE', (t) => {
    const requests: DeliveryRequest[] = [];
    for (const fixture of RAW_BODY_FIXTURES) {
      const { body } = rawBody(fixture);
      for (const style of RESERIALIZERS) {
        const again = reserialize(body, style);
        // Where the round trip keeps the bytes, its signature is the right one: not a bad signature.
        if (again === body) continue;
        requests.push({
          purpose: 'invalid',
          label: `${fixture.name} (${style} round trip)`,
          body,
          signature: t.sender.sign(again),
        });
      }
    }
    return expectRejected(t, requests);
  });

  check('RCV-REJECT-TIMESTAMP-DOT-BODY', (t) => {
    const { body } = envelopeBody();
    return expectRejected(t, [
      {
        purpose: 'invalid',
        label: 'HMAC of "<timestamp>.<body>"',
        body,
        signature: (timestamp) => t.sender.sign(`${timestamp ?? ''}.${body}`),
      },
    ]);
  });
});
