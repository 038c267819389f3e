/**
 * After `npm run certify` against the embedded reference: the reference must pass every
 * check of the tier. A skip is allowed only for checks of the other tier; a warn, a fail
 * or an unimplemented check fails the build, and so does a report.json the published schema refuses.
 */
import { join } from 'node:path';
import { getCheck } from '../src/catalog/checks.js';
import { readReportFile } from '../src/report/validate.js';

const dir = process.env.CERTIFY_REPORT_DIR ?? 'reports/latest';
// The report must also conform to the published schema (schemas/report.schema.json).
const report = readReportFile(join(dir, 'report.json'));
const problems = report.checks.filter((check) => {
  if (check.verdict === 'pass') return false;
  if (check.verdict === 'skip') return !(getCheck(check.id).tier === 'full' && report.tier === 'fast');
  return true;
});
if (!report.target.embedded_reference) {
  console.error('assert-clean-report: the report is not of the embedded reference');
  process.exit(1);
}
for (const check of problems) console.error(`not clean: ${check.id} ${check.verdict}: ${check.detail ?? ''}`);
console.log(`clean reference: ${report.summary.pass} passed, ${problems.length} failed, ${report.summary.skip} skipped`);
process.exit(problems.length === 0 ? 0 : 1);
