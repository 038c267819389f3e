/**
 * The system's temporary folder for a mutation run: one fresh folder that holds whatever the
 * run's children make there, removed when the run ends. Stryker stops a timed-out mutant by
 * killing its whole process tree, and a mutant's command stops the harness at its first
 * killing verdict the same way: none of them removes its own temporary files (a run's
 * receiver key among them), so the run that started them does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Runs `work` with TMPDIR set to a fresh folder under today's, which is removed afterwards however `work` ends. */
export async function withScratchTmpdir<T>(work: (scratch: string) => Promise<T>): Promise<T> {
  const before = process.env.TMPDIR;
  const scratch = mkdtempSync(join(tmpdir(), 'mutate-'));
  const remove = (): void => rmSync(scratch, { recursive: true, force: true });
  // process.exit skips the finally below; an exit listener still runs.
  process.once('exit', remove);
  process.env.TMPDIR = scratch;
  try {
    return await work(scratch);
  } finally {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    process.removeListener('exit', remove);
    remove();
  }
}
