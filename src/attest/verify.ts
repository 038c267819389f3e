/**
 * `svc-harness verify`: an attestation holds when its DSSE signature is the given key's, its
 * payload is an in-toto Statement v1 with the test-result predicate, and every report file it
 * names has the digest it states. Each way it can fail is an AttestationError whose message
 * says which: not an envelope (truncated, edited JSON), a wrong key, an edited payload, a
 * missing or edited report. What the envelope says is the signer's text: printed only after
 * the signature holds, and made printable first.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AttestationError } from '../errors.js';
import { printable } from '../text/printable.js';
import { IN_TOTO_PAYLOAD_TYPE, signatureVerifies, type DsseEnvelope } from './dsse.js';
import type { VerifyingKey } from './keys.js';
import {
  REPORT_MEDIA_TYPES,
  STATEMENT_TYPE,
  TEST_RESULT_PREDICATE,
  type ResourceDescriptor,
  type Statement,
} from './statement.js';

/** An envelope holds one statement of a few kilobytes; anything far larger is not one of ours. */
const MAX_ENVELOPE_BYTES = 4 * 1024 * 1024;

export interface CheckedSubject {
  name: string;
  sha256: string;
  /** `file`: compared with the file in the reports folder; `image`: stated, for the engine to compare. */
  kind: 'file' | 'image';
}

export interface Verified {
  statement: Statement;
  keyid: string;
  subjects: CheckedSubject[];
}

function readEnvelope(path: string): DsseEnvelope {
  if (!existsSync(path)) throw new AttestationError(`${path}: no such file`);
  if (statSync(path).size > MAX_ENVELOPE_BYTES)
    throw new AttestationError(`${path}: larger than ${MAX_ENVELOPE_BYTES} bytes; not an attestation of this harness`);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new AttestationError(
      `${path}: not a DSSE envelope: not JSON, truncated or edited (${(error as Error).message})`,
    );
  }
  const envelope = value as Partial<DsseEnvelope> | null;
  const shaped =
    envelope !== null &&
    typeof envelope === 'object' &&
    typeof envelope.payloadType === 'string' &&
    typeof envelope.payload === 'string' &&
    Array.isArray(envelope.signatures) &&
    envelope.signatures.length > 0 &&
    envelope.signatures.every(
      (signature) =>
        typeof signature?.sig === 'string' && (signature.keyid === undefined || typeof signature.keyid === 'string'),
    );
  if (!shaped)
    throw new AttestationError(
      `${path}: not a DSSE envelope: it needs payloadType, payload and at least one signature`,
    );
  return envelope as DsseEnvelope;
}

/** The signature made by `key`, or an error telling a wrong key (no signature by its id) from an edited envelope. */
function checkSignature(path: string, envelope: DsseEnvelope, key: VerifyingKey, keyPath: string): void {
  if (envelope.signatures.some((signature) => signatureVerifies(envelope, signature, key))) return;
  const ids = envelope.signatures.map((signature) => printable(signature.keyid ?? '(no keyid)', 80));
  if (!envelope.signatures.some((signature) => signature.keyid === key.keyid)) {
    throw new AttestationError(
      `${path}: wrong key: it is signed by keyid ${ids.join(', ')}, and ${keyPath} is keyid ${key.keyid}; get the certifier's public key`,
    );
  }
  throw new AttestationError(
    `${path}: the signature does not verify with ${keyPath} (keyid ${key.keyid}): the payload or the signature was changed after signing`,
  );
}

function parseStatement(path: string, envelope: DsseEnvelope): Statement {
  if (envelope.payloadType !== IN_TOTO_PAYLOAD_TYPE)
    throw new AttestationError(
      `${path}: payloadType is ${printable(envelope.payloadType, 100)}, not ${IN_TOTO_PAYLOAD_TYPE}`,
    );
  let statement: Partial<Statement>;
  try {
    statement = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8')) as Partial<Statement>;
  } catch {
    throw new AttestationError(`${path}: its payload is not JSON`);
  }
  if (statement._type !== STATEMENT_TYPE)
    throw new AttestationError(
      `${path}: not an in-toto Statement v1 (_type ${printable(String(statement._type), 100)})`,
    );
  if (statement.predicateType !== TEST_RESULT_PREDICATE)
    throw new AttestationError(
      `${path}: predicateType ${printable(String(statement.predicateType), 100)}, not ${TEST_RESULT_PREDICATE}`,
    );
  if (!Array.isArray(statement.subject) || statement.subject.length === 0)
    throw new AttestationError(`${path}: the statement names no subject`);
  if (!statement.predicate || typeof statement.predicate.result !== 'string')
    throw new AttestationError(`${path}: the predicate states no result`);
  return statement as Statement;
}

