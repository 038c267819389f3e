/**
 * A failure names the exchange it judged: under the reference fault that answers 403 for every
 * invalid credential (bad-token-403), every failing check's first evidence is the answer its
 * assertion judged, with a reproduce line that holds no secret. REVOKE-STAYS-REVOKED judges
 * an observation made by whichever revocation check started first, so its own exchanges may
 * hold none of the polls: the judged answer must still come first.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReference, type RunningReference } from '../../reference/index.js';
import { runCertify, type ChildRun } from '../faults/certify-child.js';

const CHECKS = [
  'AUTH-NO-CREDENTIAL-401',
  'AUTH-MALFORMED-HEADER',
  'AUTH-WRONG-SCHEME',
  'AUTH-UNKNOWN-TOKEN',
  'AUTH-MALFORMED-PROPERTY',
  'REVOKE-PROPAGATION',
  'REVOKE-STAYS-REVOKED',
  // A property over mutated session tokens and the token model: the answer of the failing step.
  'SESSION-MUTATION-PROPERTY',
  'MODEL-TOKENS-SUSPENSION',
];
/** A credential of the spec's shape, or a JWT: none may reach a reproduce line. */
const CREDENTIAL = /svc_(?:live|test)_[A-Za-z0-9]|eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*\./;

describe('the judged exchange under bad-token-403', () => {
  let reference: RunningReference;
  let run: ChildRun;

  beforeAll(async () => {
    reference = await startReference({ quiet: true });
    const prefix = '/faults/bad-token-403';
    run = await runCertify({
      SVC_BASE_URL: `${reference.baseUrl}${prefix}`,
      SVC_CONTROL_URL: reference.controlUrl.replace(reference.baseUrl, `${reference.baseUrl}${prefix}`),
      SVC_CONTROL_TOKEN: reference.controlToken,
      CERTIFY_CHECKS: CHECKS.join(','),
    });
  }, 180_000);

  afterAll(async () => {
    await reference?.close();
  });

  test('every failing check shows first the 403 its assertion judged, with a reproduce line', () => {
    expect(run.report, `no report; output:\n${run.output.slice(-3000)}`).toBeDefined();
    const failing = run.report!.checks.filter((check) => check.verdict === 'fail');
    // The fault breaks each of these; REVOKE-STAYS-REVOKED among them, which once failed with no evidence at all.
    expect(failing.map((check) => check.id).sort()).toEqual(
      expect.arrayContaining([
        'AUTH-UNKNOWN-TOKEN',
        'REVOKE-PROPAGATION',
        'REVOKE-STAYS-REVOKED',
        'SESSION-MUTATION-PROPERTY',
        'MODEL-TOKENS-SUSPENSION',
      ]),
    );
    for (const check of failing) {
      const evidence = check.measurements?.['evidence'] as Array<Record<string, unknown>> | undefined;
      expect(evidence?.length, `${check.id}: ${check.detail}`).toBeGreaterThan(0);
      const [first] = evidence!;
      expect(first, `${check.id}: ${check.detail}`).toMatchObject({ judged: true, answer: 403 });
      expect(String(first!['request']), check.id).toMatch(/^(GET|POST|PUT|PATCH|DELETE) \/v1\//);
      expect(String(first!['body']), check.id).toContain('invalid_token');
      const reproduce = String(first!['reproduce']);
      expect(reproduce, check.id).toMatch(/^curl -sS -i -X [A-Z]+ http:\/\/127\.0\.0\.1:\d+\/faults\/bad-token-403\//);
      expect(reproduce, check.id).not.toMatch(CREDENTIAL);
      expect(
        evidence!.slice(1).filter((exchange) => exchange['judged'] !== undefined),
        check.id,
      ).toEqual([]);
    }
  });

  test('a token the check had issued is a placeholder in the reproduce line', () => {
    const stays = run.report!.checks.find((check) => check.id === 'REVOKE-STAYS-REVOKED');
    const [first] = (stays?.measurements?.['evidence'] ?? []) as Array<Record<string, unknown>>;
    expect(String(first?.['reproduce'])).toContain('"authorization: Bearer $SVC_TOKEN"');
  });
});
