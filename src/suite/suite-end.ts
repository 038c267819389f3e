/** Clean-ups that run when the last suite of the run ends: shared workspaces, receivers, identity providers. */
const cleanups: Array<() => Promise<void>> = [];

export function onSuiteEnd(cleanup: () => Promise<void>): void {
  cleanups.push(cleanup);
}

/** Runs them last registered first; a failing clean-up never stops the others. */
export async function runSuiteEndCleanups(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
}
