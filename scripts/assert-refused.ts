/**
 * After `npm run certify:remote`'s clean run: the same remote-mode reference
 * (REFERENCE_OUTBOUND_HOST) certified without announcing a reachable receiver and identity
 * provider must be refused, exit 2, with one line on stderr naming both and the settings
 * that fix them, instead of failing dozens of checks.
 */
import { spawnSync } from 'node:child_process';
import { loadReferenceSettings } from '../src/config/reference-settings.js';

if (loadReferenceSettings().options.outboundHost === undefined) {
  console.error('assert-refused: set REFERENCE_OUTBOUND_HOST (the reference must not be able to reach 127.0.0.1)');
  process.exit(1);
}
// The settings that would make the run reachable are exactly what this run leaves out.
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(RECEIVER|IDP)_/.test(name)));
const run = spawnSync(process.execPath, ['bin/svc-harness.js', 'certify'], {
  env: { ...env, CERTIFY_REPORT_DIR: 'reports/remote-refused' },
  encoding: 'utf8',
  timeout: 120_000,
});
const lines = run.stderr.trim().split('\n');
const problems = [
  run.status !== 2 && `exit ${run.status ?? run.signal}, expected 2`,
  lines.length !== 1 && `${lines.length} lines on stderr, expected one`,
  !/cannot reach the receiver: .*RECEIVER_PUBLIC_URL/.test(run.stderr) &&
    'stderr does not name the unreachable receiver and RECEIVER_PUBLIC_URL',
  !/cannot reach the identity provider: .*IDP_PUBLIC_URL/.test(run.stderr) &&
    'stderr does not name the unreachable identity provider and IDP_PUBLIC_URL',
].filter(Boolean);
for (const problem of problems) console.error(`not refused as documented: ${problem}`);
if (problems.length > 0) console.error(`stderr: ${run.stderr}`);
console.log(
  `remote mode without RECEIVER_/IDP_ settings: exit ${run.status}, ${problems.length === 0 ? 'refused as documented' : 'NOT refused as documented'}`,
);
process.exit(problems.length === 0 ? 0 : 1);
