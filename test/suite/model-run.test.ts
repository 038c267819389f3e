/**
 * runModel (src/suite/model/run.ts) on a tiny counter model: the fixed scenarios run first, on
 * fresh targets, and count toward the sequences; a failing scenario is the counterexample as
 * it ran, named by its rule, and no sequence is generated after it; a scenario that its own
 * model does not allow is an error of the harness, never a verdict on the target.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../src/errors.js';
import {
  ModelViolation,
  record,
  runModel,
  ScenarioError,
  type Real,
  type Scenario,
} from '../../src/suite/model/run.js';

interface Counter {
  value: number;
}
/** A target counter that forgets every third increment when `forgetful`. */
interface CounterTarget {
  increment(): Promise<number>;
}

class Increment implements fc.AsyncCommand<Counter, Real<CounterTarget>> {
  check(model: Readonly<Counter>): boolean {
    return model.value < 5;
  }

  async run(model: Counter, real: Real<CounterTarget>): Promise<void> {
    let seen = 0;
    await record(real, 'increment', async () => {
      seen = await real.target.increment();
      return { status: 200 };
    });
    model.value += 1;
    if (seen !== model.value) throw new ModelViolation(`the counter read ${seen}, expected ${model.value}`);
  }

  toString(): string {
    return 'increment';
  }
}

function counterTarget(forgetful: boolean): CounterTarget {
  let value = 0;
  let calls = 0;
  return {
    async increment() {
      calls += 1;
      if (!(forgetful && calls % 3 === 0)) value += 1;
      return value;
    },
  };
}

const threeIncrements: Scenario<Counter, CounterTarget> = {
  rule: 'every increment counts',
  commands: [new Increment(), new Increment(), new Increment()],
};
const options = { sequences: 10, maxSteps: 2, seed: 1, timeLimitMs: 10_000, isFatal: () => false };