/** A report file's name as a subject names it: a plain file name, never a path out of the folder. */
function reportName(subject: ResourceDescriptor): string | undefined {
  const name = subject.name;
  return typeof name === 'string' && Object.hasOwn(REPORT_MEDIA_TYPES, name) ? name : undefined;
}

function checkSubjects(statement: Statement, reportsDir: string): CheckedSubject[] {
  const checked: CheckedSubject[] = [];
  for (const subject of statement.subject) {
    const stated = subject.digest?.sha256;
    const name = printable(String(subject.name ?? '(unnamed)'), 200);
    if (typeof stated !== 'string') throw new AttestationError(`subject ${name}: no sha256 digest`);
    const file = reportName(subject);
    if (!file) {
      checked.push({ name, sha256: stated, kind: 'image' });
      continue;
    }
    const path = join(reportsDir, file);
    if (!existsSync(path))
      throw new AttestationError(
        `${file}: missing from ${reportsDir}; give the folder the reports were handed over in (--reports)`,
      );
    const actual = createHash('sha256').update(readFileSync(path)).digest('hex');
    if (actual !== stated)
      throw new AttestationError(
        `${file}: sha256 ${actual} differs from the attested ${printable(stated, 64)}: the file was changed after signing`,
      );
    checked.push({ name: file, sha256: actual, kind: 'file' });
  }
  if (!checked.some((subject) => subject.kind === 'file'))
    throw new AttestationError('the statement names no report file');
  return checked;
}

export function verifyAttestation(options: {
  attestationPath: string;
  key: VerifyingKey;
  keyPath: string;
  reportsDir?: string;
}): Verified {
  const envelope = readEnvelope(options.attestationPath);
  checkSignature(options.attestationPath, envelope, options.key, options.keyPath);
  const statement = parseStatement(options.attestationPath, envelope);
  const subjects = checkSubjects(statement, options.reportsDir ?? dirname(options.attestationPath));
  return { statement, keyid: options.key.keyid, subjects };
}

/** What the statement attests, in lines: the result, the run's own verdict and selection, and what was tested by what. */
export function attestedLines(statement: Statement): string[] {
  const { predicate } = statement;
  const entry = (name: string) =>
    predicate.configuration?.find((item) => item.name === name || item.annotations?.role === name);
  const run = entry('run')?.annotations ?? {};
  const target = entry('target');
  const harness = entry('harness');
  const selection = run.selection as
    | { selected?: number; of_tier?: number; tier?: string; checks?: string; rerun_failed?: string }
    | undefined;
  const partial =
    run.partial === true && selection
      ? ` (partial run: ${selection.selected} of ${selection.of_tier} checks of tier ${selection.tier}${selection.checks ? `, --checks ${selection.checks}` : ''}${selection.rerun_failed ? `, --rerun-failed ${selection.rerun_failed}` : ''})`
      : '';
  const lines = [
    `result: ${predicate.result}${run.verdict && run.verdict !== predicate.result ? ` (run verdict ${String(run.verdict)})` : ''}${partial}`,
    `checks: ${predicate.passedTests?.length ?? 0} passed, ${predicate.warnedTests?.length ?? 0} warned, ${predicate.failedTests?.length ?? 0} failed or without a verdict${typeof run.mustCoveragePercent === 'number' ? `; must coverage ${run.mustCoveragePercent}% of the tier (minimum ${String(run.minMustCoveragePercent ?? 0)}%)` : ''}`,
    `target: ${String(target?.uri ?? 'not stated')}${target?.annotations?.version ? `, version ${String(target.annotations.version)}` : ', version not given'}`,
    `harness: ${String(harness?.annotations?.build ?? 'not stated')}; run ${String(run.startedAt ?? '?')} to ${String(run.finishedAt ?? '?')}, seed ${String(run.seed ?? '?')}`,
  ];
  return lines.map((line) => printable(line, 2_000));
}
