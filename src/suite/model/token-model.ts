/**
 * The spec's rules on a workspace's bearer tokens, their scopes and the workspace's
 * suspension, as a model that a fixed sequence per rule and generated sequences of
 * operations are checked against (fast-check's model-based commands): at most two active
 * tokens, and revoking one frees its slot (Limits; the control contract's 409), however
 * often a token is revoked; a token narrowed to voice:write is refused missing_scope where
 * voice:read is needed (Scopes), and stays narrowed; a revoked token is refused with 401
 * invalid_token within a minute (Errors > Rules, 2; before that backends may still disagree,
 * so its former answer and 401 are both accepted); a suspended workspace refuses its active
 * tokens with workspace_disabled; a reinstated one serves them again, as before. Tokens
 * are also created several at once: however their requests interleave in the target, no
 * more are granted than there are free slots (a limit read, then written after a round trip,
 * lets them all through).
 *
 * Left open by the spec, so accepted either way: creating or revoking a token while the
 * workspace is suspended (done, or refused with a 4xx), revoking a revoked token again (done
 * or refused), suspending a suspended workspace again (done, or refused with a 4xx; either
 * way one reinstatement then serves it again, as a user expects), which refusal a revoked or narrowed token gets on a suspended workspace
 * (invalid_token, missing_scope or workspace_disabled), and missing_scope's status (any
 * 4xx).
 */
import fc from 'fast-check';
import { pollUntil } from '../../clock/wait.js';
import {
  describeAnswer as describe,
  is2xx,
  ModelViolation,
  record,
  RemoveAgain,
  runModel,
  type Answer,
  type ModelRunOptions,
  type ModelRunResult,
  type Real as ModelReal,
  type Removal,
  type Scenario,
} from './run.js';

export type { Answer, ModelRunResult, Step } from './run.js';

/** The spec's propagation bound for a revocation, and the harness's for suspension and reinstatement. */
export const SETTLE_LIMIT_MS = 60_000;
const POLL_EVERY_MS = 200;
/** Tokens a sequence may create: enough to reach the limit, revoke, and fill it again. */
const MAX_TOKENS_PER_SEQUENCE = 5;

type TokenState = 'active' | 'revoked';

interface ModelToken {
  state: TokenState;
  /** Narrowed to voice:write: GET /v1/voice/agents (voice:read) is refused with missing_scope. */
  narrowed: boolean;
  /** When the revocation was accepted (performance.now()). */
  revokedAtMs?: number;
}

export interface TokenModel {
  tokens: ModelToken[];
  suspended: boolean;
}

/** The operations a sequence is made of, on one workspace of the target. Secrets never leave it. */
export interface TokenTarget {
  /** Creates a token, with the workspace's scopes or narrowed to voice:write; its index in creation order, or the refusal. */
  createToken(narrowed: boolean): Promise<{ created: number } | { refused: Answer }>;
  revokeToken(index: number): Promise<Answer>;
  whoami(index: number): Promise<Answer>;
  /** GET /v1/voice/agents, which needs voice:read. */
  listAgents(index: number): Promise<Answer>;
  suspend(): Promise<Answer>;
  reinstate(): Promise<Answer>;
}

type Real = ModelReal<TokenTarget>;

const refused = (answer: Answer, code: string): boolean =>
  answer.status >= 400 && answer.status < 500 && answer.code === code;
const activeCount = (model: TokenModel): number => model.tokens.filter((token) => token.state === 'active').length;

/**
 * Asks `whoami` with token `index` until `done`, or SETTLE_LIMIT_MS; the last answer. What
 * it saw is added to the answer of the step that waits on it (a suspension, a reinstatement).
 */
async function settle(
  real: Real,
  index: number,
  done: (answer: Answer) => boolean,
): Promise<{ answer: Answer; afterMs: number }> {
  const { last: answer, elapsedMs } = await pollUntil(() => real.target.whoami(index), done, {
    intervalMs: POLL_EVERY_MS,
    timeoutMs: SETTLE_LIMIT_MS,
  });
  const afterMs = Math.round(elapsedMs);
  real.judged = answer.exchange;
  const step = real.steps.at(-1);
  if (step) step.answer += `; then whoami with token ${index + 1}: ${describe(answer)} within ${afterMs} ms`;
  return { answer, afterMs };
}

