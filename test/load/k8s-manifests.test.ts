import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { K6_VERSION } from '../../src/load/k6-binary.js';
import { k8sManifests, SAMPLES_CLAIM } from '../../src/load/k8s-manifests.js';

const manifests = k8sManifests();

type Schema = Record<string, unknown>;

/**
 * The schema as strict field validation applies it: an object that names its properties
 * takes no others (the API server would drop them, kubectl --validate=strict refuses them).
 */
function strict(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strict);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Schema = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, key === 'properties' ? Object.fromEntries(Object.entries(value as Schema).map(([k, v]) => [k, strict(v)])) : strict(value)]));
  if (out.properties && out.additionalProperties === undefined && !out['x-kubernetes-preserve-unknown-fields']) out.additionalProperties = false;
  return out;
}

/** The TestRun schema of k6-operator's CRD (fixtures/k6-operator/), compiled strictly. */
function testRunValidator(): ValidateFunction {
  const crd = parseAllDocuments(readFileSync('fixtures/k6-operator/k6.io_testruns.yaml', 'utf8')).map((doc) => doc.toJS())[0] as {
    spec: { versions: Array<{ name: string; schema: { openAPIV3Schema: Schema } }> };
  };
  const schema = crd.spec.versions.find((version) => version.name === 'v1alpha1')!.schema.openAPIV3Schema;
  const ajv = new Ajv({ allErrors: true, strictSchema: true, strictTypes: false, strictRequired: false, formats: { int32: true, int64: true, 'date-time': true } });
  for (const keyword of ['x-kubernetes-int-or-string', 'x-kubernetes-list-map-keys', 'x-kubernetes-list-type', 'x-kubernetes-map-type', 'x-kubernetes-preserve-unknown-fields']) ajv.addKeyword(keyword);
  return ajv.compile(strict(schema) as Schema);
}

const validateTestRun = testRunValidator();
const problems = (text: string): string[] => {
  const [doc] = parseAllDocuments(text);
  if (!doc || doc.errors.length > 0) return [`not YAML: ${doc?.errors.map((e) => e.message).join('; ') ?? 'empty'}`];
  return validateTestRun(doc.toJS()) ? [] : (validateTestRun.errors ?? []).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
};
const testRuns = Object.entries(manifests).filter(([path]) => path.includes('/testrun-'));

describe('k6-operator manifests (load/k8s/)', () => {
  it('are the generated ones: run `npm run docs` after changing src/load/k8s-manifests.ts', () => {
    for (const [path, text] of Object.entries(manifests)) expect(readFileSync(path, 'utf8'), path).toBe(text);
  });

  it('keep LOAD_INSTANCES equal to the parallelism, clean up after the run and write every runner\'s samples to the shared volume', () => {
    expect(testRuns.map(([path]) => path).sort()).toEqual(['load/k8s/testrun-calls-ramp.yaml', 'load/k8s/testrun-calls.yaml', 'load/k8s/testrun-fanout.yaml', 'load/k8s/testrun-rotation.yaml']);
    for (const [path, text] of testRuns) {
      const parallelism = /^ {2}parallelism: (\d+)$/m.exec(text)?.[1];
      expect(parallelism, path).toBeDefined();
      expect(text, path).toContain(`      - name: LOAD_INSTANCES\n        value: "${parallelism}"`);
      expect(text, path).toMatch(/^ {2}cleanup: post$/m);
      expect(text, path).toMatch(/--out json=\/samples\/\$\(POD_NAME\)\.ndjson\.gz"$/m);
      expect(text, path).toContain(`claimName: ${SAMPLES_CLAIM}`);
      expect(text, path).toContain(`image: grafana/k6:${K6_VERSION.slice(1)}`);
      expect(text, path).toContain('K6_AUTO_EXTENSION_RESOLUTION\n        value: "false"');
      // Tabs are not YAML indentation, and every nesting step is two spaces.
      for (const line of text.split('\n')) expect((/^( *)/.exec(line)![1]!.length) % 2, `${path}: ${line}`).toBe(0);
      expect(text).not.toContain('\t');
    }
  });

  it('leave fan-out\'s receiver thresholds to the merge, and read the Secret fanout-host writes', () => {
    const [, fanout] = testRuns.find(([path]) => path.endsWith('testrun-fanout.yaml'))!;
    expect(fanout).toContain('      - name: LOAD_MERGED_VERDICT\n        value: "true"');
    expect(fanout).toContain('          name: svc-load-fanout\n');
    expect(fanout).toContain('file: fanout.js');
  });

  it('are TestRuns as k6-operator\'s CRD defines them, unknown fields refused', () => {
    for (const [path, text] of testRuns) expect(problems(text), path).toEqual([]);
  });

  it('would refuse a misspelt field, a misplaced one or a value outside an enum', () => {
    const [, calls] = testRuns.find(([path]) => path.endsWith('testrun-calls.yaml'))!;
    expect(problems(calls.replace('  cleanup: post', '  cleanUp: post')).join('\n')).toMatch(/\/spec must NOT have additional properties.*cleanUp/);
    expect(problems(calls.replace('  cleanup: post', '  cleanup: always')).join('\n')).toMatch(/\/spec\/cleanup must be equal to one of the allowed values/);
    expect(problems(calls.replace('    volumeMounts:', '    volumeMount:')).join('\n')).toMatch(/\/spec\/runner must NOT have additional properties.*volumeMount/);
    expect(problems(calls.replace('  parallelism: 4', '  parallelism: "4"')).join('\n')).toMatch(/\/spec\/parallelism must be integer/);
  });
});
