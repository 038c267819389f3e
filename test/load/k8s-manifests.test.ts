import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { K6_VERSION } from '../../src/load/k6-binary.js';
import { k8sManifests, SAMPLES_CLAIM } from '../../src/load/k8s-manifests.js';

const manifests = k8sManifests();
const testRuns = Object.entries(manifests).filter(([path]) => path.includes('/testrun-'));

describe('k6-operator manifests (load/k8s/)', () => {
  it('are the generated ones: run `npm run docs` after changing src/load/k8s-manifests.ts', () => {
    for (const [path, text] of Object.entries(manifests)) expect(readFileSync(path, 'utf8'), path).toBe(text);
  });

  it('keep LOAD_INSTANCES equal to the parallelism, clean up after the run and write every runner\'s samples to the shared volume', () => {
    expect(testRuns.map(([path]) => path).sort()).toEqual(['load/k8s/testrun-calls-ramp.yaml', 'load/k8s/testrun-calls.yaml', 'load/k8s/testrun-rotation.yaml']);
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
});
