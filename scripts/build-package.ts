/**
 * `npm pack` and `npm publish` run this first (package.json "prepack"):
 * - the bundle an installed harness starts from, in dist/ (src/cli/bundle.ts);
 * - npm-shrinkwrap.json, the lockfile's copy that a package carries, so that an install
 *   gets the dependency tree the harness was tested with, not a fresh resolution.
 * "postpack" removes both again, so that a clone keeps starting from its own sources.
 */
import { copyFileSync } from 'node:fs';
import { relative } from 'node:path';
import { writePackageBundle } from '../src/cli/bundle.js';

const bundle = await writePackageBundle();
copyFileSync('package-lock.json', 'npm-shrinkwrap.json');
process.stdout.write(
  `bundled the harness into ${relative(process.cwd(), bundle)}; npm-shrinkwrap.json from package-lock.json\n`,
);
