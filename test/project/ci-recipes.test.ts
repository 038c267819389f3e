/**
 * The CI recipes users copy (examples/ci/): the GitHub Actions workflow passes actionlint (built
 * by .ci/run from its Go module into .tools/bin), and a broken copy of it does not; each recipe
 * certifies and load-tests, publishing junit.xml and load-junit.xml where the runs write them;
 * and every outside reference is pinned: the harness to an exact npm version (never a clone of a
 * branch), each action to a full commit, each image to a full version or a digest, k6 to the
 * release the harness pins. Each pin rule is a function of the text, shown to fail on an
 * unpinned copy.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { K6_VERSION } from '../../src/load/k6/binary.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const EXAMPLES = join(ROOT, 'examples/ci');
const INSTALLED = join(ROOT, '.tools/bin/actionlint');
const actionlint = existsSync(INSTALLED)
  ? INSTALLED
  : spawnSync('sh', ['-c', 'command -v actionlint'], { encoding: 'utf8' }).stdout.trim() || undefined;
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
/** k6's release as its image and its setup action name it: 2.2.0. */
const K6_RELEASE = K6_VERSION.replace(/^v/, '');

const GITHUB = readFileSync(join(EXAMPLES, 'github-actions.yml'), 'utf8');
const GITLAB = readFileSync(join(EXAMPLES, 'gitlab-ci.yml'), 'utf8');

function lint(workflow: string) {
  return spawnSync(actionlint!, ['-no-color', '-config-file', join(EXAMPLES, 'actionlint.yaml'), workflow], {
    encoding: 'utf8',
    timeout: 30_000,
  });
}

/** `uses:` references that are not `owner/repo@<40-hex commit>  # vX.Y.Z`. */
function unpinnedActions(workflow: string): string[] {
  return [...workflow.matchAll(/^\s*(?:-\s+)?uses:\s*(\S+)(.*)$/gm)]
    .filter(
      ([, ref, rest]) =>
        !/^[\w.-]+\/[\w.-]+(?:\/[\w./-]+)?@[0-9a-f]{40}$/.test(ref!) || !/#\s*v\d+\.\d+\.\d+\s*$/.test(rest!),
    )
    .map(([, ref]) => ref!);
}

/** Installs of the harness that are not its npm package at an exact version, and clones of it. */
function unpinnedHarness(text: string): string[] {
  const bad: string[] = [];
  for (const [install] of text.matchAll(new RegExp(`${PACKAGE.name}(?:@\\S*)?`, 'g'))) {
    if (!new RegExp(`^${PACKAGE.name}@\\d+\\.\\d+\\.\\d+$`).test(install)) bad.push(install);
  }
  for (const [clone] of text.matchAll(/git clone\b.*|repository:\s*\S+|npx tsx scripts\/\S+/g)) bad.push(clone);
  return bad;
}

/** Images that are not at a full version (name:1.2.3[-variant]) or a digest (name@sha256:…). */
function unpinnedImages(pipeline: Record<string, { image?: string | { name: string } }>): string[] {
  return Object.values(pipeline)
    .map((job) => (typeof job.image === 'string' ? job.image : job.image?.name))
    .filter((image): image is string => image !== undefined)
    .filter((image) => !/@sha256:[0-9a-f]{64}$/.test(image) && !/:\d+\.\d+\.\d+(?:-[\w.-]+)?$/.test(image));
}

const harnessVersions = (text: string) =>
  [...text.matchAll(new RegExp(`${PACKAGE.name}@(\\d+\\.\\d+\\.\\d+)`, 'g'))].map((match) => match[1]!);
const atMost = (version: string, bound: string) => {
  const [a, b] = [version, bound].map((v) => v.split('.').map(Number));
  for (let i = 0; i < 3; i++) if (a![i] !== b![i]) return a![i]! < b![i]!;
  return true;
};

type Step = { uses?: string; env?: Record<string, unknown>; with?: Record<string, unknown>; run?: string; if?: string };
const workflow = () => parse(GITHUB) as { jobs: Record<string, { steps: Step[] }> };
type GitlabJob = {
  image?: string | { name: string; entrypoint?: string[] };
  when?: string;
  needs?: string[];
  script: string[];
  variables: Record<string, string>;
  artifacts: { when?: string; paths: string[]; reports?: { junit: string } };
};
const pipeline = () => parse(GITLAB) as Record<string, GitlabJob>;

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
      writeFileSync(broken, GITHUB.replace('secrets.STAGING_CONTROL_TOKEN', 'secret.STAGING_CONTROL_TOKEN'));
      const run = lint(broken);
      expect(run.status).not.toBe(0);
      expect(run.stdout).toMatch(/secret/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('pins every action to a full commit, with its release tag beside it', () => {
    expect(GITHUB).toMatch(/uses:/);
    expect(unpinnedActions(GITHUB)).toEqual([]);
  });

  it('installs the harness from npm at an exact, released version, never a clone of a branch', () => {
    expect(unpinnedHarness(GITHUB)).toEqual([]);
    const versions = harnessVersions(GITHUB);
    expect(versions.length).toBeGreaterThan(0);
    for (const version of versions)
      expect(atMost(version, PACKAGE.version), `${version} is later than ${PACKAGE.version}`).toBe(true);
  });

  it('publishes the junit.xml of the report directory the run writes to, and its report.md as the job summary', () => {
    const steps = workflow().jobs['certify-staging']!.steps;
    const reportDir = String(steps.find((step) => step.env?.CERTIFY_REPORT_DIR)!.env!.CERTIFY_REPORT_DIR);
    expect(steps.some((step) => step.with?.report_paths === `${reportDir}/junit.xml`)).toBe(true);
    const summary = steps.find((step) => step.run?.includes('$GITHUB_STEP_SUMMARY'))!;
    expect(summary.run).toContain(`cat ${reportDir}/report.md >> "$GITHUB_STEP_SUMMARY"`);
    expect(summary.if).toBe('always()');
  });

  it('load-tests with k6 from its pinned setup action, at the release the harness pins (no Go build)', () => {
    const steps = workflow().jobs['load-staging']!.steps;
    const k6 = steps.find((step) => step.uses?.startsWith('grafana/setup-k6-action@'))!;
    expect(String(k6.with!['k6-version'])).toBe(K6_RELEASE);
    expect(steps.some((step) => step.uses?.startsWith('actions/setup-go@'))).toBe(false);
    const load = steps.find((step) => step.env?.LOAD_REPORT_DIR)!;
    expect(load.run).toMatch(/^svc-harness load( |$)/);
    expect(
      steps.some((step) => step.with?.report_paths === `${String(load.env!.LOAD_REPORT_DIR)}/load-junit.xml`),
    ).toBe(true);
  });
});

