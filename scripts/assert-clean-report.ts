/**
 * After `npm run certify` against the embedded reference: the reference must pass every
 * check of the tier. A skip is allowed only for checks of the other tier; a warn, a fail
 * or an unimplemented check fails the build, and so does a report.json the published schema refuses.
 *
 * Under played network conditions (REFERENCE_RATE_LIMIT, REFERENCE_RESET_FRACTION), two more
 * settings make the run prove it met them:
 * - ASSERT_MET_429=1: the run met at least one 429 (and still passed);
 * - ASSERT_MET_RESETS=1: the run resent at least one request; a check may then end in
 *   `error` (a reset POST is not resent: the target may have acted on it), but only with the
 *   network as its reason, never `fail` or `warn`.
 *
 * ASSERT_ALLOW_WARN=<check id>,<check id>,… lets exactly those checks warn: for a personality
 * whose library makes a choice the spec leaves open and a `should` check questions (each one
 * with its reason in reference/README.md, "Personalities"). Only `warn`: a listed check that
 * fails is still not clean, and an id the catalog does not know is refused.
 *
 * ASSERT_REFERENCE_URL=<base URL> accepts the report of a reference started apart
 * (`svc-harness reference`, certified through SVC_BASE_URL, as scripts/certify-network-path.ts
 * does) at that URL: its report says embedded_reference false, and only the caller knows.
 */
import { join } from 'node:path';
import { getCheck } from '../src/catalog/checks.js';
import { readReportFile } from '../src/report/validate.js';

const dir = process.env.CERTIFY_REPORT_DIR ?? 'reports/latest';
const met429 = process.env.ASSERT_MET_429 === '1';
const metResets = process.env.ASSERT_MET_RESETS === '1';
// getCheck throws on an unknown id: a misspelt allowance must not pass silently.
const allowedWarns = new Set(
  (process.env.ASSERT_ALLOW_WARN ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '' && getCheck(id)),
);
// The report must also conform to the published schema (schemas/report.schema.json).
const report = readReportFile(join(dir, 'report.json'));
const problems = report.checks.filter((check) => {
  if (check.verdict === 'pass') return false;
  if (check.verdict === 'warn' && allowedWarns.has(check.id)) return false;
  if (check.verdict === 'skip') return !(getCheck(check.id).tier === 'full' && report.tier === 'fast');
  if (check.verdict === 'error' && metResets)
    return !/^no verdict: .*(the network kept the answer away|may come from the missing answer)/.test(
      check.detail ?? '',
    );
  return true;
});
const referenceUrl = process.env.ASSERT_REFERENCE_URL || undefined;
if (!report.target.embedded_reference && report.target.base_url !== referenceUrl) {
  console.error(
    `assert-clean-report: the report is not of the embedded reference${referenceUrl ? ` nor of the reference at ${referenceUrl}` : ''}`,
  );
  process.exit(1);
}
const unmet: string[] = [];
if (met429 && !(report.network && report.network.rate_limited > 0))
  unmet.push('the run met no 429: the rate limit was not in force');
if (metResets && !(report.network && report.network.resent > 0))
  unmet.push('the run resent nothing: no connection was reset');
for (const check of problems) console.error(`not clean: ${check.id} ${check.verdict}: ${check.detail ?? ''}`);
for (const check of report.checks)
  if (check.verdict === 'warn' && allowedWarns.has(check.id))
    console.log(`allowed warn (ASSERT_ALLOW_WARN): ${check.id}`);
for (const line of unmet) console.error(`not proven: ${line}`);
const network = report.network
  ? `; network: ${report.network.rate_limited} answered 429, ${report.network.resent} resent, ${report.network.unanswered} unanswered`
  : '';
console.log(
  `clean reference: ${report.summary.pass} passed, ${problems.length} failed, ${report.summary.skip} skipped, ${report.summary.error ?? 0} without a verdict${network}`,
);
process.exit(problems.length === 0 && unmet.length === 0 ? 0 : 1);
