// Scratch measurement for the closing note (not committed).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReference } from '../../reference/index.js';
import { startHostileServer } from './server.js';
import { unsafeCharacters } from './hostile-text.js';
import { junitSchemaProblems } from '../support/xmllint.js';

const reference = await startReference({ quiet: true });
const hostile = await startHostileServer(reference.baseUrl);
for (const behaviour of ['hostile-json', 'hostile-bytes'] as const) {
  const dir = mkdtempSync(join(tmpdir(), 'measure-'));
  const urls = hostile.urls(`m-${behaviour}`, behaviour, 'api');
  const child = spawnSync(process.execPath, ['bin/svc-harness.js', 'certify'], {
    env: { ...process.env, SVC_BASE_URL: urls.baseUrl, SVC_CONTROL_URL: urls.controlUrl, SVC_CONTROL_TOKEN: reference.controlToken, CERTIFY_REPORT_DIR: dir, CERTIFY_CHECKS: 'AUTH-*,INPUT-*,SCOPE-*' },
    encoding: 'utf8', timeout: 300_000,
  });
  const console_ = child.stdout + child.stderr;
  const md = readFileSync(join(dir, 'report.md'), 'utf8');
  const html = readFileSync(join(dir, 'report.html'), 'utf8');
  const junit = readFileSync(join(dir, 'junit.xml'));
  const shown = (text: string) => (text.match(/\\u001b/g) ?? []).length;
  console.log(`${behaviour}: exit ${child.status}; console ${console_.length} chars, raw unsafe ${unsafeCharacters(console_).length}, shown \\u001b ${shown(console_)}; report.md raw unsafe ${unsafeCharacters(md).length}, shown \\u001b ${shown(md)}; report.html raw <script> ${(html.match(/<script>alert/g) ?? []).length}, escaped ${(html.match(/&lt;script&gt;alert/g) ?? []).length}; junit.xml schema problems ${junitSchemaProblems(junit).length}`);
}
await hostile.close();
await reference.close();
