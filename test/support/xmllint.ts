/**
 * junit.xml checked the way a CI system reads it: xmllint (Debian's libxml2-utils, which
 * .ci/run installs) against the JUnit schema Jenkins validates with. Without xmllint the
 * tests that need it are reported skipped, never passed.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const JUNIT_SCHEMA = fileURLToPath(new URL('../../fixtures/schemas/junit-10.xsd', import.meta.url));

export const hasXmllint = spawnSync('xmllint', ['--version'], { timeout: 10_000 }).status === 0;

/** xmllint's complaints about `xml` (well-formedness and schema); empty when it validates. */
export function junitSchemaProblems(xml: string | Buffer): string[] {
  const run = spawnSync('xmllint', ['--noout', '--nonet', '--schema', JUNIT_SCHEMA, '-'], {
    input: xml,
    timeout: 30_000,
    encoding: 'utf8',
  });
  if (run.error) throw run.error;
  if (run.status === 0) return [];
  return run.stderr.split('\n').filter((line) => line.trim() && !line.endsWith('validates'));
}
