/** wrk as the pool bench's load generator (benchmarks/wrk.ts): its summary read, and its deliveries signed and distinct. */
import { describe, expect, it } from 'vitest';
import { parseWrkOutput, prepareWrk, runWrk, wrkAvailable } from '../wrk.js';
import { SECRET } from '../receiver-delivery.js';
import { CapturingReceiver } from '../../src/capturing-receiver/index.js';

const SUMMARY = `Running 2s test @ https://127.0.0.1:40123/hooks/abc
  2 threads and 50 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     2.31ms    1.02ms  21.37ms   84.12%
    Req/Sec    10.95k   612.30    12.01k    70.00%
  43562 requests in 2.00s, 3.19MB read
  Non-2xx or 3xx responses: 7
  Socket errors: connect 0, read 3, write 0, timeout 2
Requests/sec:  21774.63
Transfer/sec:      1.59MB
`;

describe('wrk summary', () => {
  it('gives the requests, the rate, the non-2xx answers and the socket errors', () => {
    expect(parseWrkOutput(SUMMARY)).toEqual({ requests: 43_562, rps: 21_774.63, non2xx: 7, socketErrors: 5 });
  });

  it('counts no errors when wrk prints no error lines', () => {
    const clean = SUMMARY.split('\n')
      .filter((line) => !/Non-2xx|Socket errors/.test(line))
      .join('\n');
    expect(parseWrkOutput(clean)).toMatchObject({ non2xx: 0, socketErrors: 0 });
  });

  it('refuses output without a summary', () => {
    expect(() => parseWrkOutput('unable to connect to 127.0.0.1:1 Connection refused')).toThrow(/no summary/);
  });
});

// Skipped locally without wrk; .ci/run installs it and fails if it cannot.
describe.skipIf(!wrkAvailable())('wrk against the capturing receiver', () => {
  it('sends signed deliveries, no event id twice from its two threads, and says how many', async () => {
    const receiver = await CapturingReceiver.start({ maxDeliveriesPerEndpoint: 100 });
    const input = prepareWrk(20_000, 2);
    try {
      const endpoint = receiver.createEndpoint({ name: 'wrk' }).setSecret(SECRET);
      const result = await runWrk(endpoint.url, 1, 4, input);
      const stats = receiver.stats();
      expect(result.requests).toBeGreaterThan(100);
      expect(result).toMatchObject({ non2xx: 0, socketErrors: 0, repeated: 0 });
      // Every answered request reached the endpoint; ones in flight at the end may add a few.
      expect(stats.endpoints['wrk']!.total).toBeGreaterThanOrEqual(result.requests);
      expect(stats.endpoints['wrk']!.total).toBeLessThanOrEqual(result.requests + 4);
      expect(stats).toMatchObject({ badSignatures: 0, duplicates: 0, strays: 0 });
    } finally {
      input.remove();
      await receiver.close();
    }
  }, 30_000);

  it('flags a run that sent more requests than it had deliveries, each one past them a duplicate', async () => {
    const receiver = await CapturingReceiver.start({ maxDeliveriesPerEndpoint: 100 });
    const input = prepareWrk(50);
    try {
      const endpoint = receiver.createEndpoint({ name: 'wrk' }).setSecret(SECRET);
      const result = await runWrk(endpoint.url, 1, 4, input);
      expect(result.requests).toBeGreaterThan(100);
      expect(result.repeated).toBe(result.requests - 50);
      const { duplicates } = receiver.stats();
      expect(duplicates).toBeGreaterThanOrEqual(result.repeated);
      expect(duplicates).toBeLessThanOrEqual(result.repeated + 4);
    } finally {
      input.remove();
      await receiver.close();
    }
  }, 30_000);
});
