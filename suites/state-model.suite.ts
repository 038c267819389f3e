/**
 * The service as a model (src/suite/model/token-model.ts): generated sequences of token
 * creation, revocation and use, suspension and reinstatement, each on a fresh workspace,
 * every answer judged against the spec's rules; a failure is shrunk to the shortest
 * sequence that shows it and reported step by step, with the seed that replays it.
 */
import { CheckSkip, ControlError, ControlUnsupported } from '../src/errors.js';
import { certifySuite, check, type CheckContext } from '../src/suite/index.js';
import type { CreatedToken } from '../src/control/types.js';
import { runTokenModel, type Answer, type TokenTarget } from '../src/suite/model/token-model.js';

/** Sequences and steps per run: the fast tier's fit beside its longest check; the full tier's five times more. */
const BUDGET = { fast: { sequences: 400, maxSteps: 30, timeLimitMs: 30_000 }, full: { sequences: 2_000, maxSteps: 40, timeLimitMs: 240_000 } } as const;

function answerOf(res: { status: number; json?: unknown }): Answer {
  const code = (res.json as { error?: { code?: unknown } } | undefined)?.error?.code;
  return { status: res.status, ...(typeof code === 'string' ? { code } : {}) };
}

/** A refusal of the control interface (a 4xx) as an answer; anything else is thrown on. */
function refusalOf(error: unknown): Answer {
  if (error instanceof ControlError && error.refused) return { status: error.status!, ...(error.targetCode ? { code: error.targetCode } : {}) };
  throw error;
}

/** A control call's outcome as an answer: 204 when done, the status of a refusal. */
async function controlAnswer(call: () => Promise<unknown>): Promise<Answer> {
  try {
    await call();
    return { status: 204 };
  } catch (error) {
    return refusalOf(error);
  }
}

/** A fresh workspace of the target behind the model's operations. */
async function tokenTarget(t: CheckContext): Promise<TokenTarget> {
  const workspace = await t.workspace();
  const tokens: CreatedToken[] = [];
  return {
    async createToken() {
      try {
        tokens.push(await workspace.createToken(`certify model ${tokens.length + 1}`));
        return { created: tokens.length - 1 };
      } catch (error) {
        return { refused: refusalOf(error) };
      }
    },
    revokeToken: (index) => controlAnswer(() => workspace.revokeToken(tokens[index]!)),
    whoami: async (index) => answerOf(await t.api.whoami(tokens[index]!.token, { fresh: index % 2 === 0 })),
    suspend: () => controlAnswer(() => workspace.suspend()),
    reinstate: () => controlAnswer(() => workspace.reinstate()),
  };
}

certifySuite('state-model', () => {
  check('MODEL-TOKENS-SUSPENSION', async (t) => {
    const budget = BUDGET[t.run.tier];
    const seed = Number(process.env.FAST_CHECK_SEED ?? Date.now() % 2 ** 31);
    t.measure('seed', seed);
    t.measure('budget', budget);
    const started = performance.now();
    // No control interface, or an adapter that cannot suspend or revoke: the check is skipped with the reason, never passed or failed.
    const result = await runTokenModel({ ...budget, seed, newTarget: () => tokenTarget(t), isFatal: (error) => error instanceof ControlUnsupported || error instanceof CheckSkip });
    t.measure('sequences', result.sequences);
    t.measure('steps', result.steps);
    t.measure('duration_ms', Math.round(performance.now() - started));
    if (result.counterexample) {
      const { steps, violation } = result.counterexample;
      t.measure('counterexample', steps);
      const numbered = steps.map((step, i) => `${i + 1}. ${step.operation} → ${step.answer}`).join('; ');
      t.fail(`${violation}. Shortest sequence found (${steps.length} steps, each on a fresh workspace): ${numbered} (seed ${seed}; rerun with FAST_CHECK_SEED=${seed})`);
    }
    t.detail(`${result.sequences} generated sequences, ${result.steps} steps in all, each on a fresh workspace: every answer as the model predicts (seed ${seed})`);
  }, { timeoutMs: 150_000 });
});
