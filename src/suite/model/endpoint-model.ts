/**
 * The spec's rules on a workspace's webhook endpoints, as a model that a fixed sequence per
 * rule and generated sequences are checked against: at most 25 active endpoints (Limits; the
 * control contract's 4xx for a 26th), however many creations are sent at once, deleting one
 * frees its slot however often it is deleted, and an event reaches every active endpoint
 * subscribed to it (Events). The health
 * model (runEndpointHealthModel) starts each sequence with endpoints the target has
 * auto-disabled (24 h of failures, scaled: too slow to be a step): a disabled endpoint gets
 * no delivery and holds no active slot, and re-enabling it (the dashboard's enable) makes it
 * active and delivered to again (States). Its endpoints subscribe to chosen event types, and
 * events of several types are fired: an endpoint gets exactly the types it subscribed to
 * (Events, registration rule 3), a re-enabled one too, since the transition changes nothing
 * else (States: "none stated").
 *
 * Left open by the spec, so accepted either way: the status of a 26th endpoint's refusal (any
 * 4xx), and deleting a deleted endpoint again (done, or refused with a 4xx such as 404).
 * Whether a deleted endpoint still receives events is not judged: the spec names no such rule.
 * Re-enabling with 25 active is not generated: the spec does not say whether it is refused.
 */
import fc from 'fast-check';
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

/** The spec's limit on active endpoints per workspace. */
export const ENDPOINT_LIMIT = 25;
/** Endpoints a sequence may create in all: the limit, and room to fill it again after deletions. */
const MAX_ENDPOINTS_PER_SEQUENCE = ENDPOINT_LIMIT + 8;

type EndpointState = 'active' | 'disabled' | 'deleted';

export interface EndpointModel {
  endpoints: EndpointState[];
  /** Each endpoint's subscription, by the same index: event types, or ['*']. */
  subscriptions: Array<readonly string[]>;
}

/** The event types the models fire; the control interface can fire each of them. */
export const MODEL_EVENT_TYPES = ['workspace.plan.upgraded', 'mailer.email.sent', 'mailer.reply.received'] as const;
/** The type the endpoint model fires, and the health model's target drives its endpoints to disabled with. */
export const MODEL_EVENT = MODEL_EVENT_TYPES[0];
const EVERY_TYPE: readonly string[] = ['*'];

/** The operations a sequence is made of, on one workspace of the target. */
export interface EndpointTarget {
  /** Creates an endpoint subscribed to `events`; its index in creation order, or the refusal. */
  createEndpoint(events: readonly string[]): Promise<{ created: number } | { refused: Answer }>;
  deleteEndpoint(index: number): Promise<Answer>;
  /**
   * Fires one event of `type`; which of `expected` it did not reach within the delivery bound,
   * and which of `silent` it reached by the time every expected one had it.
   */
  fireEvent(
    type: string,
    expected: readonly number[],
    silent: readonly number[],
  ): Promise<{ missing: number[]; reachedSilent: number[]; boundMs: number }>;
  /** The dashboard's re-enable of a disabled endpoint (health model only). */
  enableEndpoint?(index: number): Promise<Answer>;
}

type Real = ModelReal<EndpointTarget>;

const inState = (model: Readonly<EndpointModel>, wanted: EndpointState): number[] =>
  model.endpoints.flatMap((state, index) => (state === wanted ? [index] : []));
const activeOf = (model: Readonly<EndpointModel>): number[] => inState(model, 'active');
const disabledOf = (model: Readonly<EndpointModel>): number[] => inState(model, 'disabled');
const subscribed = (model: Readonly<EndpointModel>, index: number, type: string): boolean => {
  const events = model.subscriptions[index]!;
  return events.includes('*') || events.includes(type);
};
const describeSubscription = (events: readonly string[]): string =>
  events.includes('*') ? 'every type' : events.join(', ');

