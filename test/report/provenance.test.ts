/** Provenance (issue 47): what ties a verdict to what was tested and by what, in every report. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATALOG } from '../../src/catalog/checks.js';
import { CONTROL_CONTRACT, SPEC_DOCUMENT } from '../../src/catalog/documents.js';
import { renderHtml } from '../../src/report/html.js';
import { renderJunit } from '../../src/report/junit.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { RUN_REPORT } from '../../src/report/model.js';
import {
  buildText,
  canonicalJson,
  catalogDigest,
  harnessBuild,
  provenanceOf,
  sha256Hex,
} from '../../src/report/provenance.js';
import { reportSchemaProblems } from '../../src/report/validate.js';
import { fixtureReport } from './fixture.js';

describe('provenance', () => {
  it('serialises canonically: keys sorted at every depth, no white space, undefined left out', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 'x', c: null }, undefined], e: undefined })).toBe(
      '{"a":[{"c":null,"d":"x"},null],"b":1}',
    );
    expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson({ b: 2, a: 1 }));
  });

  it('digests the catalog so that any changed entry changes it', () => {
    const digest = catalogDigest();
    expect(digest).toEqual({ sha256: sha256Hex(canonicalJson(CATALOG)), checks: CATALOG.length });
    const edited = CATALOG.map((entry, index) =>
      index === 0 ? { ...entry, level: entry.level === 'must' ? 'should' : 'must' } : entry,
    );
    expect(sha256Hex(canonicalJson(edited))).not.toBe(digest.sha256);
  });

  it("names the build by the clone's commit, or by the package when run from no clone of its own", () => {
    const here = harnessBuild();
    if (here.source === 'git') expect(here.commit).toMatch(/^[0-9a-f]{40}$/);
    const installed = mkdtempSync(join(tmpdir(), 'installed-'));
    try {
      expect(harnessBuild(installed)).toEqual({ source: 'package' });
    } finally {
      rmSync(installed, { recursive: true, force: true });
    }
    expect(
      buildText({ name: 'h', version: '1.0.0', build: { source: 'git', commit: 'a'.repeat(40), modified: true } }),
    ).toBe('h 1.0.0 (git aaaaaaaaaaaa, modified)');
    expect(buildText({ name: 'h', version: '1.0.0', build: { source: 'package' } })).toBe('h 1.0.0 (package)');
  });

  it('goes into report.json conforming to the published schema, and into every other report', () => {
    const image = { reference: 'registry.example.test/acme/voice:1.4.2', digest: `sha256:${'b'.repeat(64)}` };
    const report = { ...fixtureReport(), seed: 42, provenance: provenanceOf({ targetVersion: '1.4.2-rc1', image }) };
    expect(RUN_REPORT.safeParse(report).success).toBe(true);
    expect(reportSchemaProblems(JSON.parse(JSON.stringify(report)))).toEqual([]);
    expect(report.provenance).toMatchObject({
      spec: { sha256: SPEC_DOCUMENT.sha256 },
      control_contract: { version: CONTROL_CONTRACT.version },
      target_version: '1.4.2-rc1',
      image,
    });
    for (const text of [renderMarkdown(report), renderHtml(report), renderJunit(report)]) {
      expect(text).toContain('1.4.2-rc1');
      expect(text).toContain(image.digest);
      expect(text).toContain(SPEC_DOCUMENT.sha256.slice(0, 12));
    }
    expect(
      reportSchemaProblems({
        ...JSON.parse(JSON.stringify(report)),
        provenance: { ...report.provenance, spec: { document: 'x', sha256: 'not-hex' } },
      }),
    ).not.toEqual([]);
  });
});