describe('examples/ci/gitlab-ci.yml', () => {
  it('certifies and reports the junit.xml of the report directory the run writes to, even when the run fails', () => {
    const job = pipeline()['certify-staging']!;
    expect(job.script.some((line) => /svc-harness certify( |$)/.test(line))).toBe(true);
    expect(job.artifacts.when).toBe('always');
    expect(job.artifacts.paths).toContain(`${job.variables.CERTIFY_REPORT_DIR}/`);
    expect(job.artifacts.reports!.junit).toBe(`${job.variables.CERTIFY_REPORT_DIR}/junit.xml`);
  });

  it('pins every image to a full version, and the harness to an exact npm version', () => {
    expect(unpinnedImages(pipeline())).toEqual([]);
    expect(unpinnedHarness(GITLAB)).toEqual([]);
    for (const version of harnessVersions(GITLAB)) expect(atMost(version, PACKAGE.version)).toBe(true);
    // One version across both recipes: they are raised together.
    expect(new Set([...harnessVersions(GITHUB), ...harnessVersions(GITLAB)]).size).toBe(1);
  });

  it('load-tests by hand with k6 from the grafana/k6 image of the pinned release, reporting load-junit.xml even when thresholds fail', () => {
    const jobs = pipeline();
    const job = jobs['load-staging']!;
    const k6 = jobs[job.needs![0]!]!;
    // Started by hand through the k6 job it needs, whose artifact is the binary it runs.
    expect(k6.when).toBe('manual');
    expect(k6.image).toEqual({ name: `grafana/k6:${K6_RELEASE}`, entrypoint: [''] });
    expect(job.variables.LOAD_K6_BINARY).toBe(`$CI_PROJECT_DIR/${k6.artifacts.paths[0]}`);
    expect(job.script.some((line) => /svc-harness load( |$)/.test(line))).toBe(true);
    expect(job.artifacts.when).toBe('always');
    expect(job.artifacts.reports!.junit).toBe(`${job.variables.LOAD_REPORT_DIR}/load-junit.xml`);
  });
});

describe('the pin rules, on recipes that break them', () => {
  it('an action at a tag or a branch, or at a commit without its release beside it, is unpinned', () => {
    expect(unpinnedActions('      - uses: grafana/setup-k6-action@v1\n')).toEqual(['grafana/setup-k6-action@v1']);
    expect(unpinnedActions('      - uses: actions/checkout@main\n')).toEqual(['actions/checkout@main']);
    expect(unpinnedActions(`      - uses: actions/checkout@${'a'.repeat(40)}\n`)).toEqual([
      `actions/checkout@${'a'.repeat(40)}`,
    ]);
    expect(unpinnedActions(GITHUB.replace(/setup-k6-action@[0-9a-f]{40}/, 'setup-k6-action@v1'))).toEqual([
      'grafana/setup-k6-action@v1',
    ]);
  });

  it('the harness at a range, latest or unversioned, or cloned from a branch, is unpinned', () => {
    for (const install of ['^0.1.0', 'latest', '0.1'])
      expect(unpinnedHarness(GITHUB.replaceAll('@0.1.0', `@${install}`))).not.toEqual([]);
    expect(unpinnedHarness('npm install -g svc-conformance-harness')).toEqual(['svc-conformance-harness']);
    expect(
      unpinnedHarness('git clone --depth 1 https://github.com/your-org/svc-conformance-harness.git harness'),
    ).not.toEqual([]);
    expect(unpinnedHarness('        with:\n          repository: your-org/svc-conformance-harness\n')).not.toEqual([]);
  });

  it('an image at a major tag, latest or none is unpinned; a digest is pinned', () => {
    expect(
      unpinnedImages({
        a: { image: 'node:24-bookworm' },
        b: { image: 'grafana/k6' },
        c: { image: { name: 'grafana/k6:latest' } },
      }),
    ).toEqual(['node:24-bookworm', 'grafana/k6', 'grafana/k6:latest']);
    expect(
      unpinnedImages({ a: { image: `node@sha256:${'0'.repeat(64)}` }, b: { image: 'node:24.21.0-bookworm' } }),
    ).toEqual([]);
  });
});
