// Simultaneous A/B: kind K from /tmp/exp/wt (A) and from /work/main (B), loaded at once; B's cost over A's, round by round.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { createSelfSignedCertificate } from './src/tls/selfSigned.ts';
import { runAutocannon } from './src/bench/receiver.ts';
import { ask } from './src/ipc/ask.ts';
import { cpuSecondsOf } from './src/bench/cpu.ts';
const kind = process.argv[2] ?? 'receiver'; const rounds = Number(process.argv[3] ?? 8); const secs = Number(process.argv[4] ?? 3);
const tls = await createSelfSignedCertificate({ hosts: ['127.0.0.1'] });
const start = async (root: string) => {
  const child = fork(`${root}/src/bench/receiver-servers.ts`, [kind, tls.certPath, tls.keyPath], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'], cwd: root });
  const url = await ask<string>(child, {}, 'url', { who: root, limitMs: 20_000 });
  return { child, url };
};
const servers = [await start('/tmp/exp/wt'), await start('/work/main')];
await Promise.all(servers.map((s) => runAutocannon(s.url, 2, 25)));
const ratios: number[] = []; const costs: string[] = [];
for (let r = 0; r < rounds; r++) {
  const before = servers.map((s) => cpuSecondsOf(s.child.pid!));
  const results = await Promise.all(servers.map((s) => runAutocannon(s.url, secs, 25)));
  const per = servers.map((s, i) => ((cpuSecondsOf(s.child.pid!) - before[i]!) * 1e6) / results[i]!.requests.total);
  ratios.push(per[1]! / per[0]!); costs.push(per.map((x) => x.toFixed(0)).join('/'));
}
const med = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
console.log(`${kind}: B/A cost median ${med(ratios).toFixed(3)} range ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}; µs A/B ${costs.join(' ')}`);
for (const s of servers) { s.child.send({ close: true }); await once(s.child, 'exit'); }