class CreateToken implements fc.AsyncCommand<TokenModel, Real> {
  constructor(private readonly narrowed: boolean) {}

  check(model: Readonly<TokenModel>): boolean {
    return model.tokens.length < MAX_TOKENS_PER_SEQUENCE;
  }

  async run(model: TokenModel, real: Real): Promise<void> {
    const active = activeCount(model);
    const operation = this.toString();
    const result = await real.target.createToken(this.narrowed);
    if ('created' in result) {
      real.steps.push({ operation, answer: `created, token ${result.created + 1}` });
      if (active >= 2)
        throw new ModelViolation(
          `a third active token was created (${active} active before): a workspace holds at most two`,
        );
      model.tokens.push({ state: 'active', narrowed: this.narrowed });
      return;
    }
    real.steps.push({ operation, answer: `refused ${describe(result.refused)}` });
    // On a suspended workspace a refusal is a reasonable choice; otherwise a free slot must be given.
    if (active < 2 && !model.suspended)
      throw new ModelViolation(
        `a token was refused (${describe(result.refused)}) with only ${active} active: a revoked token's slot must be free`,
      );
  }

  toString(): string {
    return this.narrowed ? 'create a token narrowed to voice:write' : 'create a token';
  }
}

/**
 * Creates `count` tokens at once. Which of them the target grants is its choice (a serialising
 * target grants the free slots, one that refuses on contention may grant fewer): the model
 * holds only that no more are granted than there were free slots.
 */
class CreateAtOnce implements fc.AsyncCommand<TokenModel, Real> {
  constructor(private readonly count: number) {}

  check(model: Readonly<TokenModel>): boolean {
    return model.tokens.length < MAX_TOKENS_PER_SEQUENCE;
  }

  async run(model: TokenModel, real: Real): Promise<void> {
    const active = activeCount(model);
    const results = await Promise.all(Array.from({ length: this.count }, () => real.target.createToken(false)));
    // The target numbers tokens as their creations answer; the model keeps the same order.
    const created = results.flatMap((result) => ('created' in result ? [result.created] : [])).sort((a, b) => a - b);
    const refusals = results.flatMap((result) => ('refused' in result ? [describe(result.refused)] : []));
    const answer = [
      created.length > 0
        ? `created, token${created.length > 1 ? 's' : ''} ${created.map((index) => index + 1).join(', ')}`
        : '',
      refusals.length > 0 ? `refused ${refusals.join(', ')}` : '',
    ]
      .filter(Boolean)
      .join('; ');
    real.steps.push({ operation: `create ${this.count} tokens at once (${active} active)`, answer });
    if (active + created.length > 2)
      throw new ModelViolation(
        `${created.length} of ${this.count} tokens created at once were granted with ${active} active: a workspace holds at most two`,
      );
    model.tokens.push(...created.map((): ModelToken => ({ state: 'active', narrowed: false })));
  }

  toString(): string {
    return `create ${this.count} tokens at once`;
  }
}

class RevokeToken implements fc.AsyncCommand<TokenModel, Real> {
  constructor(private readonly pick: number) {}

  check(model: Readonly<TokenModel>): boolean {
    return activeCount(model) > 0;
  }

  async run(model: TokenModel, real: Real): Promise<void> {
    const active = model.tokens.flatMap((token, index) => (token.state === 'active' ? [index] : []));
    const index = active[this.pick % active.length]!;
    const answer = await record(real, `revoke token ${index + 1}`, () => real.target.revokeToken(index));
    if (!is2xx(answer)) {
      if (model.suspended) return; // refusing to revoke on a suspended workspace is a reasonable choice
      throw new ModelViolation(`revoking active token ${index + 1} was refused (${describe(answer)})`);
    }
    const token = model.tokens[index]!;
    token.state = 'revoked';
    token.revokedAtMs = performance.now();
  }

  toString(): string {
    return `revoke an active token (choice ${this.pick})`;
  }
}

/**
 * A request with a token: `whoami` (no scope needed) or GET /v1/voice/agents (voice:read:
 * refused missing_scope to a token narrowed without it).
 */
class UseToken implements fc.AsyncCommand<TokenModel, Real> {
  constructor(
    private readonly pick: number,
    private readonly request: 'whoami' | 'agents',
  ) {}

