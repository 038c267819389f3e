/** `npm run docs`: regenerates docs/traceability.md, docs/fault-matrix.md, the published JSON Schemas in schemas/ and the k6-operator manifests in load/k8s/. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { CATALOG } from '../src/catalog/checks.js';
import { checkBodyLines, declaredCheckLocations } from '../src/docs/check-bodies.js';
import { renderTraceability } from '../src/docs/traceability.js';
import { renderFaultMatrix } from '../src/docs/fault-matrix.js';
import { PUBLISHED_SCHEMAS } from '../src/docs/schemas.js';
import { k8sManifests } from '../src/load/distributed/k8s-manifests.js';
import { FAULT_PROOFS } from '../test/faults/registry.js';
import { FAULT_EXPECTATIONS } from '../test/receiver-cert/faults.js';

mkdirSync('docs', { recursive: true });
const bodies = checkBodyLines(
  await declaredCheckLocations(),
  CATALOG.map((check) => check.id),
);
writeFileSync(
  'docs/traceability.md',
  renderTraceability({ service: FAULT_PROOFS, receiver: FAULT_EXPECTATIONS }, bodies),
);
console.log('wrote docs/traceability.md');
writeFileSync('docs/fault-matrix.md', renderFaultMatrix());
console.log('wrote docs/fault-matrix.md');
mkdirSync('schemas', { recursive: true });
for (const [path, render] of Object.entries(PUBLISHED_SCHEMAS)) {
  writeFileSync(path, render());
  console.log(`wrote ${path}`);
}
for (const [path, text] of Object.entries(k8sManifests())) {
  writeFileSync(path, text);
  console.log(`wrote ${path}`);
}
