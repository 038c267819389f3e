/**
 * The service as models (src/suite/model/): generated sequences of token creation,
 * revocation and use, suspension and reinstatement (token-model.ts), and of endpoint
 * creation up to the limit, deletion and events (endpoint-model.ts), each on a fresh
 * workspace, every answer judged against the spec's rules; a failure is shrunk to the
 * shortest sequence that shows it and reported step by step, with the seed that replays it.
 */
import { CheckSkip, ControlError, ControlUnsupported } from '../src/errors.js';
import { certifySuite, check, type CheckContext } from '../src/suite/index.js';
import type { CreatedToken } from '../src/control/types.js';
import { runTokenModel, type Answer, type TokenTarget } from '../src/suite/model/token-model.js';
import { runEndpointModel, type EndpointTarget } from '../src/suite/model/endpoint-model.js';
import type { ModelRunOptions, ModelRunResult } from '../src/suite/model/run.js';
import type { HookedEndpoint } from '../src/suite/webhooks.js';
import { within } from '../src/suite/timing/wait.js';

/** Sequences and steps per run: the fast tier's fit beside its longest check; the full tier's five times more. */
const BUDGET = { fast: { sequences: 400, maxSteps: 30, timeLimitMs: 30_000 }, full: { sequences: 2_000, maxSteps: 40, timeLimitMs: 240_000 } } as const;
/** Endpoint sequences fill a workspace to 25 endpoints and fan events out to them: fewer, shorter ones. */
const ENDPOINT_BUDGET = { fast: { sequences: 300, maxSteps: 15, timeLimitMs: 30_000 }, full: { sequences: 1_500, maxSteps: 25, timeLimitMs: 240_000 } } as const;
/** How long an event may take to reach an active endpoint (a delivery, not a retry). */
const DELIVERY_BOUND_MS = 10_000;
const MODEL_EVENT = 'workspace.plan.upgraded';

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
    async createToken(narrowed) {
      try {
        tokens.push(await workspace.createToken(`certify model ${tokens.length + 1}`, narrowed ? ['voice:write'] : undefined));
        return { created: tokens.length - 1 };
      } catch (error) {
        return { refused: refusalOf(error) };
      }
    },
    revokeToken: (index) => controlAnswer(() => workspace.revokeToken(tokens[index]!)),
    whoami: async (index) => answerOf(await t.api.whoami(tokens[index]!.token, { fresh: index % 2 === 0 })),
    listAgents: async (index) => answerOf(await t.api.listAgents(tokens[index]!.token)),
    suspend: () => controlAnswer(() => workspace.suspend()),
    reinstate: () => controlAnswer(() => workspace.reinstate()),
  };
}

/** A fresh workspace behind the endpoint model, every endpoint on the run's receiver and subscribed to everything. */
async function endpointTarget(t: CheckContext): Promise<EndpointTarget> {
  const workspace = await t.workspace();
  const hooks: HookedEndpoint[] = [];
  return {
    async createEndpoint() {
      try {
        hooks.push(await t.hookEndpoint(workspace, ['*']));
        return { created: hooks.length - 1 };
      } catch (error) {
        return { refused: refusalOf(error) };
      }
    },
    deleteEndpoint: (index) => controlAnswer(() => workspace.deleteEndpoint(hooks[index]!.registered.endpointId)),
    async fireEvent(expected) {
      const eventId = await workspace.fireEvent(MODEL_EVENT, { certify: 'endpoint model' });
      const reached = await Promise.all(expected.map((index) => within(hooks[index]!.inbox, (all) => all.some((d) => d.verdicts.eventId === eventId), DELIVERY_BOUND_MS)));
      return { missing: expected.filter((_, k) => !reached[k]), boundMs: DELIVERY_BOUND_MS };
    },
  };
}

/** Runs a model with the seed of the run, records what it ran, and fails with the shrunk counterexample. */
async function checkModel<Target>(
  t: CheckContext,
  budget: Omit<ModelRunOptions<Target>, 'seed' | 'newTarget' | 'isFatal'>,
  newTarget: () => Promise<Target>,
  run: (options: ModelRunOptions<Target>) => Promise<ModelRunResult>,
): Promise<void> {
  const seed = Number(process.env.FAST_CHECK_SEED ?? Date.now() % 2 ** 31);
  t.measure('seed', seed);
  t.measure('budget', budget);
  const started = performance.now();
  // No control interface, or an adapter that cannot do an operation: the check is skipped with the reason, never passed or failed.
  const result = await run({ ...budget, seed, newTarget, isFatal: (error) => error instanceof ControlUnsupported || error instanceof CheckSkip });
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
}

certifySuite('state-model', () => {
  check('MODEL-TOKENS-SUSPENSION', (t) => checkModel(t, BUDGET[t.run.tier], () => tokenTarget(t), runTokenModel), { timeoutMs: 150_000 });

  check('MODEL-ENDPOINTS', (t) => checkModel(t, ENDPOINT_BUDGET[t.run.tier], () => endpointTarget(t), runEndpointModel), { timeoutMs: 150_000 });
});
