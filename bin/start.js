// @ts-check
// An installed package starts from the bundle made when it was packed (dist/). A clone starts
// from the bundle of its sources while that is fresh (src/install/bundles.js), else from the
// sources through tsx, making the bundle for the runs after it.
import { enableCompileCache } from 'node:module';
import { pathToFileURL } from 'node:url';
import { freshBundle, packagedBundle } from '../src/install/bundles.js';

// V8's code cache on disk (under the system's temporary folder, never the install), for this
// process and the suites' worker it forks. A quiet optimisation: it never throws.
const compileCache = enableCompileCache();
if (compileCache.directory) process.env.NODE_COMPILE_CACHE = compileCache.directory;

const bundle = packagedBundle() ?? freshBundle();
/** @type {{ main(argv: readonly string[]): Promise<number> }} */
const cli = bundle ? await import(pathToFileURL(bundle).href) : await fromSources();
process.exit(await cli.main(process.argv.slice(2)));

async function fromSources() {
  const { register } = await import('tsx/esm/api');
  register();
  // tsx finds each .ts source by the .js name its importers use.
  const { writeCliBundle } = await import('../src/cli/bundle.js');
  // For the next run; this one goes on from the sources whatever happens.
  await writeCliBundle().catch(() => undefined);
  return import('../src/cli/main.js');
}
