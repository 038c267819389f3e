/**
 * What every model of the service shares (token-model.ts, endpoint-model.ts): answers as the
 * commands judge them, the steps of a sequence as they ran, and the run of generated
 * sequences (fast-check's model-based commands) that shrinks a violation to its shortest
 * sequence and reports that sequence's steps.
 */
import fc from 'fast-check';

/** What one answer of the target says, as the commands judge it. */
export interface Answer {
  status: number;
  code?: string;
}

/** One operation and what the target answered, for the report. */
export interface Step {
  operation: string;
  answer: string;
}

/** The target of a sequence and the steps it has run so far. */
export interface Real<Target> {
  target: Target;
  steps: Step[];
}

/** The violation of a rule by the target, found by a command's postcondition. */
export class ModelViolation extends Error {}

export const describeAnswer = (answer: Answer): string => `${answer.status}${answer.code ? ` ${answer.code}` : ''}`;
export const is2xx = (answer: Answer): boolean => answer.status >= 200 && answer.status < 300;

/** Runs one operation of the target and records it as a step. */
export async function record<Target>(real: Real<Target>, operation: string, run: () => Promise<Answer>): Promise<Answer> {
  const answer = await run();
  real.steps.push({ operation, answer: describeAnswer(answer) });
  return answer;
}

export interface ModelRunOptions<Target> {
  sequences: number;
  maxSteps: number;
  seed: number;
  /** Generation and shrinking end by then; a run cut short still reports what it found. */
  timeLimitMs: number;
  /** A fresh workspace of the target for each sequence. */
  newTarget(): Promise<Target>;
  /** Errors that end the whole run and are rethrown (the target cannot do an operation), not a counterexample. */
  isFatal(error: unknown): boolean;
}

export interface ModelRunResult {
  sequences: number;
  steps: number;
  /** The shortest failing sequence found (shrunk), its steps as they ran, and why it failed. */
  counterexample?: { steps: Step[]; violation: string };
}

type Command<Model extends object, Target> = fc.AsyncCommand<Model, Real<Target>>;

/**
 * Runs generated sequences of `commands` against fresh workspaces, each starting from
 * `initial()` and each step judged by the model. On a violation fast-check shrinks the
 * sequence; the last sequence that failed is the shrunk one, and its steps as they ran are
 * the counterexample.
 */
export async function runModel<Model extends object, Target>(
  commands: ReadonlyArray<fc.Arbitrary<Command<Model, Target>>>,
  initial: () => Model,
  options: ModelRunOptions<Target>,
): Promise<ModelRunResult> {
  let sequences = 0;
  let steps = 0;
  let lastFailure: ModelRunResult['counterexample'];
  let fatal: { error: unknown } | undefined;
  const result = await fc.check(
    fc.asyncProperty(fc.commands([...commands], { maxCommands: options.maxSteps, size: 'max' }), async (sequence) => {
      if (fatal) return;
      const real: Real<Target> = { target: undefined as unknown as Target, steps: [] };
      try {
        real.target = await options.newTarget();
        sequences += 1;
        await fc.asyncModelRun(() => ({ model: initial(), real }), sequence);
      } catch (error) {
        if (options.isFatal(error)) {
          fatal = { error };
          return;
        }
        lastFailure = { steps: [...real.steps], violation: (error as Error).message };
        throw error;
      } finally {
        steps += real.steps.length;
      }
    }),
    { numRuns: options.sequences, seed: options.seed, interruptAfterTimeLimit: options.timeLimitMs },
  );
  if (fatal) throw fatal.error;
  return { sequences, steps, ...(result.failed ? { counterexample: lastFailure ?? { steps: [], violation: String(result.errorInstance ?? 'the run failed') } } : {}) };
}
