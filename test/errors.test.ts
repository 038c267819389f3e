import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as errors from '../src/errors.js';
import {
  BudgetExhausted,
  CatalogError,
  CheckFailure,
  CheckSkip,
  ControlError,
  ControlUnsupported,
  HarnessError,
  HttpError,
  InternalError,
  K6NotFound,
  ModelViolation,
  ReportFileError,
  RegistrationError,
  RunAbort,
  SamplesError,
  ScenarioError,
  SettingsError,
  StoreError,
  SigningKeyError,
  AttestationError,
  UsageError,
} from '../src/errors.js';

/** One row per error class of src/errors.ts: an instance, its name, its stable code. */
const TABLE: ReadonlyArray<readonly [errors.HarnessError, string, string]> = [
  [new SettingsError('SVC_BASE_URL is empty'), 'SettingsError', 'ERR_SETTINGS'],
  [new UsageError("Unknown option '--x'"), 'UsageError', 'ERR_USAGE'],
  [new RunAbort('target unreachable'), 'RunAbort', 'ERR_RUN_ABORT'],
  [new ReportFileError('a.json: no such file'), 'ReportFileError', 'ERR_REPORT_FILE'],
  [new ControlError('control POST /workspaces: 500', 500, 'internal'), 'ControlError', 'ERR_CONTROL'],
  [new HttpError('GET /v1/whoami: no complete answer within 10000 ms', 'timeout'), 'HttpError', 'ERR_HTTP_TIMEOUT'],
  [new HttpError('GET /v1/whoami: read ECONNRESET', 'network'), 'HttpError', 'ERR_HTTP_NETWORK'],
  [
    new HttpError('GET /v1/whoami: response body larger than 1048576 bytes', 'too-large'),
    'HttpError',
    'ERR_HTTP_TOO_LARGE',
  ],
  [new CheckFailure('expected 401, got 200'), 'CheckFailure', 'ERR_CHECK_FAILED'],
  [new CheckSkip('needs a control interface'), 'CheckSkip', 'ERR_CHECK_SKIPPED'],
  [new ControlUnsupported('the static adapter cannot revoke a token'), 'ControlUnsupported', 'ERR_CONTROL_UNSUPPORTED'],
  [new BudgetExhausted('request budget spent'), 'BudgetExhausted', 'ERR_BUDGET_EXHAUSTED'],
  [new K6NotFound('k6 v2 was not found'), 'K6NotFound', 'ERR_K6_NOT_FOUND'],
  [new SamplesError("a.ndjson:2 is not a line of k6's JSON output"), 'SamplesError', 'ERR_SAMPLES'],
  [new StoreError('http://127.0.0.1:9090/api/v1/write answered 400'), 'StoreError', 'ERR_STORE'],
  [new RegistrationError('check HOOK-X is declared in two suites'), 'RegistrationError', 'ERR_REGISTRATION'],
  [new ModelViolation('endpoint 26 was created with 25 active'), 'ModelViolation', 'ERR_MODEL_VIOLATION'],
  [new ScenarioError('the scenario holds a command its model does not allow'), 'ScenarioError', 'ERR_MODEL_SCENARIO'],
  [new CatalogError('check X cites no spec clause'), 'CatalogError', 'ERR_CATALOG'],
  [new InternalError('the receiver is closed'), 'InternalError', 'ERR_INTERNAL'],
  [new SigningKeyError('CERTIFY_SIGNING_KEY: key.pem is an RSA key'), 'SigningKeyError', 'ERR_SIGNING_KEY'],
  [new AttestationError('report.json: sha256 differs'), 'AttestationError', 'ERR_ATTESTATION'],
];

/** Every class src/errors.ts exports that is a HarnessError, by its export name. */
const errorClasses: ReadonlyArray<readonly [string, unknown]> = Object.entries(errors).filter(
  ([, value]) => typeof value === 'function' && value.prototype instanceof errors.HarnessError,
);

describe('harness errors', () => {
  it.each(TABLE)('%s has the name %s and the stable code %s', (error, name, code) => {
    expect(error).toBeInstanceOf(HarnessError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe(name);
    expect(error.code).toBe(code);
    // 2: the run could not happen; an attestation that does not hold is a verdict (1).
    expect(error.exitCode).toBe(error instanceof AttestationError ? 1 : 2);
    expect(String(error)).toBe(`${name}: ${error.message}`);
  });

  it('has a row in the table for every error class, and no code shared by two classes', () => {
    const named = new Set<unknown>(TABLE.map(([error]) => error.constructor));
    for (const [name, cls] of errorClasses) expect(named.has(cls), `${name} has no row in the table`).toBe(true);
    const classOfCode = new Map<string, unknown>();
    for (const [error, , code] of TABLE) {
      expect(classOfCode.get(code) ?? error.constructor, code).toBe(error.constructor);
      classOfCode.set(code, error.constructor);
    }
  });

  it('is documented: docs/errors.md has a row for every code', () => {
    const doc = readFileSync(new URL('../docs/errors.md', import.meta.url), 'utf8');
    for (const [error, name, code] of TABLE)
      expect(doc, `${name} (${code})`).toContain(`| \`${code}\` | \`${error.name}\``);
  });

  it('AttestationError exits 1: what was handed over does not hold, which is a verdict, not a run that could not happen', () => {
    const error = new AttestationError('report.json: sha256 differs');
    expect(error).toBeInstanceOf(HarnessError);
    expect([error.name, error.code, error.exitCode]).toEqual(['AttestationError', 'ERR_ATTESTATION', 1]);
  });

  it('ControlError tells a refusal (4xx) from a failure, and keeps the target code apart from its own', () => {
    expect(new ControlError('refused', 409, 'token_limit').refused).toBe(true);
    expect(new ControlError('failed', 503, undefined).refused).toBe(false);
    expect(new ControlError('no answer', undefined, undefined).refused).toBe(false);
    expect(new ControlError('refused', 409, 'token_limit').targetCode).toBe('token_limit');
  });
});
