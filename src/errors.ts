/**
 * Every error the harness raises on purpose, under one base with a stable `code` (undici's
 * habit): callers and tests branch on the class or the code, never on the message, which
 * may be reworded. `exitCode` is what a command exits with when the error ends it.
 */

/**
 * Exit codes of every command (../shared/contracts/runner.md, "Command"). `mustFailed` is a
 * must-level check of certify failing, or a load run failing otherwise than on a threshold
 * (a scenario that could not complete, a figure regressed past the baseline);
 * `thresholdsFailed` is k6's own code for a failed threshold, which `load` and `load merge`
 * keep so that scripts and CI recipes written for k6 read them alike.
 */
import type { Exchange } from './exchange.js';

export const EXIT = {
  passed: 0,
  mustFailed: 1,
  noRun: 2,
  cleanupIncomplete: 3,
  thresholdsFailed: 99,
  interrupted: 130,
} as const;

export abstract class HarnessError extends Error {
  abstract readonly code: string;
  /** 2: the run could not happen (../shared/contracts/runner.md). */
  readonly exitCode: number = EXIT.noRun;
}

/** A setting is unknown, missing or malformed; the message names it. */
export class SettingsError extends HarnessError {
  override name = 'SettingsError';
  readonly code = 'ERR_SETTINGS';
}

/** A command line the command cannot accept. */
export class UsageError extends HarnessError {
  override name = 'UsageError';
  readonly code = 'ERR_USAGE';
}

/** The run itself could not happen: unreachable target, refusal, no engine. */
export class RunAbort extends HarnessError {
  override name = 'RunAbort';
  readonly code = 'ERR_RUN_ABORT';
}

/** Samples that cannot be merged into a verdict: k6's missing or not its JSON output, too many, a threshold on nothing known, or a fan-out recording that is not one. */
export class SamplesError extends HarnessError {
  override name = 'SamplesError';
  readonly code = 'ERR_SAMPLES';
}

/** A report file that is missing, not JSON, or not of its schema: certify's report.json, or a load run's baseline. */
export class ReportFileError extends HarnessError {
  override name = 'ReportFileError';
  readonly code = 'ERR_REPORT_FILE';
}

/** A control-interface request the target refused or could not answer. */
export class ControlError extends HarnessError {
  override name = 'ControlError';
  readonly code = 'ERR_CONTROL';

  constructor(
    message: string,
    readonly status: number | undefined,
    /** The target's own `error.code`, when it sent one. */
    readonly targetCode: string | undefined,
  ) {
    super(message);
  }

  /** The target answered with a 4xx: "refused" in the contract's words. */
  get refused(): boolean {
    return this.status !== undefined && this.status >= 400 && this.status < 500;
  }
}

export type HttpFailureKind = 'timeout' | 'network' | 'rate-limited' | 'too-large' | 'malformed';

const HTTP_CODES = {
  timeout: 'ERR_HTTP_TIMEOUT',
  network: 'ERR_HTTP_NETWORK',
  'rate-limited': 'ERR_HTTP_RATE_LIMITED',
  'too-large': 'ERR_HTTP_TOO_LARGE',
  malformed: 'ERR_HTTP_MALFORMED',
} as const;

/** A request to the target that got no usable answer. */
export class HttpError extends HarnessError {
  override name = 'HttpError';
  readonly code: (typeof HTTP_CODES)[HttpFailureKind];

  constructor(
    message: string,
    readonly kind: HttpFailureKind,
    /** The system or TLS error code behind a lost answer (ECONNRESET, SELF_SIGNED_CERT_IN_CHAIN…), when known. */
    readonly causeCode?: string,
    /** The request that got no answer, as evidence, for a check that judges the missing answer. */
    readonly exchange?: Exchange,
  ) {
    super(message);
    this.code = HTTP_CODES[kind];
  }

  /**
   * The network kept the answer away (refused, reset, timed out, still rate-limited after
   * the retries): it says nothing about conformance, so a check that meets one ends `error`.
   * A body over the cap, or bytes that are not HTTP, are answers, and stay the target's.
   */
  get unanswered(): boolean {
    return this.kind !== 'too-large' && this.kind !== 'malformed';
  }
}