/** Creates one endpoint subscribed to `events`, judged against the limit; true when it was created. */
async function createOne(model: EndpointModel, real: Real, events: readonly string[] = EVERY_TYPE): Promise<boolean> {
  const active = activeOf(model).length;
  const disabled = disabledOf(model).length;
  const counts = `${active} active${disabled > 0 ? `, ${disabled} disabled` : ''}`;
  const what = events === EVERY_TYPE ? 'an endpoint' : `an endpoint for ${describeSubscription(events)}`;
  const result = await real.target.createEndpoint(events);
  if ('created' in result) {
    real.steps.push({ operation: `create ${what} (${counts})`, answer: `created, endpoint ${result.created + 1}` });
    if (active >= ENDPOINT_LIMIT)
      throw new ModelViolation(
        `endpoint ${active + 1} was created with ${active} active: a workspace holds at most ${ENDPOINT_LIMIT}`,
      );
    model.endpoints.push('active');
    model.subscriptions.push(events);
    return true;
  }
  real.steps.push({ operation: `create ${what} (${counts})`, answer: `refused ${describe(result.refused)}` });
  const isRefusal = result.refused.status >= 400 && result.refused.status < 500;
  if (active < ENDPOINT_LIMIT || !isRefusal) {
    throw new ModelViolation(
      `an endpoint was refused (${describe(result.refused)}) with ${active} active: ${active < ENDPOINT_LIMIT ? `the limit is ${ENDPOINT_LIMIT} active, and a deleted or disabled endpoint's slot is free` : 'a refusal at the limit is a 4xx'}`,
    );
  }
  return false;
}

class CreateEndpoint implements fc.AsyncCommand<EndpointModel, Real> {
  constructor(private readonly events: readonly string[] = EVERY_TYPE) {}

  check(model: Readonly<EndpointModel>): boolean {
    return model.endpoints.length < MAX_ENDPOINTS_PER_SEQUENCE;
  }

  async run(model: EndpointModel, real: Real): Promise<void> {
    await createOne(model, real, this.events);
  }

  toString(): string {
    return this.events === EVERY_TYPE
      ? 'create an endpoint'
      : `create an endpoint for ${describeSubscription(this.events)}`;
  }
}

/**
 * Creates `count` endpoints at once. Which of them the target grants is its choice (a
 * serialising target grants the free slots, one that refuses on contention may grant fewer):
 * the model holds only that no more are granted than there were free slots (a limit read,
 * then written after a round trip, lets them all through).
 */
class CreateEndpointsAtOnce implements fc.AsyncCommand<EndpointModel, Real> {
  constructor(private readonly count: number) {}

  check(model: Readonly<EndpointModel>): boolean {
    return model.endpoints.length + this.count <= MAX_ENDPOINTS_PER_SEQUENCE;
  }

  async run(model: EndpointModel, real: Real): Promise<void> {
    const active = activeOf(model).length;
    const results = await Promise.all(Array.from({ length: this.count }, () => real.target.createEndpoint(EVERY_TYPE)));
    // The target numbers endpoints as their creations answer; the model keeps the same order.
    const created = results.flatMap((result) => ('created' in result ? [result.created] : [])).sort((a, b) => a - b);
    const refusals = results.flatMap((result) => ('refused' in result ? [describe(result.refused)] : []));
    const answer = [
      created.length > 0
        ? `created, endpoint${created.length > 1 ? 's' : ''} ${created.map((index) => index + 1).join(', ')}`
        : '',
      refusals.length > 0 ? `refused ${refusals.join(', ')}` : '',
    ]
      .filter(Boolean)
      .join('; ');
    real.steps.push({ operation: `create ${this.count} endpoints at once (${active} active)`, answer });
    const free = Math.max(0, ENDPOINT_LIMIT - active);
    if (created.length > free)
      throw new ModelViolation(
        `${created.length} of ${this.count} endpoints created at once were granted with ${active} active: a workspace holds at most ${ENDPOINT_LIMIT}`,
      );
    model.endpoints.push(...created.map((): EndpointState => 'active'));
    model.subscriptions.push(...created.map(() => EVERY_TYPE));
  }

  toString(): string {
    return `create ${this.count} endpoints at once`;
  }
}

