import { describe, expect, it } from 'vitest';
import { getCheck } from '../../src/catalog/checks.js';
import { checkIdsOf, narrowedAreas } from '../../scripts/mutate/modules.js';

describe('the checks that judge a mutant', () => {
  it('are the fast-tier checks of the module, or of the areas --areas names', () => {
    const whole = checkIdsOf('auth');
    const narrowed = checkIdsOf('auth', narrowedAreas('auth', 'session,session-attacks'));
    expect(narrowed.length).toBeGreaterThan(0);
    expect(narrowed.length).toBeLessThan(whole.length);
    for (const id of narrowed) {
      expect(whole).toContain(id);
      expect(['session', 'session-attacks']).toContain(getCheck(id).area);
      expect(getCheck(id).tier).toBe('fast');
    }
    expect(narrowed).toContain('SESSION-EMBEDDED-JWK');
    expect(narrowed).not.toContain('TOKEN-DEFAULT-SCOPES');
  });

  it('--areas names areas of the module only, and none means the whole module', () => {
    expect(narrowedAreas('auth', undefined)).toBeUndefined();
    expect(narrowedAreas('auth', '')).toBeUndefined();
    expect(narrowedAreas('auth', ' session , workspace')).toEqual(['session', 'workspace']);
    expect(() => narrowedAreas('auth', 'session,webhook-retry')).toThrow(
      /webhook-retry not among the auth module's areas \(auth-errors, /,
    );
    expect(() => narrowedAreas('calls', 'session')).toThrow(/session not among the calls module's areas/);
  });
});
