/**
 * Every `must` rests on a sentence of the spec or of the control contract (issue 38): the
 * runner contract defines `must` as "the spec states it". An outside document (an RFC, an
 * advisory) may back a check, but a rule only it states is a `should`.
 */
import { describe, expect, it } from 'vitest';
import { CATALOG, type CatalogEntry } from '../../src/catalog/checks.js';
import { CLAUSES, documentOf } from '../../src/catalog/spec-clauses.js';

/** What keeps an entry from resting on the spec or the contract; empty when it does. */
function groundProblems(entry: Pick<CatalogEntry, 'id' | 'level' | 'clauses' | 'ground' | 'source'>): string[] {
  if (entry.level !== 'must') return [];
  const { id, ground } = entry;
  if (ground === undefined)
    return [`${id}: a must with no ground${entry.source ? ` but its outside source (${entry.source})` : ''}`];
  if (!Object.hasOwn(CLAUSES, ground)) return [`${id}: its ground ${ground} is no clause of the spec or the contract`];
  const problems: string[] = [];
  if (!entry.clauses.includes(ground)) problems.push(`${id}: its ground ${ground} is not among its clauses`);
  if (!['spec', 'contract'].includes(documentOf(ground)))
    problems.push(`${id}: its ground ${ground} quotes neither the spec nor the contract`);
  // A sentence that only says a thing is not shown states no rule to hold a target to.
  if (/: not shown\.$/.test(CLAUSES[ground].text)) problems.push(`${id}: its ground ${ground} says "not shown"`);
  return problems;
}

describe('grounds of the checks', () => {
  it('give every must, of either subject, a clause of the spec or the contract that states it', () => {
    const musts = CATALOG.filter((entry) => entry.level === 'must');
    expect(musts.length).toBeGreaterThan(0);
    expect(musts.flatMap(groundProblems)).toEqual([]);
  });

  it('refuse a must whose only ground is an outside document, one without a ground, and one grounded outside its clauses', () => {
    const base = { id: 'X-MUST', level: 'must' as const, clauses: ['AUTH-SESSION-2' as const] };
    expect(groundProblems({ ...base, source: 'RFC 7515, 4.1.11' })).toEqual([
      'X-MUST: a must with no ground but its outside source (RFC 7515, 4.1.11)',
    ]);
    expect(groundProblems(base)).toEqual(['X-MUST: a must with no ground']);
    expect(groundProblems({ ...base, ground: 'SIG-1' })).toEqual(['X-MUST: its ground SIG-1 is not among its clauses']);
    expect(groundProblems({ ...base, clauses: ['SVC-6'], ground: 'SVC-6' })).toEqual([
      'X-MUST: its ground SVC-6 says "not shown"',
    ]);
    expect(groundProblems({ ...base, level: 'should', source: 'RFC 7515, 4.1.11' })).toEqual([]);
  });

  it('name an outside document in `source`, never in the title', () => {
    for (const entry of CATALOG) {
      expect(entry.title, entry.id).not.toMatch(/\bRFC \d+/);
      if (entry.source !== undefined) expect(entry.source.trim().length, entry.id).toBeGreaterThan(3);
    }
  });

  it('issue 38: a session token the contract accepts is refused only as a should, citing the RFC', () => {
    // jsonwebtoken ignores crit, and verifies against whichever JWKS key the kid finds or the
    // caller hands it: each of these tokens meets every condition of CTL-SESSION-JWT.
    for (const [id, rfc] of [
      ['SESSION-CRIT-UNKNOWN', 'RFC 7515'],
      ['SESSION-DUPLICATE-CLAIMS', 'RFC 7519'],
      ['SESSION-UNKNOWN-KID', 'RFC 7517'],
    ] as const) {
      const entry = CATALOG.find((check) => check.id === id)!;
      expect(entry.level, id).toBe('should');
      expect(entry.source, id).toContain(rfc);
    }
  });
});
