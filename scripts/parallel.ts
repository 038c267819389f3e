/**
 * `tsx scripts/parallel.ts <npm script>…`: runs independent npm scripts side by side (they
 * must not share ports, report directories or state), prints each one's output whole when
 * it ends, so logs stay readable, and exits 1 unless every one exited 0. `a+b` runs a, then b
 * if a passed, in one lane: short scripts queue behind each other while a long one runs
 * beside them. `npm test` uses it to keep CI under its time budget on a 2-core machine.
 */
import { spawn } from 'node:child_process';

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error('usage: tsx scripts/parallel.ts <npm script> [<npm script>…]');
  process.exit(2);
}

interface Ended {
  script: string;
  code: number | null;
  seconds: number;
}

function run(script: string): Promise<Ended> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('close', (code) => {
      const seconds = Math.round((performance.now() - started) / 100) / 10;
      process.stdout.write(
        `\n===== ${script}: exit ${code} after ${seconds} s =====\n${Buffer.concat(chunks).toString('utf8')}`,
      );
      resolve({ script, code, seconds });
    });
  });
}

/** The scripts of one lane, one after another, stopping at the first that fails. */
async function lane(chain: string): Promise<Ended[]> {
  const done: Ended[] = [];
  for (const script of chain.split('+')) {
    const ended = await run(script);
    done.push(ended);
    if (ended.code !== 0) break;
  }
  return done;
}

// A signal to this process reaches the children too (same process group), which clean up
// after themselves; nothing to forward.
const ended = (await Promise.all(scripts.map(lane))).flat();
const failed = ended.filter((e) => e.code !== 0);
process.stdout.write(`\n${ended.map((e) => `${e.script}: exit ${e.code} (${e.seconds} s)`).join('; ')}\n`);
process.exit(failed.length === 0 ? 0 : 1);
