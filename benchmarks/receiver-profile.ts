/**
 * Where the capturing receiver's CPU goes: one bench server (receiver-servers.ts) runs under
 * V8's sampling profiler (`--cpu-prof`) while autocannon loads it, then the profile's
 * self time is summed per function and per source file, heaviest first. The figures are
 * shares of the server process's samples (TLS and HTTP parsing included), so they say
 * what the receiver adds to what any HTTPS server pays.
 * `npx tsx benchmarks/receiver-profile.ts [seconds] [kind]`, kind one of receiver-rows.ts's
 * SERVER_KINDS (default the receiver), so that the minimal verifier can be profiled beside it.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createSelfSignedCertificate } from '../src/tls/self-signed.js';
import { runAutocannon, startServers, stopServers, type ServerProcess } from './receiver.js';
import { isServerKind, SERVER_KINDS, type ServerKind } from './receiver-rows.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

export interface ProfileShare {
  name: string;
  share: number;
}

export interface ReceiverProfile {
  requests: number;
  byFunction: ProfileShare[];
  byFile: ProfileShare[];
}

export async function profileReceiver(durationSec: number, kind: ServerKind = 'receiver'): Promise<ReceiverProfile> {
  const dir = mkdtempSync(join(tmpdir(), 'receiver-profile-'));
  const tls = await createSelfSignedCertificate({ hosts: ['127.0.0.1'] });
  let servers: ServerProcess[] = [];
  try {
    servers = await startServers([kind], tls, ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
    const url = servers[0]!.url;
    await runAutocannon(url, 1, 50); // warm-up: JIT, TLS
    const result = await runAutocannon(url, durationSec, 50);
    // The profile is written as the process exits.
    await stopServers(servers);
    const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
    if (!file) throw new Error(`the bench server ${kind} wrote no CPU profile`);
    const nodes = (JSON.parse(readFileSync(join(dir, file), 'utf8')) as { nodes: ProfileNode[] }).nodes;
    return {
      requests: result.requests.total,
      byFunction: sharesBy(nodes, functionKey),
      byFile: sharesBy(nodes, (node) => fileOf(node.callFrame.url)),
    };
  } finally {
    await stopServers(servers);
    rmSync(dir, { recursive: true, force: true });
    rmSync(dirname(tls.certPath), { recursive: true, force: true });
  }
}

function sharesBy(nodes: ProfileNode[], key: (node: ProfileNode) => string): ProfileShare[] {
  const hits = new Map<string, number>();
  let total = 0;
  for (const node of nodes) {
    const count = node.hitCount ?? 0;
    total += count;
    hits.set(key(node), (hits.get(key(node)) ?? 0) + count);
  }
  return [...hits]
    .map(([name, count]) => ({ name, share: count / Math.max(1, total) }))
    .sort((a, b) => b.share - a.share);
}

function functionKey(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  return `${functionName || '(anonymous)'} ${fileOf(url)}${url ? `:${lineNumber + 1}` : ''}`;
}

/** A project file relative to the project, a Node internal as node:…, native or idle frames as they are. */
function fileOf(url: string): string {
  if (!url) return '(native, GC, idle)';
  const project = Math.max(url.indexOf('/src/'), url.indexOf('/benchmarks/'));
  if (project !== -1) return url.slice(project + 1);
  const modules = url.lastIndexOf('/node_modules/');
  if (modules !== -1) return url.slice(modules + 1);
  return url;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const seconds = Number(process.argv[2] ?? 6);
  const kind = process.argv[3] ?? 'receiver';
  if (!isServerKind(kind)) throw new Error(`unknown server kind ${kind}; one of ${SERVER_KINDS.join(', ')}`);
  const profile = await profileReceiver(seconds, kind);
  const show = (rows: ProfileShare[]) =>
    rows
      .slice(0, 20)
      .map((row) => `${(100 * row.share).toFixed(1).padStart(5)}%  ${row.name}`)
      .join('\n');
  console.log(
    `${profile.requests} deliveries in ${seconds} s\n\n# self time by source file\n${show(profile.byFile)}\n\n# self time by function\n${show(profile.byFunction)}`,
  );
}
