/**
 * The mutants Stryker's own instrumenter makes of one file, with the fault-switch ignorer, without
 * running any: a mutant with no status runs; one with a status is left out, its reason in
 * `statusReason` (the ignorer's, or a `// Stryker disable` comment's).
 */
import { Instrumenter } from '@stryker-mutator/instrumenter';
import { strykerPlugins } from './fault-switch-ignorer.js';

type Ignorer = Parameters<Instrumenter['instrument']>[1]['ignorers'][number];
export type PlannedMutant = Awaited<ReturnType<Instrumenter['instrument']>>['mutants'][number];

const never = () => false;
const nothing = () => undefined;
const toStderr = (message: string) => console.error(message);
/** Stryker's logger, quiet but for warnings and errors (an unused disable comment is a warning). */
const logger = {
  trace: nothing,
  debug: nothing,
  info: nothing,
  warn: toStderr,
  error: toStderr,
  fatal: toStderr,
  isTraceEnabled: never,
  isDebugEnabled: never,
  isInfoEnabled: never,
  isWarnEnabled: () => true,
  isErrorEnabled: () => true,
  isFatalEnabled: () => true,
};

export async function plannedMutants(name: string, content: string): Promise<readonly PlannedMutant[]> {
  const { mutants } = await new Instrumenter(logger).instrument([{ name, content, mutate: true }], {
    plugins: null,
    excludedMutations: [],
    ignorers: [strykerPlugins[0]!.value as Ignorer],
  });
  return mutants;
}
