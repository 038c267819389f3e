import type { AnswerRule, CapturedDelivery } from './types.js';

/** The answer the receiver carries out, after rules are applied. */
export type ResolvedAnswer =
  | {
      kind: 'status';
      status: number;
      delayMs: number;
      headers: Record<string, string>;
      body: string | undefined;
      bodyDelayMs: number;
    }
  | { kind: 'reset'; delayMs: number }
  | { kind: 'hang' };

/** Rejects a rule that cannot be carried out, at `respond()` time rather than mid-delivery. */
export function checkRule(rule: AnswerRule): AnswerRule {
  const fields = rule as unknown as Record<string, unknown>;
  const kinds = ['status' in rule, 'reset' in rule, 'hang' in rule].filter(Boolean).length;
  if (kinds !== 1) throw new TypeError('an answer rule needs exactly one of status, reset, hang');
  if ('status' in rule && !(Number.isInteger(rule.status) && rule.status >= 200 && rule.status <= 599)) {
    throw new RangeError(`answer status must be an integer 200..599, got ${String(rule.status)}`);
  }
  for (const name of ['delayMs', 'bodyDelayMs']) {
    const value = fields[name];
    if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value >= 0)) {
      throw new RangeError(`${name} must be a finite number >= 0, got ${String(value)}`);
    }
  }
  if (rule.firstAttempts !== undefined && !(Number.isInteger(rule.firstAttempts) && rule.firstAttempts >= 1)) {
    throw new RangeError(`firstAttempts must be an integer >= 1, got ${String(rule.firstAttempts)}`);
  }
  return rule;
}

export function ruleMatches(rule: AnswerRule, delivery: CapturedDelivery): boolean {
  if (rule.eventId !== undefined && rule.eventId !== delivery.verdicts.eventId) return false;
  if (rule.eventType !== undefined && rule.eventType !== delivery.verdicts.eventType) return false;
  if (rule.firstAttempts !== undefined && delivery.attempt > rule.firstAttempts) return false;
  return true;
}

/**
 * First matching rule wins; without one, the spec's reference receiver: 204 when the
 * signature verifies (or no secret is set yet), 401 when it does not. With
 * `rejectStaleTimestamp`, a timestamp outside the tolerance is also answered 401
 * (Events > Signature, 3: a receiver rejects it).
 */
export function resolveAnswer(
  rules: readonly AnswerRule[],
  delivery: CapturedDelivery,
  redirectTarget: string,
  rejectStaleTimestamp: boolean,
): ResolvedAnswer {
  for (const rule of rules) {
    if (ruleMatches(rule, delivery)) return fromRule(rule, redirectTarget);
  }
  const { signature, timestamp } = delivery.verdicts;
  const rejected = (signature !== 'no-secret' && !signature.ok) || (rejectStaleTimestamp && !timestamp.ok);
  return rejected ? UNAUTHORIZED : NO_CONTENT_ANSWER;
}

/** The answer to a delivery that verifies: a bare 204, written without a headers object. */
export const NO_CONTENT_ANSWER: ResolvedAnswer = {
  kind: 'status',
  status: 204,
  delayMs: 0,
  headers: {},
  body: undefined,
  bodyDelayMs: 0,
};
const UNAUTHORIZED: ResolvedAnswer = {
  kind: 'status',
  status: 401,
  delayMs: 0,
  headers: { 'content-type': 'text/plain' },
  body: 'delivery rejected\n',
  bodyDelayMs: 0,
};

function fromRule(rule: AnswerRule, redirectTarget: string): ResolvedAnswer {
  if ('hang' in rule) return { kind: 'hang' };
  if ('reset' in rule) return { kind: 'reset', delayMs: rule.delayMs ?? 0 };
  const headers = { ...lowerCaseKeys(rule.headers ?? {}) };
  if (rule.status >= 300 && rule.status < 400 && headers['location'] === undefined)
    headers['location'] = redirectTarget;
  return {
    kind: 'status',
    status: rule.status,
    delayMs: rule.delayMs ?? 0,
    headers,
    body: rule.body,
    bodyDelayMs: rule.bodyDelayMs ?? 0,
  };
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}
