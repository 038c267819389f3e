/**
 * The CI recipes users copy (examples/ci/): the GitHub Actions workflow passes actionlint (built
 * by .ci/run from its Go module into .tools/bin), and a broken copy of it does not; the GitLab job
 * runs the certification and publishes its junit.xml where the run writes it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

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

  it('publishes the junit.xml of the report directory the run writes to', () => {
    const workflow = parse(readFileSync(join(EXAMPLES, 'github-actions.yml'), 'utf8')) as { jobs: Record<string, { steps: Array<{ env?: Record<string, unknown>; with?: Record<string, unknown> }> }> };
    const steps = workflow.jobs['certify-staging']!.steps;
    const reportDir = steps.find((step) => step.env?.CERTIFY_REPORT_DIR)!.env!.CERTIFY_REPORT_DIR;
    expect(steps.some((step) => step.with?.report_paths === `${String(reportDir)}/junit.xml`)).toBe(true);
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
});
