import { describe, expect, test } from 'vitest';
import { describeConditions, referenceOptionsFromEnv } from '../../reference/conditions.js';

// REFERENCE_* variables → the conditions the reference plays; one malformed value, one error.

describe('reference conditions from the environment', () => {
  test('nothing set asks for nothing', () => {
    expect(referenceOptionsFromEnv({})).toEqual({});
    expect(referenceOptionsFromEnv({ REFERENCE_LATENCY_MS: '', REFERENCE_TLS_CERT: '' })).toEqual({});
    expect(describeConditions({})).toEqual([]);
  });

  test('every variable in its documented form', () => {
    const options = referenceOptionsFromEnv({
      REFERENCE_LATENCY_MS: '60,5',
      REFERENCE_RATE_LIMIT: '10/workspace, 50/client, retry-after=date',
      REFERENCE_RESET_FRACTION: '0.01',
      REFERENCE_SEED: '42',
      REFERENCE_MAX_TIME_SCALE: '600',
      REFERENCE_TLS_CERT: '/tmp/server.pem',
      REFERENCE_TLS_KEY: '/tmp/server-key.pem',
      REFERENCE_TLS_CLIENT_CA: '/tmp/ca.pem',
    });
    expect(options).toEqual({
      network: { latencyMs: 60, jitterMs: 5, rateLimit: { perWorkspace: 10, perClient: 50, retryAfter: 'date' }, resetFraction: 0.01, seed: 42 },
      maxTimeScale: 600,
      tls: { certPath: '/tmp/server.pem', keyPath: '/tmp/server-key.pem', clientCaPath: '/tmp/ca.pem' },
    });
    const banner = describeConditions(options).join('\n');
    for (const part of ['60 ms ± 5 ms', '10/s per workspace', '50/s per client address', 'an HTTP date', '0.01', 'seed 42', 'max_time_scale: 600', 'client certificates required']) {
      expect(banner).toContain(part);
    }
  });

  test('a latency alone has no jitter; one rate alone is enough', () => {
    expect(referenceOptionsFromEnv({ REFERENCE_LATENCY_MS: '60', REFERENCE_RATE_LIMIT: '50/client' })).toEqual({
      network: { latencyMs: 60, jitterMs: 0, rateLimit: { perClient: 50 } },
    });
  });

  test.each([
    ['REFERENCE_LATENCY_MS', '60±5', /REFERENCE_LATENCY_MS.*e\.g\. 60 or 60,5/],
    ['REFERENCE_LATENCY_MS', '-1', /REFERENCE_LATENCY_MS.*60,5/],
    ['REFERENCE_LATENCY_MS', '5,60', /REFERENCE_LATENCY_MS.*jitter no larger/],
    ['REFERENCE_RATE_LIMIT', '10', /REFERENCE_RATE_LIMIT.*e\.g\. 10\/workspace,50\/client/],
    ['REFERENCE_RATE_LIMIT', '10/workspace,20/workspace', /REFERENCE_RATE_LIMIT.*each once/],
    ['REFERENCE_RATE_LIMIT', '0/client', /REFERENCE_RATE_LIMIT/],
    ['REFERENCE_RATE_LIMIT', '10/client,retry-after=minutes', /REFERENCE_RATE_LIMIT.*seconds, date or none/],
    ['REFERENCE_RATE_LIMIT', 'retry-after=date', /REFERENCE_RATE_LIMIT.*at least one rate/],
    ['REFERENCE_RESET_FRACTION', '1', /REFERENCE_RESET_FRACTION.*e\.g\. 0\.01/],
    ['REFERENCE_RESET_FRACTION', '1%', /REFERENCE_RESET_FRACTION.*e\.g\. 0\.01/],
    ['REFERENCE_SEED', '1.5', /REFERENCE_SEED.*e\.g\. 42/],
    ['REFERENCE_MAX_TIME_SCALE', '0.5', /REFERENCE_MAX_TIME_SCALE.*e\.g\. 600/],
    ['REFERENCE_MAX_TIME_SCALE', 'fast', /REFERENCE_MAX_TIME_SCALE.*e\.g\. 600/],
  ])('%s=%s is refused with the variable and an example', (name, value, message) => {
    expect(() => referenceOptionsFromEnv({ [name]: value })).toThrow(message);
  });

  test('TLS needs both the certificate and the key; a client CA needs both', () => {
    expect(() => referenceOptionsFromEnv({ REFERENCE_TLS_CERT: 'c.pem' })).toThrow(/REFERENCE_TLS_KEY must be set with REFERENCE_TLS_CERT.*e\.g\./);
    expect(() => referenceOptionsFromEnv({ REFERENCE_TLS_KEY: 'k.pem' })).toThrow(/REFERENCE_TLS_CERT must be set with REFERENCE_TLS_KEY/);
    expect(() => referenceOptionsFromEnv({ REFERENCE_TLS_CLIENT_CA: 'ca.pem' })).toThrow(/REFERENCE_TLS_CLIENT_CA needs REFERENCE_TLS_CERT and REFERENCE_TLS_KEY/);
  });
});