  check(model: Readonly<TokenModel>): boolean {
    return model.tokens.length > 0;
  }

  async run(model: TokenModel, real: Real): Promise<void> {
    const index = this.pick % model.tokens.length;
    const token = model.tokens[index]!;
    const lacksScope = this.request === 'agents' && token.narrowed;
    const kind = `${token.state}${token.narrowed ? ', narrowed to voice:write' : ''}${model.suspended ? ', workspace suspended' : ''}`;
    const what = this.request === 'whoami' ? 'whoami' : 'list agents';
    const answer = await record(real, `${what} with token ${index + 1} (${kind})`, () =>
      this.request === 'whoami' ? real.target.whoami(index) : real.target.listAgents(index),
    );
    const asActive = lacksScope ? refused(answer, 'missing_scope') : answer.status === 200;
    const expected = lacksScope ? '4xx missing_scope (it lacks voice:read)' : '200';
    if (model.suspended) {
      // Which refusal wins on a suspended workspace is not stated: the workspace's, or the token's own.
      const ok =
        refused(answer, 'workspace_disabled') ||
        (token.state !== 'active' && refused(answer, 'invalid_token')) ||
        (lacksScope && refused(answer, 'missing_scope'));
      if (!ok)
        throw new ModelViolation(
          `${what} with token ${index + 1} (${kind}) answered ${describe(answer)}, not workspace_disabled`,
        );
      return;
    }
    if (token.state === 'active') {
      if (!asActive)
        throw new ModelViolation(
          `${what} with token ${index + 1} (${kind}) answered ${describe(answer)}, expected ${expected}`,
        );
      return;
    }
    const sinceMs = Math.round(performance.now() - token.revokedAtMs!);
    const rejected = answer.status === 401 && answer.code === 'invalid_token';
    if (!rejected && (!asActive || sinceMs > SETTLE_LIMIT_MS)) {
      throw new ModelViolation(
        `${what} with token ${index + 1}, revoked ${sinceMs} ms before, answered ${describe(answer)}: expected 401 invalid_token (or ${expected} while the revocation propagates, under a minute)`,
      );
    }
  }

  toString(): string {
    return `${this.request} with a token (choice ${this.pick})`;
  }
}

/** Revoking a token the model holds revoked: RemoveAgain's removal. */
const REVOKE_TOKEN: Removal<TokenModel, TokenTarget> = {
  item: 'token',
  verb: 'revoke',
  done: 'revoked',
  removed: (model) => model.tokens.flatMap((token, index) => (token.state === 'revoked' ? [index] : [])),
  remove: (target, index) => target.revokeToken(index),
};

/**
 * Suspends or reinstates the workspace, then waits (up to SETTLE_LIMIT_MS) for an active
 * token to show it: workspace_disabled once suspended, 200 once reinstated.
 */
class SetSuspension implements fc.AsyncCommand<TokenModel, Real> {
  constructor(private readonly suspend: boolean) {}

  check(model: Readonly<TokenModel>): boolean {
    return model.suspended !== this.suspend;
  }

  async run(model: TokenModel, real: Real): Promise<void> {
    const verb = this.suspend ? 'suspend' : 'reinstate';
    const answer = await record(real, this.toString(), () =>
      this.suspend ? real.target.suspend() : real.target.reinstate(),
    );
    if (!is2xx(answer))
      throw new ModelViolation(`the control interface refused to ${verb} the workspace (${describe(answer)})`);
    model.suspended = this.suspend;
    const active = model.tokens.findIndex((token) => token.state === 'active');
    if (active === -1) return;
    const shown = (seen: Answer): boolean => (this.suspend ? refused(seen, 'workspace_disabled') : seen.status === 200);
    const { answer: last, afterMs } = await settle(real, active, shown);
    if (shown(last)) return;
    throw new ModelViolation(
      this.suspend
        ? `active token ${active + 1} still answered ${describe(last)} ${afterMs} ms after the suspension, not workspace_disabled`
        : `active token ${active + 1} still answered ${describe(last)} ${afterMs} ms after the reinstatement: a reinstated workspace serves its tokens`,
    );
  }

  toString(): string {
    return `${this.suspend ? 'suspend' : 'reinstate'} the workspace`;
  }
}

