/**
 * The one file the runner hands to vitest: it imports the suite of every selected area, in
 * the order the runner chose (the areas with the longest checks first), so that every
 * suite's checks run side by side in one worker, bounded by the runner's concurrency limit.
 * One worker keeps one receiver, one identity provider and one ledger for the whole run.
 */
import { inject } from 'vitest';
import { UsageError } from '../src/errors.js';

const areas = inject('suites');
if (!areas) throw new UsageError('no run context: start the suites with `npm run certify`, not with vitest directly');
for (const area of areas) await import(/* @vite-ignore */ `./${area}.suite.ts`);
