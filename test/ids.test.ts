import { describe, expect, it } from 'vitest';
import { findAllIds, findFirstId, ID_PATTERNS } from '../src/ids.js';

describe('id extraction', () => {
  it('finds the first call id anywhere in the JSON, whatever the wrapper', () => {
    expect(findFirstId({ data: { call: { id: 'call_abc123' } } }, ID_PATTERNS.call)).toBe('call_abc123');
    expect(findFirstId(['x', { nested: ['call_Z9'] }], ID_PATTERNS.call)).toBe('call_Z9');
  });

  it('answers undefined when no string matches', () => {
    expect(findFirstId({ id: 'cal_1', n: 1 }, ID_PATTERNS.call)).toBeUndefined();
  });

  it('collects distinct agent ids in document order', () => {
    expect(findAllIds({ agents: [{ id: 'agt_1' }, { id: 'agt_2' }, { again: 'agt_1' }] }, ID_PATTERNS.agent)).toEqual([
      'agt_1',
      'agt_2',
    ]);
  });
});
