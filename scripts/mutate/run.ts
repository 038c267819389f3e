/**
 * `npm run mutate [-- <module>...] [--concurrency N] [--force] [--files <glob>] [--areas <a,b>]`: StrykerJS over the reference's
 * modules (calls, auth, webhooks; default all three, smallest first), each mutant certified
 * with only its module's checks (scripts/mutate/certify-mutant.ts). Incremental: a module's
 * later run re-tests only the mutants whose code or module changed since (`--force`: all).
 * Reports (HTML, JSON) and the incremental file go to reports/mutation/<module>/, out of git.
 * Exit 0 when every module ran, 1 when one could not (Stryker's message says why).
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Stryker } from '@stryker-mutator/core';
import type { PartialStrykerOptions } from '@stryker-mutator/api/core';
import { isModuleName, MODULE_NAMES, MODULES, narrowedAreas, type ModuleName } from './modules.js';
import { withScratchTmpdir } from './scratch.js';

const ROOT = resolve(import.meta.dirname, '../..');
const REPORTS = 'reports/mutation';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    concurrency: { type: 'string', default: '1' },
    force: { type: 'boolean', default: false },
    // Narrows a module to some of its files (a Stryker glob, repeatable): a run that fits the time there is.
    files: { type: 'string', multiple: true },
    // Narrows the judging checks to some of the module's areas: for files only those areas' checks
    // reach (docs/proving.md says which), so that a survivor costs their checks, not the module's.
    areas: { type: 'string' },
  },
});
const unknown = positionals.filter((name) => !isModuleName(name));
const concurrency = Number(values.concurrency);
if (
  unknown.length > 0 ||
  !Number.isInteger(concurrency) ||
  concurrency < 1 ||
  (values.areas !== undefined && positionals.length !== 1)
) {
  console.error(
    `mutate: usage: npm run mutate [-- ${MODULE_NAMES.join('|')} ...] [--concurrency N] [--force] [--files <glob>] [--areas <area>,… (one module)]`,
  );
  process.exit(2);
}
const modules = positionals.length > 0 ? (positionals as ModuleName[]) : [...MODULE_NAMES];
try {
  for (const module of modules) narrowedAreas(module, values.areas);
} catch (error) {
  console.error(`mutate: ${(error as Error).message}`);
  process.exit(2);
}

process.chdir(ROOT);
// Each mutant runs the harness from its bundle: made once here, not by the first mutants at once.
spawnSync(process.execPath, ['bin/svc-harness.js', '--help'], { stdio: 'ignore' });

let failed = false;
for (const module of modules) {
  const started = Date.now();
  try {
    const results = await withScratchTmpdir(() => new Stryker(strykerOptions(module)).runMutationTest());
    const minutes = ((Date.now() - started) / 60_000).toFixed(1);
    console.log(
      `mutate ${module}: ${results.length} mutants in ${minutes} min; report ${REPORTS}/${module}/index.html`,
    );
  } catch (error) {
    failed = true;
    console.error(`mutate ${module}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
process.exit(failed ? 1 : 0);

function strykerOptions(module: ModuleName): PartialStrykerOptions {
  const out = `${REPORTS}/${module}`;
  return {
    mutate: values.files ?? [...MODULES[module].mutate],
    testRunner: 'command',
    commandRunner: {
      command: `node --import tsx ${join(ROOT, 'scripts/mutate/certify-mutant.ts')} ${module}${values.areas ? ` ${values.areas}` : ''}`,
    },
    plugins: ['@stryker-mutator/typescript-checker', join(ROOT, 'scripts/mutate/fault-switch-ignorer.js')],
    ignorers: ['fault-switches'],
    // A mutant that does not compile is dropped before any run (CompileError, not counted).
    checkers: ['typescript'],
    tsconfigFile: 'tsconfig.mutate.json',
    typescriptChecker: { prioritizePerformanceOverAccuracy: true },
    concurrency,
    // A survivor may take two whole runs and two confirmations (certify-mutant.ts); a loaded
    // machine must not turn it into a "timeout", which counts as detected.
    timeoutFactor: 3,
    timeoutMS: 30_000,
    incremental: true,
    // A run judged by fewer areas keeps its results apart: a later whole-module run must not reuse its survivors.
    incrementalFile: `${out}/incremental${values.areas ? `-${values.areas.replaceAll(',', '+')}` : ''}.json`,
    force: values.force,
    // One per module, so that two modules can run side by side.
    tempDirName: `${out}/.stryker-tmp`,
    // The sandbox needs the reference and how to load it; the harness runs from this folder.
    ignorePatterns: ['/*', '!/reference', '!/package.json', '!/tsconfig.json', '!/tsconfig.mutate.json'],
    reporters: ['html', 'json', 'clear-text', 'progress'],
    htmlReporter: { fileName: `${out}/index.html` },
    jsonReporter: { fileName: `${out}/mutation.json` },
  };
}
