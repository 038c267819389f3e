/**
 * What every model of the service shares (token-model.ts, endpoint-model.ts): answers as the
 * commands judge them, the steps of a sequence as they ran, and the run of generated
 * sequences (fast-check's model-based commands) that shrinks a violation to its shortest
 * sequence and reports that sequence's steps.
 */
import fc from 'fast-check';
import { isUnanswered, ModelViolation, ScenarioError } from '../../errors.js';
import type { Exchange } from '../../exchange.js';

/** What one answer of the target says, as the commands judge it. */
export interface Answer {
  status: number;
  code?: string;
  /** The HTTP exchange it came in, when a request gave it: a violation's evidence. */
  exchange?: Exchange;
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
  /** The exchange of the last answer judged, shown first when the sequence violates the model. */
  judged?: Exchange;
}

export { ModelViolation, ScenarioError };

export const describeAnswer = (answer: Answer): string => `${answer.status}${answer.code ? ` ${answer.code}` : ''}`;
export const is2xx = (answer: Answer): boolean => answer.status >= 200 && answer.status < 300;

/** Runs one operation of the target and records it as a step. */
export async function record<Target>(
  real: Real<Target>,
  operation: string,
  run: () => Promise<Answer>,
): Promise<Answer> {
  const answer = await run();
  real.steps.push({ operation, answer: describeAnswer(answer) });
  real.judged = answer.exchange;
  return answer;
}

/** How a model removes one of its items (revokes a token, deletes an endpoint). */
export interface Removal<Model, Target> {
  /** The item's name, and the removal as a verb and as a participle: 'token', 'revoke', 'revoked'. */
  item: string;
  verb: string;
  done: string;
  /** The indexes of the items the model holds removed. */
  removed(model: Readonly<Model>): number[];
  remove(target: Target, index: number): Promise<Answer>;
}

/**
 * Removes an already removed item once more: done or refused, either way nothing changes, and
 * no slot is freed twice (the model is left as it was; the next commands judge that).
 */
export class RemoveAgain<Model extends object, Target> implements fc.AsyncCommand<Model, Real<Target>> {
  constructor(
    private readonly removal: Removal<Model, Target>,
    private readonly pick: number,
  ) {}

  check(model: Readonly<Model>): boolean {
    return this.removal.removed(model).length > 0;
  }

  async run(model: Model, real: Real<Target>): Promise<void> {
    const removed = this.removal.removed(model);
    const index = removed[this.pick % removed.length]!;
    await record(real, `${this.removal.verb} ${this.removal.item} ${index + 1} again`, () =>
      this.removal.remove(real.target, index),
    );
  }

  toString(): string {
    return `${this.removal.verb} a ${this.removal.done} ${this.removal.item} again (choice ${this.pick})`;
  }
}

export interface ModelRunOptions<Target> {
  sequences: number;
  maxSteps: number;
  seed: number;
  /** Generation and shrinking end by then; a run cut short still reports what it found. */
  timeLimitMs: number;
  /** When the time limit cut a failure's shrinking short: how much longer it may go on (default: not at all). */
  shrinkLimitMs?: number;
  /** A fresh workspace of the target for each sequence. */
  newTarget(): Promise<Target>;
  /** Errors that end the whole run and are rethrown (the target cannot do an operation), not a counterexample. */
  isFatal(error: unknown): boolean;
  /**
   * Generated sequences run at once (default 1), each stream with its own seed (the run's seed
   * plus its index) and each sequence on its own workspace. Across a network a lone stream spends
   * its time waiting for round trips, and the time limit would cut the run short.
   */
  streams?: number;
}

export interface ModelRunResult {
  /** Sequences run in all: the fixed scenarios, then the generated ones. */
  sequences: number;
  /** Of those, the model's fixed scenarios. */
  scenarios: number;
  steps: number;
  /**
   * The failing sequence, its steps as they ran, and why it failed: a fixed scenario (named
   * by its rule), or else the shortest generated sequence found (shrunk).
   */
  counterexample?: { steps: Step[]; violation: string; scenario?: string; judged?: Exchange };
}

type Command<Model extends object, Target> = fc.AsyncCommand<Model, Real<Target>>;

/**
 * A fixed sequence that breaks if one rule of the model is broken. Generated sequences find
 * a broken rule only with a probability (a few sequences may never re-enable an endpoint and
 * then fire an event); a scenario per rule makes finding it certain, whatever the seed.
 */
export interface Scenario<Model extends object, Target> {
  /** The rule it exercises, for the reader of a counterexample. */
  rule: string;
  commands: ReadonlyArray<Command<Model, Target>>;
}

/**
 * What the sequences of one run share: fresh targets, the tally, and the end of the run on a
 * fatal error. Streams run side by side; once one has failed, the others stop, so that only
 * its shrinking goes on and its last failure is the shrunk counterexample.
 */
class SequenceRunner<Target> {
  sequences = 0;
  steps = 0;
  lastFailure: ModelRunResult['counterexample'];
  fatal: { error: unknown } | undefined;
  private failedStream: number | undefined;

