/**
 * A certification handed over (issue 47): one `certify` run of two checks, signed, with
 * CERTIFY_MIN_COVERAGE=100. Its attestation verifies with `svc-harness verify` and with an
 * independent DSSE/in-toto implementation (securesystemslib and the in-toto attestation
 * bindings, Python, installed by .ci/run into .tools/attest-verifier); an edited report, an
 * edited verdict, a wrong key and a truncated envelope each fail.
 */
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signEnvelope, type DsseEnvelope } from '../../src/attest/dsse.js';
import { loadSigningKey } from '../../src/attest/keys.js';
import type { Statement } from '../../src/attest/statement.js';
import type { RunReport } from '../../src/report/model.js';
import { reportSchemaProblems } from '../../src/report/validate.js';
import { ROOT, runHarness } from '../support/child.js';

const PYTHON = join(ROOT, '.tools/attest-verifier/bin/python');
const INDEPENDENT = join(ROOT, 'test/attest/independent_verify.py');
const CHECKS = 'AUTH-WHOAMI-ACCEPTED,AUTH-MISSING-HEADER';
// .ci/run installs the verifier; only a developer's machine without it may skip, and says so.
const hasVerifier = existsSync(PYTHON);
if (!hasVerifier && process.env.CI)
  throw new Error(
    `${PYTHON} is missing: .ci/run installs it from .ci/attest-verifier.txt; CI must not skip the independent verification`,
  );
if (!hasVerifier)
  console.warn(`skipping the independent verification: no ${PYTHON} (run the verifier step of .ci/run to install it)`);

const dir = mkdtempSync(join(tmpdir(), 'attestation-'));
const reports = join(dir, 'reports');
const attestation = join(reports, 'attestation.intoto.json');
let certified: Awaited<ReturnType<typeof runHarness>>;

function keyPair(name: string, type: 'ec' | 'ed25519'): { key: string; pub: string } {
  const pair = type === 'ec' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('ed25519');
  const key = join(dir, `${name}.pem`);
  const pub = join(dir, `${name}.pub.pem`);
  writeFileSync(key, pair.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, { mode: 0o600 });
  writeFileSync(pub, pair.publicKey.export({ type: 'spki', format: 'pem' }) as string);
  return { key, pub };
}
const signer = keyPair('signer', 'ec');
const other = keyPair('other', 'ec');

/** A copy of the handed-over folder to tamper with. */
function copyOfReports(name: string): string {
  const copy = join(dir, name);
  cpSync(reports, copy, { recursive: true });
  return copy;
}

const verify = (path: string, key: string, reportsDir?: string) =>
  runHarness(['verify', path, '--key', key, ...(reportsDir ? ['--reports', reportsDir] : [])], { timeoutMs: 30_000 });
const independent = (path: string, key: string, reportsDir: string) =>
  spawnSync(PYTHON, [INDEPENDENT, path, key, reportsDir], { encoding: 'utf8', timeout: 60_000 });
const envelopeOf = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as DsseEnvelope;
const statementOf = (envelope: DsseEnvelope) =>
  JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8')) as Statement;

