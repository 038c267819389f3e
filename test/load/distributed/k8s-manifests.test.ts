import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments, stringify } from 'yaml';
import { K6_VERSION } from '../../../src/load/k6/binary.js';
import { k8sManifests, SAMPLES_CLAIM, secretManifest } from '../../../src/load/distributed/k8s-manifests.js';

const manifests = k8sManifests();

type Schema = Record<string, unknown>;

/**
 * The schema as strict field validation applies it: an object that names its properties
 * takes no others (the API server would drop them, kubectl --validate=strict refuses them).
 */
function strict(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strict);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Schema = Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === 'properties'
        ? Object.fromEntries(Object.entries(value as Schema).map(([k, v]) => [k, strict(v)]))
        : strict(value),
    ]),
  );
  if (out.properties && out.additionalProperties === undefined && !out['x-kubernetes-preserve-unknown-fields'])
    out.additionalProperties = false;
  return out;
}

/** The TestRun schema of k6-operator's CRD (fixtures/k6-operator/), compiled strictly. */
function testRunValidator(): ValidateFunction {
  const crd = parseAllDocuments(readFileSync('fixtures/k6-operator/k6.io_testruns.yaml', 'utf8')).map((doc) =>
    doc.toJS(),
  )[0] as {
    spec: { versions: Array<{ name: string; schema: { openAPIV3Schema: Schema } }> };
  };
  const schema = crd.spec.versions.find((version) => version.name === 'v1alpha1')!.schema.openAPIV3Schema;
  const ajv = new Ajv({
    allErrors: true,
    strictSchema: true,
    strictTypes: false,
    strictRequired: false,
    formats: { int32: true, int64: true, 'date-time': true },
  });
  for (const keyword of [
    'x-kubernetes-int-or-string',
    'x-kubernetes-list-map-keys',
    'x-kubernetes-list-type',
    'x-kubernetes-map-type',
    'x-kubernetes-preserve-unknown-fields',
  ])
    ajv.addKeyword(keyword);
  return ajv.compile(strict(schema) as Schema);
}

const validateTestRun = testRunValidator();
const problems = (text: string): string[] => {
  const [doc] = parseAllDocuments(text);
  if (!doc || doc.errors.length > 0) return [`not YAML: ${doc?.errors.map((e) => e.message).join('; ') ?? 'empty'}`];
  return validateTestRun(doc.toJS())
    ? []
    : (validateTestRun.errors ?? []).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
};

interface TestRun {
  spec: {
    parallelism: number;
    cleanup: string;
    arguments: string;
    script: { configMap: { name: string; file: string } };
    runner: {
      image: string;
      env: Array<{ name: string; value?: string }>;
      envFrom: Array<{ secretRef: { name: string } }>;
      volumeMounts: Array<{ name: string; mountPath: string }>;
      volumes: Array<{ name: string; persistentVolumeClaim: { claimName: string } }>;
    };
  };
}

const testRuns = Object.entries(manifests).filter(([path]) => path.includes('/testrun-'));
const parsed = (text: string): TestRun => parse(text) as TestRun;
const envOf = (run: TestRun): Record<string, string | undefined> =>
  Object.fromEntries(run.spec.runner.env.map((entry) => [entry.name, entry.value]));
/** The manifest `text` with `change` made to its object, written back as YAML. */
const changed = (text: string, change: (run: TestRun & Record<string, unknown>) => void): string => {
  const run = parsed(text) as TestRun & Record<string, unknown>;
  change(run);
  return stringify(run);
};

