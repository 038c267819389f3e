/**
 * How much of the machine k6 itself costs: k6 and autocannon each drive the same bare
 * node:http 204 server (in a child process) with the same number of connections for the
 * same time, in one run. Runnable alone: `npx tsx benchmarks/k6-vs-autocannon.ts [seconds]`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { findK6, k6Env, REPO_ROOT } from '../src/load/k6/binary.js';

const CONNECTIONS = 50;
const SCRIPT = resolve(REPO_ROOT, 'benchmarks/k6/bare.js');
const K6_NOT_FOUND =
  'k6 not found: build the pinned release with `npx tsx scripts/k6/binary.ts --ensure`, or set LOAD_K6_BINARY';

export interface GeneratorRow {
  name: string;
  rps: number;
}

/** A bare server answering 204, in its own process so it does not share a CPU with the generator. */
async function startBareServer(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `
    const server = require('node:http').createServer((req, res) => { req.resume(); res.writeHead(204).end(); });
    server.keepAliveTimeout = 30000;
    server.listen(0, '127.0.0.1', () => console.log(server.address().port));
    process.on('SIGTERM', () => process.exit(0));
  `,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const port = await new Promise<string>((done) => createInterface({ input: child.stdout! }).once('line', done));
  return { url: `http://127.0.0.1:${port}/`, stop: () => child.kill('SIGTERM') };
}

function runK6(binary: string, url: string, durationSec: number): number {
  const dir = mkdtempSync(join(tmpdir(), 'k6-bench-'));
  try {
    const summary = join(dir, 'summary.json');
    const result = spawnSync(binary, ['run', '--quiet', '--no-usage-report', '--summary-export', summary, SCRIPT], {
      env: k6Env({ BENCH_URL: url, BENCH_VUS: String(CONNECTIONS), BENCH_DURATION_S: String(durationSec) }),
      encoding: 'utf8',
      timeout: (durationSec + 60) * 1000,
    });
    if (result.status !== 0)
      throw new Error(`k6 run failed (exit ${result.status}): ${(result.stderr || '').trim().split('\n').pop()}`);
    const metrics = (JSON.parse(readFileSync(summary, 'utf8')) as { metrics: Record<string, { rate?: number }> })
      .metrics;
    return metrics['http_reqs']?.rate ?? 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchK6VsAutocannon(opts: {
  durationSec: number;
}): Promise<{ rows: GeneratorRow[] } | { skipped: string }> {
  const k6 = findK6();
  if (!k6) return { skipped: K6_NOT_FOUND };
  const server = await startBareServer();
  try {
    const viaAutocannon = await autocannon({ url: server.url, connections: CONNECTIONS, duration: opts.durationSec });
    const viaK6 = runK6(k6.path, server.url, opts.durationSec);
    return {
      rows: [
        { name: `autocannon, ${CONNECTIONS} connections`, rps: Math.round(viaAutocannon.requests.average) },
        { name: `k6 ${k6.version}, ${CONNECTIONS} VUs`, rps: Math.round(viaK6) },
      ],
    };
  } finally {
    server.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const outcome = await benchK6VsAutocannon({ durationSec: Number(process.argv[2] ?? 5) });
  if ('skipped' in outcome) console.log(`k6 vs autocannon: skipped (${outcome.skipped})`);
  else for (const row of outcome.rows) console.log(`${row.name.padEnd(32)} ${String(row.rps).padStart(8)} req/s`);
}
