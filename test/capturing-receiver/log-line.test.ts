import { describe, expect, it } from 'vitest';
import { formatDeliveryLine, type CapturedDelivery } from '../../src/capturing-receiver/index.js';

function delivery(
  overrides: Partial<CapturedDelivery['verdicts']> = {},
  answeredStatus: number | null = 204,
): CapturedDelivery {
  return {
    seq: 1,
    endpoint: 'catch-all',
    method: 'POST',
    path: '/hooks/staging',
    query: '',
    headers: {},
    rawBody: Buffer.from('{}'),
    receivedAtMs: Date.UTC(2026, 10, 22, 15, 0, 1, 234),
    receivedAtMono: 1,
    attempt: 1,
    answer: answeredStatus === null ? 'reset' : 'sent',
    answeredStatus,
    answeredAfterMs: 1,
    verdicts: {
      signature: { ok: true },
      timestamp: { ok: true, skewSeconds: 0.4 },
      envelope: { valid: true, errors: [] },
      eventId: 'evt_42',
      eventType: 'voice.call.completed',
      duplicate: false,
      ...overrides,
    },
  };
}

describe('formatDeliveryLine', () => {
  it('shows time, path, type, id, each verdict and the answer', () => {
    expect(formatDeliveryLine(delivery())).toBe(
      '15:00:01.234  POST /hooks/staging  voice.call.completed  evt_42  sig ok  ts ok +0.4s  envelope ok  new  -> 204',
    );
  });

  it('puts failures in capitals with their reasons', () => {
    const line = formatDeliveryLine(
      delivery(
        {
          signature: { ok: false, reason: 'mismatch' },
          timestamp: { ok: false, reason: 'too-old', skewSeconds: -412 },
          envelope: { valid: false, errors: ['/data/to must match pattern "^\\+"'] },
          duplicate: true,
        },
        401,
      ),
    );
    expect(line).toContain(
      'sig MISMATCH  ts TOO-OLD -412.0s  envelope INVALID (/data/to must match pattern "^\\+")  DUPLICATE (attempt 1)  -> 401',
    );
  });

  it('says when no secret is set and when no status was sent', () => {
    expect(formatDeliveryLine(delivery({ signature: 'no-secret' }, null))).toMatch(/sig \(no secret\).*-> reset$/);
  });
});