  constructor(private readonly options: ModelRunOptions<Target>) {}

  /** Runs one sequence on a fresh target; a violation is recorded and rethrown, a fatal error ends the run. */
  async run(sequence: (real: Real<Target>) => Promise<void>, stream = 0): Promise<void> {
    if (this.fatal) return;
    if (this.failedStream !== undefined && this.failedStream !== stream) return;
    const real: Real<Target> = { target: undefined as unknown as Target, steps: [] };
    try {
      real.target = await this.options.newTarget();
      this.sequences += 1;
      await sequence(real);
    } catch (error) {
      // A request without an answer is no counterexample: nothing to shrink, the check has no verdict.
      if (this.options.isFatal(error) || isUnanswered(error)) {
        this.fatal = { error };
        return;
      }
      if (this.failedStream !== undefined && this.failedStream !== stream) return;
      this.failedStream = stream;
      this.lastFailure = {
        steps: [...real.steps],
        violation: (error as Error).message,
        ...(real.judged ? { judged: real.judged } : {}),
      };
      throw error;
    } finally {
      this.steps += real.steps.length;
    }
  }
}

async function runScenario<Model extends object, Target>(
  scenario: Scenario<Model, Target>,
  model: Model,
  real: Real<Target>,
): Promise<void> {
  for (const command of scenario.commands) {
    if (!command.check(model))
      throw new ScenarioError(
        `the scenario "${scenario.rule}" holds "${command.toString()}" where its model does not allow it; fix the scenario`,
      );
    await command.run(model, real);
  }
}

/**
 * Runs the model's fixed `scenarios` (always, every one), then generated sequences of
 * `commands` until `options.sequences` have run in all, each against a fresh workspace,
 * starting from `initial()` and each step judged by the model. A failing scenario is the
 * counterexample as it ran (it is short already); on a violation in a generated sequence
 * fast-check shrinks it, and the last sequence that failed is the shrunk one.
 */
export async function runModel<Model extends object, Target>(
  commands: ReadonlyArray<fc.Arbitrary<Command<Model, Target>>>,
  initial: () => Model,
  options: ModelRunOptions<Target>,
  scenarios: ReadonlyArray<Scenario<Model, Target>> = [],
): Promise<ModelRunResult> {
  const started = performance.now();
  const runner = new SequenceRunner(options);
  const result = (failed: boolean): ModelRunResult => {
    if (runner.fatal) throw runner.fatal.error;
    const counterexample = failed
      ? { counterexample: runner.lastFailure ?? { steps: [], violation: 'the run failed' } }
      : {};
    return {
      sequences: runner.sequences,
      scenarios: Math.min(scenarios.length, runner.sequences),
      steps: runner.steps,
      ...counterexample,
    };
  };
  for (const scenario of scenarios) {
    try {
      await runner.run((real) => runScenario(scenario, initial(), real));
    } catch (error) {
      if (error instanceof ScenarioError) throw error;
      if (runner.lastFailure) runner.lastFailure.scenario = scenario.rule;
      return result(true);
    }
  }
  const generated = options.sequences - runner.sequences;
  const timeLeftMs = options.timeLimitMs - (performance.now() - started);
  if (generated <= 0 || timeLeftMs <= 0 || runner.fatal) return result(false);
  const streams = Math.max(1, Math.min(options.streams ?? 1, generated));
  const property = (stream: number) =>
    fc.asyncProperty(fc.commands([...commands], { maxCommands: options.maxSteps, size: 'max' }), (sequence) =>
      runner.run((real) => fc.asyncModelRun(() => ({ model: initial(), real }), sequence), stream),
    );
  const checks = shares(generated, streams).map((numRuns, stream) =>
    fc.check(property(stream), { numRuns, seed: options.seed + stream, interruptAfterTimeLimit: timeLeftMs }),
  );
  // fast-check counts a run its time limit cut short before one sequence passed as failed, with
  // no counterexample: a slow network did that, not the target.
  const outcomes = await Promise.all(checks);
  const failed = outcomes.find(
    (checked) => checked.failed && !(checked.interrupted && checked.counterexample === null),
  );
  // A failure found late leaves its shrinking little of the time limit (a step that waits out a
  // missing delivery costs the whole wait): the shrinking goes on from where it stopped, on its own budget.
  if (failed?.interrupted && failed.counterexamplePath && options.shrinkLimitMs) {
    const stream = outcomes.indexOf(failed);
    await fc.check(property(stream), {
      seed: failed.seed,
      path: failed.counterexamplePath,
      interruptAfterTimeLimit: options.shrinkLimitMs,
    });
  }
  if (failed && !runner.lastFailure)
    runner.lastFailure = { steps: [], violation: String(failed.errorInstance ?? 'the run failed') };
  return result(failed !== undefined);
}

/** `total` split into `parts` whole shares, the larger ones first. */
function shares(total: number, parts: number): number[] {
  return Array.from({ length: parts }, (_, i) => Math.floor(total / parts) + (i < total % parts ? 1 : 0));
}