beforeAll(async () => {
  certified = await runHarness(
    ['certify', '--checks', CHECKS, '--report-dir', reports, '--target-version', '9.9.9-test'],
    {
      env: { CERTIFY_SIGNING_KEY: signer.key, CERTIFY_MIN_COVERAGE: '100' },
      timeoutMs: 150_000,
    },
  );
}, 160_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a signed certification of two checks with CERTIFY_MIN_COVERAGE=100', () => {
  it('exits 1 naming the coverage, and every report says partial, with the provenance', () => {
    expect(certified.exitCode, certified.stderr).toBe(1);
    expect(certified.stderr).toMatch(
      /certify: coverage \d+(\.\d)?% \(2 of \d+ must checks ran\) is below CERTIFY_MIN_COVERAGE 100%; missing: not selected in this partial run \(--checks AUTH-WHOAMI-ACCEPTED,AUTH-MISSING-HEADER\)/,
    );
    expect(certified.stdout).toMatch(/^partial run: 2 of \d+ checks of tier fast selected/m);
    expect(certified.stdout).toContain('attestation.intoto.json');
    const report = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as RunReport;
    expect(reportSchemaProblems(report)).toEqual([]);
    expect(report.partial).toBe(true);
    expect(report.selection).toMatchObject({ tier: 'fast', checks: CHECKS, selected: 2 });
    expect(report.provenance).toMatchObject({ target_version: '9.9.9-test', control_contract: { version: 1 } });
    expect(report.provenance!.catalog.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(join(reports, 'report.md'), 'utf8')).toMatch(/^# Certification report: FAILED \(partial run\)/);
    expect(readFileSync(join(reports, 'report.html'), 'utf8')).toContain('(partial run)');
    expect(readFileSync(join(reports, 'junit.xml'), 'utf8')).toContain('<property name="partial" value="true"/>');
    // The key's path may be printed; its material never.
    const material = readFileSync(signer.key, 'utf8')
      .split('\n')
      .filter((line) => line && !line.startsWith('-----'));
    for (const file of ['report.json', 'report.md', 'report.html', 'junit.xml', 'attestation.intoto.json']) {
      for (const line of material) expect(readFileSync(join(reports, file), 'utf8')).not.toContain(line);
    }
    for (const line of material) expect(certified.stdout + certified.stderr).not.toContain(line);
  });

  it('attests the run: the reports by digest, the result, the check ids and the provenance', () => {
    const envelope = envelopeOf(attestation);
    expect(envelope.payloadType).toBe('application/vnd.in-toto+json');
    expect(envelope.signatures).toEqual([{ keyid: loadSigningKey(signer.key).keyid, sig: expect.any(String) }]);
    const statement = statementOf(envelope);
    expect(statement._type).toBe('https://in-toto.io/Statement/v1');
    expect(statement.predicateType).toBe('https://in-toto.io/attestation/test-result/v0.1');
    expect(statement.subject.map((subject) => subject.name)).toEqual([
      'report.json',
      'junit.xml',
      'report.md',
      'report.html',
    ]);
    expect(statement.predicate.result).toBe('FAILED');
    expect([...statement.predicate.passedTests, ...statement.predicate.failedTests].sort()).toEqual(
      CHECKS.split(',').sort(),
    );
    expect(statement.predicate.configuration.find((entry) => entry.name === 'target')?.annotations).toMatchObject({
      version: '9.9.9-test',
    });
    expect(statement.predicate.configuration.find((entry) => entry.name === 'run')?.annotations).toMatchObject({
      partial: true,
      verdict: 'FAILED',
    });
  });

  it('verifies with svc-harness verify, which prints the attested verdict', async () => {
    const run = await verify(attestation, signer.pub);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^verified: .*attestation\.intoto\.json signed by ecdsa-p256 key [0-9a-f]{64}$/m);
    expect(run.stdout).toMatch(/^ {2}report\.json: sha256 [0-9a-f]{64} matches$/m);
    expect(run.stdout).toMatch(
      /^result: FAILED \(partial run: 2 of \d+ checks of tier fast, --checks AUTH-WHOAMI-ACCEPTED,AUTH-MISSING-HEADER\)$/m,
    );
    expect(run.stdout).toMatch(/^target: http:\/\/127\.0\.0\.1:\d+, version 9\.9\.9-test$/m);
  });

  it.skipIf(!hasVerifier)('verifies with securesystemslib and the in-toto attestation bindings (Python)', () => {
    const run = independent(attestation, signer.pub, reports);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /^securesystemslib ecdsa-sha2-nistp256: DSSE signature verified by keyid [0-9a-f]{64}$/m,
    );
    expect(run.stdout).toContain(
      'in-toto-attestation: Statement v1 valid, 4 subjects, predicate https://in-toto.io/attestation/test-result/v0.1 parsed strictly',
    );
    expect(run.stdout).toMatch(/^result FAILED: /m);
  });

  it.skipIf(!hasVerifier)(
    'and the same statement signed with Ed25519 verifies there too; an edited report fails there as here',
    () => {
      const ed = keyPair('ed', 'ed25519');
      const signed = signEnvelope(
        Buffer.from(envelopeOf(attestation).payload, 'base64'),
        'application/vnd.in-toto+json',
        loadSigningKey(ed.key),
      );
      const edPath = join(reports, 'attestation-ed25519.json');
      writeFileSync(edPath, JSON.stringify(signed));
      const run = independent(edPath, ed.pub, reports);
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/^securesystemslib ed25519: DSSE signature verified/m);
      rmSync(edPath);
      const edited = copyOfReports('edited-for-python');
      writeFileSync(join(edited, 'report.md'), `${readFileSync(join(edited, 'report.md'), 'utf8')}\n`);
      const refused = independent(join(edited, 'attestation.intoto.json'), signer.pub, edited);
      expect(refused.status).not.toBe(0);
      expect(refused.stderr).toMatch(/subject report\.md: sha256 [0-9a-f]{64} differs/);
    },
  );
});