/**
 * Suspends a suspended workspace again (billing, then trust and safety): done or refused with a
 * 4xx, and it stays suspended. A reinstatement after it must serve the workspace (SetSuspension).
 */
class SuspendAgain implements fc.AsyncCommand<TokenModel, Real> {
  check(model: Readonly<TokenModel>): boolean {
    return model.suspended;
  }

  async run(_model: TokenModel, real: Real): Promise<void> {
    const answer = await record(real, this.toString(), () => real.target.suspend());
    if (!is2xx(answer) && !(answer.status >= 400 && answer.status < 500))
      throw new ModelViolation(
        `suspending a suspended workspace again: expected it done or refused with a 4xx, got ${describe(answer)}`,
      );
  }

  toString(): string {
    return 'suspend the suspended workspace again';
  }
}

/** Every operation a sequence may hold; a revoke and a use pick among the tokens there are. */
export const TOKEN_COMMANDS = [
  fc.boolean().map((narrowed) => new CreateToken(narrowed)),
  fc.integer({ min: 2, max: 3 }).map((count) => new CreateAtOnce(count)),
  fc.nat(9).map((pick) => new RevokeToken(pick)),
  fc.nat(9).map((pick) => new UseToken(pick, 'whoami')),
  fc.nat(9).map((pick) => new UseToken(pick, 'agents')),
  fc.nat(9).map((pick) => new RemoveAgain(REVOKE_TOKEN, pick)),
  fc.constant(new SetSuspension(true)),
  fc.constant(new SuspendAgain()),
  fc.constant(new SetSuspension(false)),
];

/** One sequence per rule of the token model, run before the generated ones. */
export const TOKEN_SCENARIOS: ReadonlyArray<Scenario<TokenModel, TokenTarget>> = [
  {
    rule: 'a revoked token frees its slot once, however often it is revoked',
    commands: [
      new CreateToken(false),
      new RevokeToken(0),
      new RemoveAgain(REVOKE_TOKEN, 0),
      new CreateToken(false),
      new CreateToken(false),
      new CreateToken(false),
    ],
  },
  {
    rule: 'a token revoked on a suspended workspace frees its slot',
    commands: [
      new CreateToken(false),
      new CreateToken(false),
      new SetSuspension(true),
      new RevokeToken(0),
      new SetSuspension(false),
      new CreateToken(false),
    ],
  },
  {
    rule: 'a token created on a suspended workspace counts toward the limit',
    commands: [
      new SetSuspension(true),
      new CreateToken(false),
      new SetSuspension(false),
      new CreateToken(false),
      new CreateToken(false),
    ],
  },
  {
    rule: 'a token created on a suspended workspace is refused until the workspace is reinstated',
    commands: [
      new CreateToken(false),
      new SetSuspension(true),
      new CreateToken(false),
      new UseToken(1, 'whoami'),
      new SetSuspension(false),
      new UseToken(1, 'whoami'),
    ],
  },
  {
    rule: 'one reinstatement serves a workspace however often it was suspended, and it stays suspended until then',
    commands: [
      new CreateToken(false),
      new SetSuspension(true),
      new SuspendAgain(),
      new UseToken(0, 'agents'),
      new SetSuspension(false),
    ],
  },
  {
    rule: 'revoking a revoked token again leaves the token created after it served',
    commands: [
      new CreateToken(false),
      new RevokeToken(0),
      new CreateToken(false),
      new RemoveAgain(REVOKE_TOKEN, 0),
      new UseToken(1, 'whoami'),
    ],
  },
  {
    rule: 'no more tokens created at once are granted than there are slots, and each granted one is served',
    commands: [new CreateAtOnce(3), new UseToken(0, 'whoami'), new UseToken(1, 'whoami')],
  },
  {
    rule: 'a reinstated workspace keeps a narrowed token narrowed',
    commands: [new CreateToken(true), new SetSuspension(true), new SetSuspension(false), new UseToken(0, 'agents')],
  },
];

/** TOKEN_SCENARIOS, then generated sequences of TOKEN_COMMANDS, against fresh workspaces (run.ts). */
export function runTokenModel(options: ModelRunOptions<TokenTarget>): Promise<ModelRunResult> {
  return runModel(TOKEN_COMMANDS, (): TokenModel => ({ tokens: [], suspended: false }), options, TOKEN_SCENARIOS);
}