/** Whether `error` is a request that got no answer for reasons of the network (HttpError.unanswered). */
export function isUnanswered(error: unknown): error is HttpError {
  return error instanceof HttpError && error.unanswered;
}

/** The suites and the catalog disagree: a check declared in the wrong suite or twice, an area without a suite. */
export class RegistrationError extends HarnessError {
  override name = 'RegistrationError';
  readonly code = 'ERR_REGISTRATION';
}

/** No k6 v2 could be found or built; the message says how to get one. */
export class K6NotFound extends HarnessError {
  override name = 'K6NotFound';
  readonly code = 'ERR_K6_NOT_FOUND';
}

/** A check's rule was broken: thrown from a check body with a one-line reason. */
export class CheckFailure extends HarnessError {
  override name = 'CheckFailure';
  readonly code = 'ERR_CHECK_FAILED';

  constructor(
    message: string,
    /** The exchange the failing assertion judged, when it judged an answer: the report shows it first. */
    readonly judged?: Exchange,
  ) {
    super(message);
  }
}

/** A check could not run here (no control interface, other tier, nothing to judge); never a pass. */
export class CheckSkip extends HarnessError {
  override name = 'CheckSkip';
  readonly code = 'ERR_CHECK_SKIPPED';
}

/**
 * A control adapter (CERTIFY_CONTROL_ADAPTER) cannot do an operation; the message says which.
 * The check that needed it is skipped with that reason. Not a ControlError: the service did
 * not refuse anything, so no check may read it as the contract's refusal.
 */
export class ControlUnsupported extends HarnessError {
  override name = 'ControlUnsupported';
  readonly code = 'ERR_CONTROL_UNSUPPORTED';
}

/** The receiver certification's request budget or deadline ran out mid-check. */
export class BudgetExhausted extends HarnessError {
  override name = 'BudgetExhausted';
  readonly code = 'ERR_BUDGET_EXHAUSTED';
}

/**
 * A sequence of a model found the target breaking a rule: a command's postcondition did not
 * hold. The model's runner shrinks it and reports it as the check's failure.
 */
export class ModelViolation extends HarnessError {
  override name = 'ModelViolation';
  readonly code = 'ERR_MODEL_VIOLATION';
}

/** A fixed scenario of a model holds a command its model state does not allow: the scenario is wrong, not the target. */
export class ScenarioError extends HarnessError {
  override name = 'ScenarioError';
  readonly code = 'ERR_MODEL_SCENARIO';
}

/**
 * The catalog disagrees with itself or with the files it names (a check citing no clause,
 * an unknown clause or check id, a fixture without an entry): a defect of the harness, found
 * when its modules load, before any request.
 */
export class CatalogError extends HarnessError {
  override name = 'CatalogError';
  readonly code = 'ERR_CATALOG';
}

/**
 * A state the harness's own code should never reach (a receiver used after closing, a chart
 * scale without a range): a bug of the harness, not of the target; report it with the message.
 */
export class InternalError extends HarnessError {
  override name = 'InternalError';
  readonly code = 'ERR_INTERNAL';
}

/** A metrics store (Prometheus remote write) that refused a write or gave no answer in time. */
export class StoreError extends HarnessError {
  override name = 'StoreError';
  readonly code = 'ERR_STORE';
}

/** A signing or verification key the harness cannot use: no PEM, not PKCS#8 or SPKI, or a key type it does not sign with. */
export class SigningKeyError extends HarnessError {
  override name = 'SigningKeyError';
  readonly code = 'ERR_SIGNING_KEY';
}

/** An attestation that does not verify: not a DSSE envelope, a signature the key refuses, or a subject whose digest differs. */
export class AttestationError extends HarnessError {
  override name = 'AttestationError';
  readonly code = 'ERR_ATTESTATION';
  /** 1: what was handed over does not hold, as a failed check does; 2 stays "could not verify at all". */
  override readonly exitCode: number = EXIT.mustFailed;
}