/** Creates endpoints up to the limit, then one more, which must be refused: one step, for a short counterexample. */
class FillToLimit implements fc.AsyncCommand<EndpointModel, Real> {
  check(model: Readonly<EndpointModel>): boolean {
    return model.endpoints.length + (ENDPOINT_LIMIT - activeOf(model).length) < MAX_ENDPOINTS_PER_SEQUENCE;
  }

  async run(model: EndpointModel, real: Real): Promise<void> {
    const before = real.steps.length;
    try {
      while (await createOne(model, real)) {
        if (model.endpoints.length >= MAX_ENDPOINTS_PER_SEQUENCE) break;
      }
    } finally {
      // One step in the report, a violation or not: how many were created, and how the last was answered.
      const made = real.steps.splice(before);
      const created = made.filter((step) => step.answer.startsWith('created')).length;
      real.steps.push({
        operation: `create endpoints up to the limit, then one more (${made[0]?.operation.match(/\(([^)]*)\)/)?.[1] ?? '?'} before)`,
        answer: `${created} created; the last: ${made.at(-1)?.answer ?? 'nothing'}`,
      });
    }
  }

  toString(): string {
    return 'fill the workspace to its endpoint limit';
  }
}

class DeleteEndpoint implements fc.AsyncCommand<EndpointModel, Real> {
  constructor(private readonly pick: number) {}

  check(model: Readonly<EndpointModel>): boolean {
    return model.endpoints.some((state) => state !== 'deleted');
  }

  async run(model: EndpointModel, real: Real): Promise<void> {
    const present = model.endpoints.flatMap((state, index) => (state === 'deleted' ? [] : [index]));
    const index = present[this.pick % present.length]!;
    const state = model.endpoints[index]!;
    const answer = await record(real, `delete endpoint ${index + 1} (${state})`, () =>
      real.target.deleteEndpoint(index),
    );
    if (!is2xx(answer))
      throw new ModelViolation(`deleting ${state} endpoint ${index + 1} was refused (${describe(answer)})`);
    model.endpoints[index] = 'deleted';
  }

  toString(): string {
    return `delete an endpoint (choice ${this.pick})`;
  }
}

class EnableEndpoint implements fc.AsyncCommand<EndpointModel, Real> {
  constructor(private readonly pick: number) {}

  check(model: Readonly<EndpointModel>): boolean {
    return disabledOf(model).length > 0 && activeOf(model).length < ENDPOINT_LIMIT;
  }

  async run(model: EndpointModel, real: Real): Promise<void> {
    const disabled = disabledOf(model);
    const index = disabled[this.pick % disabled.length]!;
    const answer = await record(real, `re-enable endpoint ${index + 1} (${activeOf(model).length} active)`, () =>
      real.target.enableEndpoint!(index),
    );
    if (!is2xx(answer))
      throw new ModelViolation(
        `re-enabling disabled endpoint ${index + 1} was refused (${describe(answer)}) with ${activeOf(model).length} active`,
      );
    model.endpoints[index] = 'active';
  }

  toString(): string {
    return `re-enable a disabled endpoint (choice ${this.pick})`;
  }
}

/** Deleting an endpoint the model holds deleted: RemoveAgain's removal. */
const DELETE_ENDPOINT: Removal<EndpointModel, EndpointTarget> = {
  item: 'endpoint',
  verb: 'delete',
  done: 'deleted',
  removed: (model) => model.endpoints.flatMap((state, index) => (state === 'deleted' ? [index] : [])),
  remove: (target, index) => target.deleteEndpoint(index),
};

/**
 * Fires an event of one type: it must reach every active endpoint subscribed to the type, and
 * no other. Only where one active endpoint takes it: its arrival tells how long to watch the others.
 */
class FireEvent implements fc.AsyncCommand<EndpointModel, Real> {
  constructor(private readonly type: string = MODEL_EVENT) {}

  check(model: Readonly<EndpointModel>): boolean {
    return activeOf(model).some((index) => subscribed(model, index, this.type));
  }