describe('svc-harness verify refuses what does not hold, with exit 1 and a line saying which', () => {
  it('an edited report', async () => {
    const edited = copyOfReports('edited-report');
    const path = join(edited, 'report.json');
    writeFileSync(
      path,
      readFileSync(path, 'utf8')
        .replace('"verdict": "fail"', '"verdict": "pass"')
        .replace('"must_percent": ', '"must_percent": 1'),
    );
    const run = await verify(join(edited, 'attestation.intoto.json'), signer.pub);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(
      /^svc-harness verify: report\.json: sha256 [0-9a-f]{64} differs from the attested [0-9a-f]{64}: the file was changed after signing$/m,
    );
  });

  it('an edited verdict in the attestation', async () => {
    const edited = copyOfReports('edited-verdict');
    const path = join(edited, 'attestation.intoto.json');
    const envelope = envelopeOf(path);
    const statement = statementOf(envelope);
    statement.predicate.result = 'PASSED';
    writeFileSync(
      path,
      JSON.stringify({ ...envelope, payload: Buffer.from(JSON.stringify(statement)).toString('base64') }),
    );
    const run = await verify(path, signer.pub);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(
      /the signature does not verify with .*signer\.pub\.pem \(keyid [0-9a-f]{64}\): the payload or the signature was changed after signing/,
    );
  });

  it('a wrong key', async () => {
    const run = await verify(attestation, other.pub);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(
      /wrong key: it is signed by keyid [0-9a-f]{64}, and .*other\.pub\.pem is keyid [0-9a-f]{64}/,
    );
  });

  it('a truncated envelope', async () => {
    const truncated = join(dir, 'truncated.intoto.json');
    const text = readFileSync(attestation, 'utf8');
    writeFileSync(truncated, text.slice(0, Math.floor(text.length / 2)));
    const run = await verify(truncated, signer.pub, reports);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(/truncated\.intoto\.json: not a DSSE envelope: not JSON, truncated or edited/);
  });

  it('and exits 2 without --key, or with a key it cannot use', async () => {
    expect((await runHarness(['verify', attestation], { timeoutMs: 30_000 })).exitCode).toBe(2);
    const run = await verify(attestation, join(reports, 'report.md'));
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/--key .*report\.md is not a PEM public key/);
  });
});

describe('certify with a key it does not sign with', () => {
  it('stops before any check with exit 2, naming the setting and the key type', async () => {
    const rsa = join(dir, 'rsa.pem');
    writeFileSync(
      rsa,
      generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    );
    const run = await runHarness(
      ['certify', '--checks', 'AUTH-WHOAMI-ACCEPTED', '--report-dir', join(dir, 'rsa-reports')],
      { env: { CERTIFY_SIGNING_KEY: rsa }, timeoutMs: 60_000 },
    );
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(
      /^certify: CERTIFY_SIGNING_KEY .*rsa\.pem is a key of type RSA; give an ECDSA P-256 or Ed25519 key/m,
    );
    expect(existsSync(join(dir, 'rsa-reports'))).toBe(false);
  });
});
