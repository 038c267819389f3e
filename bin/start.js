// @ts-check
// The harness ships as TypeScript. A run starts from the bundle of its sources while that is
// fresh (bin/fresh-bundle.js), else from the sources through tsx (a runtime dependency),
// making the bundle for the runs after it; where it cannot be made (a read-only install),
// every run starts from the sources.
import { enableCompileCache } from 'node:module';
import { pathToFileURL } from 'node:url';
import { freshBundle } from './fresh-bundle.js';

// V8's code cache on disk, for this process and the suites' worker it forks: a one-check
// certify run took 0.2 CPU-s less. A quiet optimisation: it never throws.
const compileCache = enableCompileCache();
if (compileCache.directory) process.env.NODE_COMPILE_CACHE = compileCache.directory;

const bundle = freshBundle();
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
