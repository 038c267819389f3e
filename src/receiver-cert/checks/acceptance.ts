/** Valid deliveries are acknowledged with a 2xx within the time-out (Endpoints > Webhook receiver contract). */
import { EVENT_TYPES, RAW_BODY_FIXTURES, envelopeBody, rawBody } from '../fixtures.js';
import { expectAcknowledged, type CheckFn } from '../context.js';

export const acceptEventTypes: CheckFn = (t) =>
  expectAcknowledged(t, EVENT_TYPES.map((type) => ({ purpose: 'valid', label: type, body: envelopeBody(type).body })));

export const acceptRawBodies: CheckFn = (t) =>
  expectAcknowledged(t, RAW_BODY_FIXTURES.map((fixture) => ({ purpose: 'valid', label: fixture.name, body: rawBody(fixture).body })));