describe('k6-operator manifests (load/k8s/)', () => {
  it('are the generated ones: run `npm run docs` after changing src/load/distributed/k8s-manifests.ts', () => {
    for (const [path, text] of Object.entries(manifests)) expect(readFileSync(path, 'utf8'), path).toBe(text);
  });

  it("keep LOAD_INSTANCES equal to the parallelism, clean up after the run and write every runner's samples to the shared volume", () => {
    expect(testRuns.map(([path]) => path).sort()).toEqual([
      'load/k8s/testrun-calls-ramp.yaml',
      'load/k8s/testrun-calls.yaml',
      'load/k8s/testrun-fanout.yaml',
      'load/k8s/testrun-rotation.yaml',
    ]);
    for (const [path, text] of testRuns) {
      const run = parsed(text);
      expect(run.spec.parallelism, path).toBeGreaterThan(0);
      expect(envOf(run).LOAD_INSTANCES, path).toBe(String(run.spec.parallelism));
      expect(run.spec.cleanup, path).toBe('post');
      expect(run.spec.arguments, path).toMatch(/--out json=\/samples\/\$\(POD_NAME\)\.ndjson\.gz$/);
      expect(run.spec.runner.volumeMounts, path).toEqual([{ name: 'samples', mountPath: '/samples' }]);
      expect(run.spec.runner.volumes, path).toEqual([
        { name: 'samples', persistentVolumeClaim: { claimName: SAMPLES_CLAIM } },
      ]);
      expect(run.spec.runner.image, path).toBe(`grafana/k6:${K6_VERSION.slice(1)}`);
      expect(envOf(run).K6_AUTO_EXTENSION_RESOLUTION, path).toBe('false');
      // Every value of the environment is a string, as Kubernetes requires.
      for (const entry of run.spec.runner.env)
        if (entry.name !== 'POD_NAME') expect(typeof entry.value, `${path}: ${entry.name}`).toBe('string');
      // Tabs are not YAML indentation, and every nesting step is two spaces.
      for (const line of text.split('\n')) expect(/^( *)/.exec(line)![1]!.length % 2, `${path}: ${line}`).toBe(0);
      expect(text).not.toContain('\t');
    }
  });

  it("leave fan-out's receiver thresholds to the merge, and read the Secret fanout-host writes", () => {
    const [, text] = testRuns.find(([path]) => path.endsWith('testrun-fanout.yaml'))!;
    const fanout = parsed(text);
    expect(envOf(fanout).LOAD_MERGED_VERDICT).toBe('true');
    expect(fanout.spec.runner.envFrom).toEqual([{ secretRef: { name: 'svc-load-fanout' } }]);
    expect(fanout.spec.script.configMap.file).toBe('fanout.js');
  });

  it("are TestRuns as k6-operator's CRD defines them, unknown fields refused", () => {
    for (const [path, text] of testRuns) expect(problems(text), path).toEqual([]);
  });

  it('would refuse a misspelt field, a misplaced one or a value outside an enum', () => {
    const [, calls] = testRuns.find(([path]) => path.endsWith('testrun-calls.yaml'))!;
    const misspelt = changed(calls, ({ spec }) => {
      Object.assign(spec, { cleanUp: spec.cleanup });
      delete (spec as Partial<TestRun['spec']>).cleanup;
    });
    expect(problems(misspelt).join('\n')).toMatch(/\/spec must NOT have additional properties.*cleanUp/);
    const always = changed(calls, ({ spec }) => {
      spec.cleanup = 'always';
    });
    expect(problems(always).join('\n')).toMatch(/\/spec\/cleanup must be equal to one of the allowed values/);
    const misplaced = changed(calls, ({ spec }) => {
      Object.assign(spec.runner, { volumeMount: spec.runner.volumeMounts });
      delete (spec.runner as Partial<TestRun['spec']['runner']>).volumeMounts;
    });
    expect(problems(misplaced).join('\n')).toMatch(/\/spec\/runner must NOT have additional properties.*volumeMount/);
    expect(problems(changed(calls, ({ spec }) => Object.assign(spec, { parallelism: '4' }))).join('\n')).toMatch(
      /\/spec\/parallelism must be integer/,
    );
  });
});

describe('Secret manifests', () => {
  it('keep every value a string, whatever it looks like, and the name as given', () => {
    const values = {
      SVC_BASE_URL: 'https://staging.example.test:8443/v1',
      LOAD_ENDPOINTS: '25',
      LOAD_MERGED_VERDICT: 'true',
      ODD: 'a: b # c',
      EMPTY: '',
      LINES: 'one\ntwo',
    };
    const secret = parse(secretManifest('svc-load-fanout', values)) as Record<string, unknown>;
    expect(secret).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'svc-load-fanout' },
      type: 'Opaque',
      stringData: values,
    });
  });
});
