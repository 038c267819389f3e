/**
 * package.json's keywords say what the package is, for people searching the registry: a
 * conformance harness for a service and its webhooks, with k6 load tests and JUnit for CI. Not
 * `standard-webhooks`: the spec signs the raw body alone, with the timestamp in its own header
 * (src/signing/sign.ts), where Standard Webhooks signs "<id>.<timestamp>.<body>" in base64.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/child.js';

const { keywords, description } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  keywords: string[];
  description: string;
};

describe('package.json keywords', () => {
  it('name what the package is', () => {
    expect(keywords).toEqual(
      expect.arrayContaining(['conformance', 'certification', 'webhooks', 'k6', 'load-testing', 'junit']),
    );
    expect(description).toMatch(/conformance/i);
  });

  it('name no scheme the package does not implement', () => {
    expect(keywords.filter((keyword) => /standard-?webhooks|svix/i.test(keyword))).toEqual([]);
  });

  it('are unique, lower case and hyphenated, as the registry searches them', () => {
    expect(new Set(keywords).size).toBe(keywords.length);
    for (const keyword of keywords) expect(keyword).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
  });
});