  async run(model: EndpointModel, real: Real): Promise<void> {
    const active = activeOf(model);
    const disabled = disabledOf(model);
    const expected = active.filter((index) => subscribed(model, index, this.type));
    const unsubscribed = active.filter((index) => !subscribed(model, index, this.type));
    const silent = [...disabled, ...unsubscribed].sort((a, b) => a - b);
    const { missing, reachedSilent, boundMs } = await real.target.fireEvent(this.type, expected, silent);
    const names = (indexes: readonly number[]) => indexes.map((i) => i + 1).join(', ');
    const reachedDisabled = reachedSilent.filter((index) => disabled.includes(index));
    const reachedUnsubscribed = reachedSilent.filter((index) => unsubscribed.includes(index));
    const answer = [
      missing.length === 0
        ? `reached all ${expected.length} active subscribed`
        : `active endpoint(s) ${names(missing)} got nothing in ${boundMs} ms`,
      ...(reachedDisabled.length > 0 ? [`disabled endpoint(s) ${names(reachedDisabled)} got it`] : []),
      ...(reachedUnsubscribed.length > 0
        ? [`endpoint(s) ${names(reachedUnsubscribed)}, not subscribed to it, got it`]
        : []),
    ].join('; ');
    const counts = `${active.length} active${unsubscribed.length > 0 ? `, ${unsubscribed.length} of them not subscribed` : ''}${disabled.length > 0 ? `, ${disabled.length} disabled` : ''}`;
    real.steps.push({ operation: `fire ${this.type} (${counts})`, answer });
    if (missing.length > 0)
      throw new ModelViolation(
        `an event did not reach active endpoint(s) ${names(missing)} within ${boundMs} ms, though subscribed to ${this.type}`,
      );
    if (reachedDisabled.length > 0)
      throw new ModelViolation(
        `an event reached disabled endpoint(s) ${names(reachedDisabled)}: a disabled endpoint gets no further deliveries`,
      );
    if (reachedUnsubscribed.length > 0) {
      const subscriptions = reachedUnsubscribed
        .map((index) => `${index + 1}: ${describeSubscription(model.subscriptions[index]!)}`)
        .join('; ');
      throw new ModelViolation(
        `${this.type} reached endpoint(s) not subscribed to it (${subscriptions}): an endpoint gets the event types it subscribed to, after a re-enable too`,
      );
    }
  }

  toString(): string {
    return `fire ${this.type}`;
  }
}

/** Every operation a sequence may hold; a delete picks among the endpoints there are. */
export const ENDPOINT_COMMANDS = [
  fc.constant(new CreateEndpoint()),
  fc.constant(new FillToLimit()),
  fc.integer({ min: 2, max: 4 }).map((count) => new CreateEndpointsAtOnce(count)),
  fc.nat(30).map((pick) => new DeleteEndpoint(pick)),
  fc.nat(30).map((pick) => new RemoveAgain(DELETE_ENDPOINT, pick)),
  fc.constant(new FireEvent()),
];

/** One sequence per rule of the endpoint model, run before the generated ones. */
export const ENDPOINT_SCENARIOS: ReadonlyArray<Scenario<EndpointModel, EndpointTarget>> = [
  { rule: 'a workspace holds at most 25 active endpoints', commands: [new FillToLimit()] },
  {
    rule: 'a deleted endpoint frees its slot once, however often it is deleted',
    commands: [new CreateEndpoint(), new DeleteEndpoint(0), new RemoveAgain(DELETE_ENDPOINT, 0), new FillToLimit()],
  },
  {
    rule: 'an event reaches every active endpoint, those created after a deletion too',
    commands: [new CreateEndpoint(), new DeleteEndpoint(0), new CreateEndpoint(), new FireEvent()],
  },
  {
    rule: 'endpoints created at once take no more than the free slots',
    commands: [new FillToLimit(), new DeleteEndpoint(0), new CreateEndpointsAtOnce(3), new FireEvent()],
  },
  {
    rule: 'every event is delivered, however soon it follows another of its type',
    commands: [new CreateEndpoint(), new FireEvent(), new FireEvent()],
  },
];