describe('runModel', () => {
  it('runs the scenarios first, each on a fresh target, within the number of sequences', async () => {
    let targets = 0;
    const result = await runModel(
      [fc.constant(new Increment())],
      () => ({ value: 0 }),
      { ...options, newTarget: async () => ((targets += 1), counterTarget(false)) },
      [threeIncrements, threeIncrements],
    );
    expect(result).toMatchObject({ sequences: 10, scenarios: 2 });
    expect(targets).toBe(10);
    expect(result.counterexample).toBeUndefined();
  });

  it('reports a failing scenario as it ran, whatever the seed, and generates nothing after it', async () => {
    // Generated sequences of at most 2 steps never reach the third increment.
    const generatedOnly = await runModel([fc.constant(new Increment())], () => ({ value: 0 }), {
      ...options,
      newTarget: async () => counterTarget(true),
    });
    expect(generatedOnly.counterexample).toBeUndefined();
    const result = await runModel(
      [fc.constant(new Increment())],
      () => ({ value: 0 }),
      { ...options, newTarget: async () => counterTarget(true) },
      [threeIncrements],
    );
    expect(result.sequences).toBe(1);
    expect(result.counterexample).toEqual({
      scenario: 'every increment counts',
      violation: 'the counter read 2, expected 3',
      steps: [1, 2, 3].map(() => ({ operation: 'increment', answer: '200' })),
    });
  });

  it('throws a ScenarioError for a scenario its model does not allow', async () => {
    const tooMany: Scenario<Counter, CounterTarget> = {
      rule: 'six increments',
      commands: Array.from({ length: 6 }, () => new Increment()),
    };
    await expect(
      runModel(
        [fc.constant(new Increment())],
        () => ({ value: 0 }),
        { ...options, newTarget: async () => counterTarget(false) },
        [tooMany],
      ),
    ).rejects.toThrow(ScenarioError);
  });

  it('ends the run on a request without an answer: no counterexample is made of it, the error is rethrown', async () => {
    let targets = 0;
    let sent = 0;
    let targetsAtLoss = 0;
    /** A counter whose fourth request of the run gets no answer. */
    const lossyTarget = (): CounterTarget => {
      let value = 0;
      return {
        async increment() {
          sent += 1;
          if (sent === 4) {
            targetsAtLoss = targets;
            throw new HttpError('GET /v1/whoami: other side closed (sent 4 times)', 'network');
          }
          return (value += 1);
        },
      };
    };
    const run = runModel([fc.constant(new Increment())], () => ({ value: 0 }), {
      ...options,
      newTarget: async () => ((targets += 1), lossyTarget()),
    });
    await expect(run).rejects.toThrow(/other side closed/);
    // Stopped where the answer went missing: nothing shrunk, no sequence after it.
    expect(sent).toBe(4);
    expect(targets).toBe(targetsAtLoss);
  });

  it('runs the generated sequences in streams side by side, as many in all, and stops the others once one fails', async () => {
    let running = 0;
    let most = 0;
    const slowTarget = (forgetful: boolean): CounterTarget => {
      const inner = counterTarget(forgetful);
      return {
        async increment() {
          running += 1;
          most = Math.max(most, running);
          await new Promise((resolve) => setTimeout(resolve, 2));
          running -= 1;
          return inner.increment();
        },
      };
    };
    const three = { ...options, sequences: 40, maxSteps: 3, streams: 4 };
    const passing = await runModel([fc.constant(new Increment())], () => ({ value: 0 }), {
      ...three,
      newTarget: async () => slowTarget(false),
    });
    expect(passing).toMatchObject({ sequences: 40, scenarios: 0 });
    expect(most).toBeGreaterThan(1);
    const failing = await runModel([fc.constant(new Increment())], () => ({ value: 0 }), {
      ...three,
      newTarget: async () => slowTarget(true),
    });
    // Shrunk to the shortest sequence that forgets: three increments.
    expect(failing.counterexample).toEqual({
      violation: 'the counter read 2, expected 3',
      steps: [1, 2, 3].map(() => ({ operation: 'increment', answer: '200' })),
    });
  });

  it('finds no counterexample in a stream its time limit cut short before one sequence ended: a slow network is no violation', async () => {
    const slowStart = async (): Promise<CounterTarget> => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      return counterTarget(false);
    };
    const result = await runModel([fc.constant(new Increment())], () => ({ value: 0 }), {
      ...options,
      sequences: 20,
      streams: 4,
      timeLimitMs: 100,
      newTarget: slowStart,
    });
    expect(result.counterexample).toBeUndefined();
  });

  it('goes on shrinking, on its own budget, a failure whose shrinking the time limit cut short', async () => {
    /** A step of no consequence. */
    class Pause implements fc.AsyncCommand<Counter, Real<CounterTarget>> {
      check(): boolean {
        return true;
      }
      async run(_model: Counter, real: Real<CounterTarget>): Promise<void> {
        await record(real, 'pause', async () => ({ status: 200 }));
      }
      toString(): string {
        return 'pause';
      }
    }
    /** Forgets every third increment, and answers it late: a check that waits out a missing delivery. */
    const lateWhenForgetful = (): CounterTarget => {
      let value = 0;
      let calls = 0;
      return {
        async increment() {
          calls += 1;
          if (calls % 3 !== 0) return (value += 1);
          await new Promise((resolve) => setTimeout(resolve, 400));
          return value;
        },
      };
    };
    const run = (shrinkLimitMs: number) =>
      runModel(
        [fc.constant(new Increment()), fc.constant(new Pause()), fc.constant(new Pause())],
        () => ({ value: 0 }),
        {
          ...options,
          sequences: 200,
          maxSteps: 12,
          seed: 7,
          // Time to find the failure, not to shrink it: each failing sequence costs 400 ms.
          timeLimitMs: 700,
          shrinkLimitMs,
          newTarget: async () => lateWhenForgetful(),
        },
      );
    const operations = async (shrinkLimitMs: number) =>
      (await run(shrinkLimitMs)).counterexample?.steps.map((step) => step.operation);
    expect((await operations(0))?.length).toBeGreaterThan(3);
    expect(await operations(20_000)).toEqual(['increment', 'increment', 'increment']);
  });
});
