/** `npm run load:build`: bundles load/scenarios/*.ts into load/dist/*.js only (src/load/k6/bundle.ts). */
import { relative } from 'node:path';
import { buildLoadScripts } from '../src/load/k6/bundle.js';

const started = Date.now();
const bundles = await buildLoadScripts();
for (const [name, path] of Object.entries(bundles)) process.stdout.write(`${name}: ${relative(process.cwd(), path)}\n`);
process.stdout.write(`bundled ${Object.keys(bundles).length} scenarios in ${Date.now() - started} ms\n`);
