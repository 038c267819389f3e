import { describe, expect, it } from 'vitest';
import {
  BudgetExhausted,
  CheckFailure,
  CheckSkip,
  ControlError,
  ControlUnsupported,
  HarnessError,
  HttpError,
  K6NotFound,
  ReportFileError,
  RunAbort,
  SamplesError,
  SettingsError,
  StoreError,
  SigningKeyError,
  AttestationError,
  UsageError,
} from '../src/errors.js';

describe('harness errors', () => {
  it.each([
    [new SettingsError('SVC_BASE_URL is empty'), 'SettingsError', 'ERR_SETTINGS'],
    [new UsageError("Unknown option '--x'"), 'UsageError', 'ERR_USAGE'],
    [new RunAbort('target unreachable'), 'RunAbort', 'ERR_RUN_ABORT'],
    [new ReportFileError('a.json: no such file'), 'ReportFileError', 'ERR_REPORT_FILE'],
    [new ControlError('control POST /workspaces: 500', 500, 'internal'), 'ControlError', 'ERR_CONTROL'],
    [new HttpError('GET /v1/whoami: no complete answer within 10000 ms', 'timeout'), 'HttpError', 'ERR_HTTP_TIMEOUT'],
    [new HttpError('GET /v1/whoami: read ECONNRESET', 'network'), 'HttpError', 'ERR_HTTP_NETWORK'],
    [new HttpError('GET /v1/whoami: response body larger than 1048576 bytes', 'too-large'), 'HttpError', 'ERR_HTTP_TOO_LARGE'],
    [new CheckFailure('expected 401, got 200'), 'CheckFailure', 'ERR_CHECK_FAILED'],
    [new CheckSkip('needs a control interface'), 'CheckSkip', 'ERR_CHECK_SKIPPED'],
    [new ControlUnsupported('the static adapter cannot revoke a token'), 'ControlUnsupported', 'ERR_CONTROL_UNSUPPORTED'],
    [new BudgetExhausted('request budget spent'), 'BudgetExhausted', 'ERR_BUDGET_EXHAUSTED'],
    [new K6NotFound('k6 v2 was not found'), 'K6NotFound', 'ERR_K6_NOT_FOUND'],
    [new SamplesError('a.ndjson:2 is not a line of k6\'s JSON output'), 'SamplesError', 'ERR_SAMPLES'],
    [new StoreError('http://127.0.0.1:9090/api/v1/write answered 400'), 'StoreError', 'ERR_STORE'],
    [new SigningKeyError('CERTIFY_SIGNING_KEY: key.pem is an RSA key'), 'SigningKeyError', 'ERR_SIGNING_KEY'],
  ])('%s has the name %s and the stable code %s', (error, name, code) => {
    expect(error).toBeInstanceOf(HarnessError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe(name);
    expect(error.code).toBe(code);
    expect(error.exitCode).toBe(2);
    expect(String(error)).toBe(`${name}: ${error.message}`);
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
