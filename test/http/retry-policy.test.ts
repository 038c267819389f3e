import { describe, expect, it } from 'vitest';
import { networkBackoffMs, rateLimitWaitMs, resendsFor, safeToResend } from '../../src/http/retry-policy.js';

const NOW = Date.parse('2026-11-26T12:00:00Z');

describe('rateLimitWaitMs', () => {
  it('reads Retry-After as delay-seconds', () => {
    expect(rateLimitWaitMs('3', NOW, 1)).toEqual({ waitMs: 3000, from: 'seconds' });
  });

  it('reads Retry-After as an HTTP date, from now', () => {
    expect(rateLimitWaitMs('Thu, 26 Nov 2026 12:00:02 GMT', NOW, 1)).toEqual({ waitMs: 2000, from: 'date' });
  });

  it('waits not at all for an HTTP date already past', () => {
    expect(rateLimitWaitMs('Thu, 26 Nov 2026 11:59:00 GMT', NOW, 1).waitMs).toBe(0);
  });

  it.each([undefined, '', 'soon', '-1', '1.5'])(
    'backs off, doubling per 429, without a usable Retry-After (%s)',
    (header) => {
      expect(rateLimitWaitMs(header, NOW, 1)).toEqual({ waitMs: 500, from: 'backoff' });
      expect(rateLimitWaitMs(header, NOW, 3).waitMs).toBe(2000);
      expect(rateLimitWaitMs(header, NOW, 30).waitMs).toBe(8000);
    },
  );
});

describe('safeToResend', () => {
  it.each(['GET', 'HEAD', 'PUT', 'DELETE', 'get'])('resends an idempotent %s that got no answer', (method) => {
    expect(safeToResend(method, { kind: 'network', errorCode: 'ECONNRESET' })).toBe(true);
  });

  it('does not resend a POST whose connection was reset: the target may have acted on it', () => {
    expect(safeToResend('POST', { kind: 'network', errorCode: 'ECONNRESET' })).toBe(false);
    expect(safeToResend('POST', { kind: 'network', errorCode: 'UND_ERR_SOCKET' })).toBe(false);
    expect(safeToResend('POST', { kind: 'timeout' })).toBe(false);
  });

  it('resends a POST whose connection was never made', () => {
    expect(safeToResend('POST', { kind: 'network', errorCode: 'ECONNREFUSED' })).toBe(true);
    expect(safeToResend('POST', { kind: 'network', errorCode: 'UND_ERR_CONNECT_TIMEOUT' })).toBe(true);
  });

  it.each(['SELF_SIGNED_CERT_IN_CHAIN', 'ERR_TLS_CERT_ALTNAME_INVALID', 'CERT_HAS_EXPIRED'])(
    'never resends a request refused for its certificate (%s): it comes back the same',
    (errorCode) => {
      expect(safeToResend('GET', { kind: 'network', errorCode })).toBe(false);
      expect(safeToResend('POST', { kind: 'network', errorCode }, true)).toBe(false);
    },
  );

  it('resends any method written onto a kept-alive connection the other side had closed, and only a network failure', () => {
    expect(safeToResend('POST', { kind: 'network', errorCode: 'UND_ERR_SOCKET', staleConnection: true })).toBe(true);
    expect(safeToResend('POST', { kind: 'network', errorCode: 'UND_ERR_SOCKET', staleConnection: true }, false)).toBe(
      true,
    );
    expect(safeToResend('POST', { kind: 'timeout', staleConnection: true })).toBe(false);
  });

  it('takes the caller at its word on idempotence', () => {
    expect(safeToResend('POST', { kind: 'network', errorCode: 'ECONNRESET' }, true)).toBe(true);
    expect(safeToResend('GET', { kind: 'network', errorCode: 'ECONNRESET' }, false)).toBe(false);
  });
});

describe('resend budgets', () => {
  it('gives a time-out fewer resends than a lost connection', () => {
    expect(resendsFor('timeout')).toBeLessThan(resendsFor('network'));
  });

  it('backs off from 250 ms, doubling, within ±20%', () => {
    expect(networkBackoffMs(1, () => 0)).toBe(200);
    expect(networkBackoffMs(1, () => 1)).toBe(300);
    expect(networkBackoffMs(3, () => 0.5)).toBe(1000);
  });
});
