/** Valid deliveries are acknowledged with a 2xx within the time-out (Endpoints > Webhook receiver contract). */
import { EVENT_TYPES, RAW_BODY_FIXTURES, envelopeBody, rawBody } from '../fixtures.js';
import { expectAcknowledged } from '../context.js';
import { check, receiverSuite } from '../registry.js';

receiverSuite('receiver-acceptance', () => {
  check('RCV-ACCEPT-EVENT-TYPES', (t) =>
    expectAcknowledged(
      t,
      EVENT_TYPES.map((type) => ({ purpose: 'valid', label: type, body: envelopeBody(type).body })),
    ),
  );

  check('RCV-ACCEPT-RAW-BODIES', (t) =>
    expectAcknowledged(
      t,
      RAW_BODY_FIXTURES.map((fixture) => ({ purpose: 'valid', label: fixture.name, body: rawBody(fixture).body })),
    ),
  );
});
