import { describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../src/control/types.js';
import { validateEnvelope } from '../../src/capturing-receiver/index.js';
import type { CapturedDelivery } from '../../src/capturing-receiver/types.js';
import { envelopeProblems } from '../../src/suite/webhook-observation/envelope.js';
import { callCompletedData, envelope } from './helpers.js';

function valid(type: string): Record<string, unknown> {
  return envelope({ type, data: type === 'voice.call.completed' ? callCompletedData() : {} });
}

describe('envelope schema', () => {
  it.each(EVENT_TYPES)('a well-formed %s envelope is valid', (type) => {
    expect(validateEnvelope(valid(type))).toEqual({ valid: true, errors: [] });
  });

  it('extra fields are allowed, since the spec does not forbid them', () => {
    expect(validateEnvelope({ ...valid('mailer.email.sent'), livemode: false }).valid).toBe(true);
  });

  it('an unknown event type is invalid', () => {
    expect(validateEnvelope(envelope({ type: 'voice.call.answered' })).errors).toEqual([
      expect.stringMatching(/^\/type must be equal to one of the allowed values/),
    ]);
  });

  it('an id without the evt_ prefix is invalid', () => {
    expect(validateEnvelope(envelope({ id: 'event_1' })).errors[0]).toMatch(/^\/id must match pattern/);
  });

  it('a workspace id without the ws_ prefix is invalid', () => {
    expect(validateEnvelope(envelope({ workspace_id: 'w_1' })).errors[0]).toMatch(/^\/workspace_id must match pattern/);
  });

  it('created_at with an offset instead of Z is invalid', () => {
    expect(validateEnvelope(envelope({ created_at: '2026-11-22T15:00:00+01:00' })).valid).toBe(false);
  });

  it('created_at with fractional seconds and Z is valid', () => {
    expect(validateEnvelope(envelope({ created_at: '2026-11-22T15:00:00.123Z' })).valid).toBe(true);
  });

  it('created_at as Unix seconds is invalid', () => {
    expect(validateEnvelope(envelope({ created_at: 1795000000 })).valid).toBe(false);
  });

  it('an api_version that is not a real date is invalid', () => {
    expect(validateEnvelope(envelope({ api_version: '2026-02-30' })).errors).toEqual([
      '/api_version must match format "date"',
    ]);
  });

  it('an api_version in another form is invalid', () => {
    expect(validateEnvelope(envelope({ api_version: 'v1' })).valid).toBe(false);
  });

  it('data that is an array is invalid', () => {
    expect(validateEnvelope(envelope({ data: [] })).errors).toEqual(['/data must be object']);
  });

  it.each(['id', 'type', 'created_at', 'workspace_id', 'api_version', 'data'])('a missing %s is invalid', (field) => {
    const body = envelope();
    delete body[field];
    expect(validateEnvelope(body).errors).toEqual([`(root) must have required property '${field}'`]);
  });

  it('a body that is not an object is invalid', () => {
    expect(validateEnvelope([]).valid).toBe(false);
  });
});

describe('voice.call.completed data schema', () => {
  const completed = (data: Record<string, unknown>) => envelope({ type: 'voice.call.completed', data });

  it('a fractional duration is invalid', () => {
    expect(validateEnvelope(completed(callCompletedData({ duration_seconds: 4.5 }))).errors).toEqual([
      '/data/duration_seconds must be integer',
    ]);
  });

  it('a negative duration is invalid', () => {
    expect(validateEnvelope(completed(callCompletedData({ duration_seconds: -1 }))).valid).toBe(false);
  });

  it('a destination without a leading + is invalid', () => {
    expect(validateEnvelope(completed(callCompletedData({ to: '442079460958' }))).errors[0]).toMatch(
      /^\/data\/to must match pattern/,
    );
  });

  it('a call id without the call_ prefix is invalid', () => {
    expect(validateEnvelope(completed(callCompletedData({ call_id: 'c_1' }))).valid).toBe(false);
  });

  it('an agent id without the agt_ prefix is invalid', () => {
    expect(validateEnvelope(completed(callCompletedData({ agent_id: 'agent_1' }))).valid).toBe(false);
  });

  it('a transcript_url that is not a URI is invalid', () => {
    expect(validateEnvelope(completed(callCompletedData({ transcript_url: 'not a url' }))).errors).toEqual([
      '/data/transcript_url must match format "uri"',
    ]);
  });

  it('metadata that is a string is invalid', () => {
    expect(validateEnvelope(completed(callCompletedData({ metadata: 'lead_3' }))).valid).toBe(false);
  });

  it('absent metadata is accepted, a reading the spec leaves open', () => {
    const data = callCompletedData();
    delete data['metadata'];
    expect(validateEnvelope(completed(data)).valid).toBe(true);
  });

  it('a missing call field is invalid', () => {
    const data = callCompletedData();
    delete data['outcome'];
    expect(validateEnvelope(completed(data)).errors).toEqual(["/data must have required property 'outcome'"]);
  });

  it('the call fields are not required of other event types', () => {
    expect(validateEnvelope(envelope({ type: 'voice.call.failed', data: {} })).valid).toBe(true);
  });
});

describe("the webhook-envelope suite's rules and the schema", () => {
  /** The suite's own rules alone: the delivery arrives at created_at, in the envelope's workspace, schema verdict aside. */
  function ruleProblems(json: Record<string, unknown>): string[] {
    const receivedAtMs = Date.parse(String(json.created_at)) || Date.parse('2026-11-22T15:00:00Z');
    const delivery = {
      verdicts: { json, envelope: { valid: true, errors: [] } },
      receivedAtMs,
    } as unknown as CapturedDelivery;
    return envelopeProblems(delivery, String(json.workspace_id));
  }

  it.each([
    ['created_at with Z', { created_at: '2026-11-22T15:00:00Z' }, true],
    ['created_at with fractions', { created_at: '2026-11-22T15:00:00.123Z' }, true],
    ['created_at with +00:00', { created_at: '2026-11-22T15:00:00+00:00' }, true],
    ['created_at with -00:00', { created_at: '2026-11-22T15:00:00-00:00' }, true],
    ['created_at in another zone', { created_at: '2026-11-22T16:00:00+01:00' }, false],
    ['created_at without a zone', { created_at: '2026-11-22T15:00:00' }, false],
    ['created_at on no real day', { created_at: '2026-02-30T15:00:00Z' }, false],
    ['created_at as a number', { created_at: 1763823600 }, false],
    ['an id without evt_', { id: 'event_1' }, false],
    ['an unknown type', { type: 'voice.call.answered' }, false],
    ['a workspace id without ws_', { workspace_id: 'w_1' }, false],
    ['api_version on no real day', { api_version: '2026-13-01' }, false],
    ['api_version with a time', { api_version: '2026-01-15T00:00:00Z' }, false],
    ['data as an array', { data: [] }, false],
    ['data as null', { data: null }, false],
  ])('agree on an envelope with %s', (_name, change, valid) => {
    const json = envelope(change);
    expect(validateEnvelope(json).valid).toBe(valid);
    expect(ruleProblems(json).length === 0).toBe(valid);
  });
});
