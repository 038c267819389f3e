/**
 * attestation.intoto.json: the run's Statement (statement.ts) in a DSSE envelope signed with
 * CERTIFY_SIGNING_KEY, beside the reports it names. It is written last, over the files as
 * written, so an edit to any of them after the run shows as a digest that differs.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunReport } from '../report/model.js';
import { reportAsWritten } from '../report/write.js';
import { mask } from '../secrets/mask.js';
import { IN_TOTO_PAYLOAD_TYPE, signEnvelope } from './dsse.js';
import type { SigningKey } from './keys.js';
import { statementOf } from './statement.js';

export const ATTESTATION_FILE = 'attestation.intoto.json';

export function writeAttestation(
  report: RunReport,
  reportFiles: readonly string[],
  dir: string,
  key: SigningKey,
): string {
  const statement = statementOf(reportAsWritten(report), reportFiles);
  const payload = Buffer.from(mask(JSON.stringify(statement)), 'utf8');
  const path = join(dir, ATTESTATION_FILE);
  writeFileSync(path, `${JSON.stringify(signEnvelope(payload, IN_TOTO_PAYLOAD_TYPE, key), null, 2)}\n`);
  return path;
}
