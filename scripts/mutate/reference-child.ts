/**
 * The mutated reference, in a process of its own: Stryker's sandbox is the working folder,
 * so `reference/` here is the instrumented copy, and `__STRYKER_ACTIVE_MUTANT__` (inherited)
 * switches one mutant on. Its own process, because a mutant may loop for ever: the parent
 * must still be able to stop it. Prints one JSON line, `{ baseUrl, controlUrl }`, once it
 * listens; stops when its standard input closes (the parent ended) or on SIGTERM.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as ReferenceModule from '../../reference/index.js';

const controlToken = process.env.MUTATE_CONTROL_TOKEN;
if (!controlToken) {
  process.stderr.write('reference-child: MUTATE_CONTROL_TOKEN is not set (scripts/mutate/certify-mutant.ts sets it)\n');
  process.exit(2);
}

const entry = pathToFileURL(join(process.cwd(), 'reference', 'index.ts')).href;
const { startReference } = (await import(entry)) as typeof ReferenceModule;
const reference = await startReference({ quiet: true, controlToken });
process.stdout.write(`${JSON.stringify({ baseUrl: reference.baseUrl, controlUrl: reference.controlUrl })}\n`);

let stopping = false;
const stop = (): void => {
  if (stopping) return;
  stopping = true;
  // A mutant may keep close() from ending: the parent's kill is the bound, this one the courtesy.
  setTimeout(() => process.exit(0), 2_000).unref();
  void reference.close().finally(() => process.exit(0));
};
process.stdin.on('end', stop).on('close', stop).resume();
process.on('SIGTERM', stop);
