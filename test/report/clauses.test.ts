import { describe, expect, it } from 'vitest';
import { itemNumbers, parseSpec, resolveClause, resolveRef, splitClause } from '../../src/report/clauses.js';

const SPEC = `# Spec

## Authentication

Two schemes exist.

### Rotation without downtime

1. A workspace supports two active tokens at once.
2. Confirm whoami returns 200.
3. After revocation, requests with the old token fail with 401 within under one minute.

## Errors

| Code | Meaning | HTTP status |
|---|---|---|
| invalid_token | credential malformed, expired or revoked | 401 |
| missing_scope | credential valid but lacks the scope | not shown |

Rules:

1. Tests rely on error.code.
2. After a token is revoked, its requests return 401 with invalid_token within one minute.

## Limits

| Revocation propagation | under 1 minute |
`;

const sections = parseSpec(SPEC);

describe('spec sections', () => {
  it('splits the spec at ## and ### headings, with their paths and anchors', () => {
    expect(sections.map((s) => s.path.join(' > '))).toEqual(['Authentication', 'Authentication > Rotation without downtime', 'Errors', 'Limits']);
    expect(sections[1]!.anchor).toBe('spec-authentication-rotation-without-downtime');
    expect(sections[0]!.body).toBe('Two schemes exist.');
  });
});

describe('clause references', () => {
  it('splits on ; outside parentheses only', () => {
    expect(splitClause('Errors (invalid_token: credential malformed, 401; error shape); Limits')).toEqual([
      'Errors (invalid_token: credential malformed, 401; error shape)',
      'Limits',
    ]);
  });
  it('reads item numbers, ranges and lists', () => {
    expect(itemNumbers(' 2')).toEqual([2]);
    expect(itemNumbers(' 1-2')).toEqual([1, 2]);
    expect(itemNumbers(' 1 and 5')).toEqual([1, 5]);
    expect(itemNumbers(' rule 3')).toEqual([3]);
    expect(itemNumbers(' scope table')).toEqual([]);
  });
  it('resolves "Section > Sub, n" to the numbered item', () => {
    const ref = resolveRef('Authentication > Rotation without downtime, 3', sections);
    expect(ref.section?.anchor).toBe('spec-authentication-rotation-without-downtime');
    expect(ref.items).toEqual([{ n: 3, text: 'After revocation, requests with the old token fail with 401 within under one minute.' }]);
  });
  it('resolves a path below the last heading to the parent\'s numbered list ("Errors > Rules, 2")', () => {
    const ref = resolveRef('Errors > Rules, 2', sections);
    expect(ref.section?.path).toEqual(['Errors']);
    expect(ref.items.map((item) => item.n)).toEqual([2]);
  });
  it('quotes the lines that hold a parenthesised hint', () => {
    const ref = resolveRef('Errors (missing_scope: HTTP status not shown)', sections);
    expect(ref.items).toEqual([]);
    expect(ref.lines).toEqual(['| missing_scope | credential valid but lacks the scope | not shown |']);
  });
  it('matches a heading by its first words ("Limits (under 1 minute)")', () => {
    const [ref] = resolveClause('Limits (under 1 minute)', sections);
    expect(ref!.section?.path).toEqual(['Limits']);
    expect(ref!.lines).toHaveLength(1);
  });
  it('leaves a reference the spec does not hold unresolved', () => {
    const ref = resolveRef('control interface reinstate', sections);
    expect(ref.section).toBeUndefined();
    expect(ref.text).toBe('control interface reinstate');
  });
});
