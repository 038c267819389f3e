/**
 * The check context's default endpoint names (src/suite/context.ts): unique in the process
 * by construction, however many a run makes (a random suffix once collided in a stability run).
 */
import { describe, expect, it } from 'vitest';
import { nextEndpointName } from '../../src/suite/context.js';

describe('nextEndpointName', () => {
  it('never repeats a name, over more endpoints than a full-tier model run makes', () => {
    const names = Array.from({ length: 100_000 }, (_, i) =>
      nextEndpointName(i % 2 === 0 ? 'MODEL-ENDPOINTS' : 'HOOK-FANOUT'),
    );
    expect(new Set(names).size).toBe(names.length);
    expect(names[0]).toMatch(/^MODEL-ENDPOINTS-\d+$/);
  });
});