/** ENDPOINT_SCENARIOS, then generated sequences of ENDPOINT_COMMANDS, against fresh workspaces (run.ts). */
export function runEndpointModel(options: ModelRunOptions<EndpointTarget>): Promise<ModelRunResult> {
  return runModel(
    ENDPOINT_COMMANDS,
    (): EndpointModel => ({ endpoints: [], subscriptions: [] }),
    options,
    ENDPOINT_SCENARIOS,
  );
}

const [PLAN_UPGRADED, EMAIL_SENT, REPLY_RECEIVED] = MODEL_EVENT_TYPES;

/**
 * The subscriptions of the endpoints every sequence of the health model starts with, already
 * auto-disabled by the target: each takes MODEL_EVENT (the target fails them with it), the
 * second one more type, and neither takes every type, so that a re-enabled endpoint that comes
 * back with another subscription gets an event it should not, or misses one it should get.
 */
export const DISABLED_SUBSCRIPTIONS: ReadonlyArray<readonly string[]> = [[PLAN_UPGRADED], [PLAN_UPGRADED, EMAIL_SENT]];
/** Endpoints every sequence of the health model starts with, already auto-disabled by the target. */
export const DISABLED_AT_START = DISABLED_SUBSCRIPTIONS.length;
/** What a created endpoint of the health model subscribes to. */
const HEALTH_SUBSCRIPTIONS: ReadonlyArray<readonly string[]> = [
  EVERY_TYPE,
  [EMAIL_SENT],
  [REPLY_RECEIVED],
  [PLAN_UPGRADED, REPLY_RECEIVED],
];

/** The health model's operations: the endpoint model's, with chosen subscriptions and event types, and the dashboard's re-enable. */
export const ENDPOINT_HEALTH_COMMANDS = [
  fc.constantFrom(...HEALTH_SUBSCRIPTIONS).map((events) => new CreateEndpoint(events)),
  fc.constant(new FillToLimit()),
  fc.nat(30).map((pick) => new DeleteEndpoint(pick)),
  fc.nat(30).map((pick) => new RemoveAgain(DELETE_ENDPOINT, pick)),
  fc.constantFrom(...MODEL_EVENT_TYPES).map((type) => new FireEvent(type)),
  fc.nat(30).map((pick) => new EnableEndpoint(pick)),
];

/** One sequence per rule on disabled endpoints, each from DISABLED_AT_START of them; run before the generated ones. */
export const ENDPOINT_HEALTH_SCENARIOS: ReadonlyArray<Scenario<EndpointModel, EndpointTarget>> = [
  {
    rule: 'a re-enabled endpoint is active and delivered to again',
    commands: [new EnableEndpoint(0), new FireEvent()],
  },
  {
    // Endpoint 2 takes plan upgrades and sent emails; the endpoint for every type shows how long a reply event takes to arrive.
    rule: 'a re-enabled endpoint gets exactly the event types it subscribed to',
    commands: [
      new EnableEndpoint(1),
      new CreateEndpoint(EVERY_TYPE),
      new FireEvent(EMAIL_SENT),
      new FireEvent(REPLY_RECEIVED),
    ],
  },
  { rule: 'a disabled endpoint gets no delivery', commands: [new CreateEndpoint(), new FireEvent()] },
  { rule: 'a disabled endpoint holds no active slot', commands: [new FillToLimit()] },
  {
    rule: 'a disabled endpoint can be deleted',
    commands: [new DeleteEndpoint(0), new CreateEndpoint(), new FireEvent()],
  },
];

/**
 * ENDPOINT_HEALTH_SCENARIOS, then generated sequences of ENDPOINT_HEALTH_COMMANDS, each
 * against a workspace whose endpoints 1..DISABLED_AT_START the target has auto-disabled
 * (their receivers answer 2xx again).
 */
export function runEndpointHealthModel(options: ModelRunOptions<EndpointTarget>): Promise<ModelRunResult> {
  const initial = (): EndpointModel => ({
    endpoints: DISABLED_SUBSCRIPTIONS.map(() => 'disabled' as const),
    subscriptions: [...DISABLED_SUBSCRIPTIONS],
  });
  return runModel(ENDPOINT_HEALTH_COMMANDS, initial, options, ENDPOINT_HEALTH_SCENARIOS);
}
