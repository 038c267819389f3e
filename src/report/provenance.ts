/**
 * What ties a verdict to what was tested and by what: the harness's build, the digests of the
 * spec and the catalog the checks were judged by, the control contract's version, the
 * service's version as its owner names it and, for an image, its digest. report.json carries
 * it as `provenance`; the attestation (src/attest/) carries the same values.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { CATALOG } from '../catalog/checks.js';
import { CONTROL_CONTRACT, SPEC_DOCUMENT } from '../catalog/documents.js';
import { HARNESS_NAME, HARNESS_VERSION } from '../version.js';

const PROJECT_ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const GIT_TIMEOUT_MS = 5_000;

const SHA256 = z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 in lower-case hex');

export const PROVENANCE = z
  .object({
    harness: z.object({
      name: z.string(),
      version: z.string().describe("package.json's version"),
      build: z
        .object({
          source: z
            .enum(['git', 'package'])
            .describe('git: run from a clone; package: run from an installed package (its version is the build)'),
          commit: z
            .string()
            .regex(/^[0-9a-f]{40,64}$/)
            .optional()
            .describe("the clone's HEAD commit"),
          modified: z
            .boolean()
            .optional()
            .describe(
              'the clone had uncommitted changes to tracked files: the commit alone does not name the code that ran',
            ),
        })
        .describe('which build of the harness ran'),
    }),
    spec: z
      .object({ document: z.string(), sha256: SHA256 })
      .describe('the spec text the catalog quotes (src/catalog/documents.ts)'),
    control_contract: z
      .object({ document: z.string(), version: z.number().int().positive(), sha256: SHA256 })
      .describe('the control contract the harness speaks'),
    catalog: z
      .object({ sha256: SHA256, checks: z.number().int().nonnegative() })
      .describe(
        'the check catalog (src/catalog/checks.ts): sha256 of its canonical JSON (keys sorted, no white space), and its number of entries',
      ),
    target_version: z
      .string()
      .optional()
      .describe(
        'CERTIFY_TARGET_VERSION (or --target-version): the service version as its owner names it; absent when not given',
      ),
    image: z
      .object({
        reference: z.string().describe('SVC_IMAGE as given'),
        digest: z
          .string()
          .regex(/^sha256:[0-9a-f]{64}$/)
          .describe("the image's id: sha256 of its configuration, as the engine reports it"),
        repo_digests: z
          .array(z.string())
          .optional()
          .describe('the registry digests the engine knows for it (name@sha256:...), when it was pulled or pushed'),
      })
      .optional()
      .describe('the container image certified (SVC_IMAGE); absent for other targets'),
  })
  .describe('what ties the verdict to what was tested and by what');

export type Provenance = z.infer<typeof PROVENANCE>;
export type ImageProvenance = NonNullable<Provenance['image']>;

/** JSON with object keys sorted and no white space: one text, so one digest, for one value. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value))
    return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
}

export const sha256Hex = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

/** sha256 of the catalog's canonical JSON: changes with any id, title, clause, level or tier. */
export function catalogDigest(): { sha256: string; checks: number } {
  return { sha256: sha256Hex(canonicalJson(CATALOG)), checks: CATALOG.length };
}

/**
 * The clone's commit when the harness runs from one (its own `.git`, not a project's it is
 * installed into); otherwise the package's version names the build.
 */
export function harnessBuild(root = PROJECT_ROOT): Provenance['harness']['build'] {
  if (!existsSync(join(root, '.git'))) return { source: 'package' };
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', root, ...args], {
      encoding: 'utf8',
      timeout: GIT_TIMEOUT_MS,
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  try {
    const commit = git('rev-parse', 'HEAD');
    const modified = git('status', '--porcelain', '--untracked-files=no') !== '';
    return { source: 'git', commit, modified };
  } catch {
    // No git on the machine, or not a usable clone: the version is all that is known.
    return { source: 'package' };
  }
}

export function provenanceOf(options: { targetVersion?: string; image?: ImageProvenance } = {}): Provenance {
  return {
    harness: { name: HARNESS_NAME, version: HARNESS_VERSION, build: harnessBuild() },
    spec: { document: SPEC_DOCUMENT.name, sha256: SPEC_DOCUMENT.sha256 },
    control_contract: {
      document: CONTROL_CONTRACT.name,
      version: CONTROL_CONTRACT.version,
      sha256: CONTROL_CONTRACT.sha256,
    },
    catalog: catalogDigest(),
    ...(options.targetVersion ? { target_version: options.targetVersion } : {}),
    ...(options.image ? { image: options.image } : {}),
  };
}

/** "svc-conformance-harness 0.1.0 (git 3c1c5f3, modified)": the build in one phrase. */
export function buildText(harness: Provenance['harness']): string {
  const { build } = harness;
  const where =
    build.source === 'git' && build.commit
      ? `git ${build.commit.slice(0, 12)}${build.modified ? ', modified' : ''}`
      : 'package';
  return `${harness.name} ${harness.version} (${where})`;
}

/** The provenance in one line, for the console and the human reports. */
export function provenanceLine(provenance: Provenance): string {
  const parts = [
    `harness ${buildText(provenance.harness)}`,
    `spec sha256 ${provenance.spec.sha256.slice(0, 12)}`,
    `catalog sha256 ${provenance.catalog.sha256.slice(0, 12)} (${provenance.catalog.checks} entries)`,
    `control contract ${provenance.control_contract.version}`,
    `target version ${provenance.target_version ?? 'not given'}`,
  ];
  if (provenance.image) parts.push(`image ${provenance.image.reference} ${provenance.image.digest}`);
  return parts.join('; ');
}
