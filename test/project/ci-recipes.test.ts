/**
 * The CI recipes users copy (examples/ci/): the GitHub Actions workflow passes actionlint (built
 * by .ci/run from its Go module into .tools/bin), and a broken copy of it does not; each recipe
 * certifies and load-tests, publishing junit.xml and load-junit.xml where the runs write them.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { K6_MODULE, K6_VERSION } from '../../src/load/k6/binary.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const EXAMPLES = join(ROOT, 'examples/ci');
const INSTALLED = join(ROOT, '.tools/bin/actionlint');
const actionlint = existsSync(INSTALLED) ? INSTALLED : spawnSync('sh', ['-c', 'command -v actionlint'], { encoding: 'utf8' }).stdout.trim() || undefined;

function lint(workflow: string) {
  return spawnSync(actionlint!, ['-no-color', '-config-file', join(EXAMPLES, 'actionlint.yaml'), workflow], { encoding: 'utf8', timeout: 30_000 });
}

describe('examples/ci/github-actions.yml', () => {
  it.skipIf(!actionlint)('passes actionlint', () => {
    const run = lint(join(EXAMPLES, 'github-actions.yml'));
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it.skipIf(!actionlint)('fails actionlint once broken: the lint is really run', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ci-recipe-'));
    try {
      const broken = join(dir, 'broken.yml');
      writeFileSync(broken, readFileSync(join(EXAMPLES, 'github-actions.yml'), 'utf8').replace('secrets.STAGING_CONTROL_TOKEN', 'secret.STAGING_CONTROL_TOKEN'));
      const run = lint(broken);
      expect(run.status).not.toBe(0);
      expect(run.stdout).toMatch(/secret/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  const workflow = () => parse(readFileSync(join(EXAMPLES, 'github-actions.yml'), 'utf8')) as { jobs: Record<string, { steps: Array<{ env?: Record<string, unknown>; with?: Record<string, unknown>; run?: string }> }> };

  it('publishes the junit.xml of the report directory the run writes to', () => {
    const steps = workflow().jobs['certify-staging']!.steps;
    const reportDir = steps.find((step) => step.env?.CERTIFY_REPORT_DIR)!.env!.CERTIFY_REPORT_DIR;
    expect(steps.some((step) => step.with?.report_paths === `${String(reportDir)}/junit.xml`)).toBe(true);
  });

  it('load-tests and publishes the load-junit.xml of the report directory the load run writes to', () => {
    const steps = workflow().jobs['load-staging']!.steps;
    const load = steps.find((step) => step.env?.LOAD_REPORT_DIR)!;
    expect(load.run).toMatch(/^npx svc-harness load( |$)/);
    expect(steps.some((step) => step.with?.report_paths === `${String(load.env!.LOAD_REPORT_DIR)}/load-junit.xml`)).toBe(true);
  });
});

describe('examples/ci/gitlab-ci.yml', () => {
  it('certifies and reports the junit.xml of the report directory the run writes to, even when the run fails', () => {
    const pipeline = parse(readFileSync(join(EXAMPLES, 'gitlab-ci.yml'), 'utf8')) as Record<string, { script: string[]; variables: Record<string, string>; artifacts: { when: string; reports: { junit: string } } }>;
    const job = pipeline['certify-staging']!;
    expect(job.script.some((line) => /svc-harness certify$/.test(line))).toBe(true);
    expect(job.artifacts.when).toBe('always');
    expect(job.artifacts.reports.junit).toBe(`harness/${job.variables.CERTIFY_REPORT_DIR}/junit.xml`);
  });

  it('load-tests by hand and reports the load-junit.xml of the report directory the load run writes to, even when thresholds fail', () => {
    const pipeline = parse(readFileSync(join(EXAMPLES, 'gitlab-ci.yml'), 'utf8')) as Record<string, { when?: string; needs?: string[]; script: string[]; variables: Record<string, string>; artifacts: { when: string; paths: string[]; reports: { junit: string } } }>;
    const job = pipeline['load-staging']!;
    // Started by hand through the k6 build it needs, whose artifact is the binary it runs.
    expect(pipeline[job.needs![0]!]!.when).toBe('manual');
    expect(job.variables.LOAD_K6_BINARY).toBe(`$CI_PROJECT_DIR/${pipeline[job.needs![0]!]!.artifacts.paths[0]}`);
    expect(pipeline[job.needs![0]!]!.script.join('\n')).toContain(`${K6_MODULE}@${K6_VERSION}`);
    expect(job.script.some((line) => /svc-harness load( |$)/.test(line))).toBe(true);
    expect(job.artifacts.when).toBe('always');
    expect(job.artifacts.reports.junit).toBe(`harness/${job.variables.LOAD_REPORT_DIR}/load-junit.xml`);
  });
});
