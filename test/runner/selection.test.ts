import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../src/catalog/checks.js';
import { RunAbort } from '../../src/errors.js';
import { namePatternFor, selectChecks } from '../../src/runner/selection.js';

describe('check selection', () => {
  it('selects every check when no filter is given', () => {
    expect(selectChecks(undefined)).toHaveLength(CHECKS.length);
  });

  it('selects by exact id and by prefix', () => {
    const ids = selectChecks('AUTH-*, TOKEN-LIMIT-TWO').map((check) => check.id);
    expect(ids).toContain('AUTH-MISSING-HEADER');
    expect(ids).toContain('TOKEN-LIMIT-TWO');
    expect(ids).not.toContain('TOKEN-DEFAULT-SCOPES');
  });

  it('refuses a filter that names no check', () => {
    expect(() => selectChecks('AUTH-NOPE')).toThrow(RunAbort);
  });

  it('builds a name pattern that matches whole ids only', () => {
    const pattern = new RegExp(namePatternFor(selectChecks('HOOK-RETRY-ON-3XX')));
    expect(pattern.test('webhook-delivery HOOK-RETRY-ON-3XX A 3xx answer')).toBe(true);
    expect(pattern.test('webhook-delivery HOOK-RETRY-ON-3XXX other')).toBe(false);
  });
});
