import { describe, expect, test } from 'vitest';
import { describeConditions } from '../../reference/conditions.js';

// The banner's lines for the conditions a reference plays (the settings that ask for them:
// test/config/reference-settings.test.ts).

describe('reference conditions in words', () => {
  test('a reference as on loopback has no line', () => {
    expect(describeConditions({})).toEqual([]);
    expect(describeConditions({ network: { seed: 7 } })).toEqual([]);
  });

  test('every condition has its line', () => {
    const banner = describeConditions({
      network: {
        latencyMs: 60,
        jitterMs: 5,
        rateLimit: { perWorkspace: 10, perClient: 50, retryAfter: 'date' },
        resetFraction: 0.01,
        seed: 42,
      },
      maxTimeScale: 600,
      tls: { certPath: '/tmp/server.pem', keyPath: '/tmp/server-key.pem', clientCaPath: '/tmp/ca.pem' },
    }).join('\n');
    for (const part of [
      '60 ms ± 5 ms',
      '10/s per workspace',
      '50/s per client address',
      'an HTTP date',
      '0.01',
      'seed 42',
      'max_time_scale: 600',
      'client certificates required',
    ]) {
      expect(banner).toContain(part);
    }
  });

  test('a 429 says when to come back as the rate limit asks, seconds by default', () => {
    expect(describeConditions({ network: { rateLimit: { perClient: 5 } } })).toEqual([
      'rate limit: 5/s per client address on /v1; 429 rate_limited with Retry-After as seconds',
    ]);
    expect(describeConditions({ network: { rateLimit: { perClient: 5, retryAfter: 'none' } } })[0]).toMatch(
      /without Retry-After$/,
    );
  });
});
