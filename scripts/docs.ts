/** `npm run docs`: regenerates docs/traceability.md from the catalog, the spec clauses and the fault registry. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { renderTraceability } from '../src/docs/traceability.js';
import { FAULT_PROOFS } from '../test/faults/registry.js';

mkdirSync('docs', { recursive: true });
writeFileSync('docs/traceability.md', renderTraceability(FAULT_PROOFS));
console.log('wrote docs/traceability.md');
