/**
 * wrk (Debian's `wrk` package), a load generator written in C, sending the receiver bench's
 * signed deliveries. The pool bench needs a generator that leaves the pool its cores:
 * autocannon takes most of a core at one receiver process's rate, so on 2 cores no pool
 * could come near 2 × one process. wrk sends pre-built requests from a file (each thread its
 * own share of event ids), so it signs nothing while it runs; the file is written before the
 * run (prepareWrk), outside any CPU measurement, with as many deliveries as the run may send.
 * Past them wrk would start over and send each event id again: a run that did is flagged
 * (`repeated`), since a receiver does less for an id it has seen.
 * One thread by default: two threads, contending with the pool's processes for the cores,
 * cost more CPU a request than one.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signedDelivery } from './receiver-delivery.js';

export const WRK_INSTALL_HINT = 'wrk not found on PATH (Debian: apt-get install wrk)';

export interface WrkResult {
  requests: number;
  rps: number;
  non2xx: number;
  socketErrors: number;
  /**
   * Requests answered beyond the distinct deliveries prepared: each sent an event id a second
   * time (exact from one thread; from several, one may start over before the others, so at least this).
   */
  repeated: number;
}

/** Signed deliveries written for wrk, one a line; remove() deletes them. */
export interface WrkInput {
  script: string;
  deliveries: string;
  count: number;
  threads: number;
  remove(): void;
}
/** wrk ends by itself after its duration; this much longer and it is killed. */
const OVERRUN_MS = 15_000;

/**
 * Reads the deliveries file in each thread: line k (0-based) goes to thread k % threads, so
 * no two threads send the same event id. A line is "<signature> <timestamp> <body>".
 */
const SCRIPT = `
local counter = 0
function setup(thread)
  thread:set("index", counter)
  counter = counter + 1
end
local requests, next_request = {}, 0
function init(args)
  local line_number, total = 0, tonumber(args[2])
  for line in io.lines(args[1]) do
    if line_number % total == index then
      local signature, timestamp, body = line:match("^(%S+) (%S+) (.*)$")
      requests[#requests + 1] = wrk.format("POST", nil, {
        ["Content-Type"] = "application/json",
        ["User-Agent"] = "service-webhooks/1.0",
        ["X-Service-Signature"] = signature,
        ["X-Service-Timestamp"] = timestamp,
      }, body)
    end
    line_number = line_number + 1
  end
end
function request()
  next_request = next_request % #requests + 1
  return requests[next_request]
end
`;

export function wrkAvailable(): boolean {
  const probe = spawnSync('wrk', ['--version'], { stdio: 'ignore', timeout: 5_000 });
  return probe.error === undefined;
}

/** Writes `count` distinct signed deliveries for wrk's `threads` threads to share. */
export function prepareWrk(count: number, threads = 1): WrkInput {
  const dir = mkdtempSync(join(tmpdir(), 'bench-wrk-'));
  try {
    const script = join(dir, 'deliveries.lua');
    const deliveries = join(dir, 'deliveries.txt');
    writeFileSync(script, SCRIPT);
    writeDeliveryLines(deliveries, count);
    return { script, deliveries, count, threads, remove: () => rmSync(dir, { recursive: true, force: true }) };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** Loads `url` with wrk for `durationSec` over `connections` connections, sending `input`; its output parsed. */
export async function runWrk(
  url: string,
  durationSec: number,
  connections: number,
  input: WrkInput,
): Promise<WrkResult> {
  const { threads } = input;
  const child = spawn(
    'wrk',
    [
      '-t',
      String(threads),
      '-c',
      String(connections),
      '-d',
      `${durationSec}s`,
      '-s',
      input.script,
      url,
      '--',
      input.deliveries,
      String(threads),
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const killer = setTimeout(() => child.kill('SIGKILL'), durationSec * 1000 + OVERRUN_MS);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(killer);
  if (code !== 0) throw new Error(`wrk exited ${code}: ${output.slice(0, 500)}`);
  const summary = parseWrkOutput(output);
  return { ...summary, repeated: Math.max(0, summary.requests - input.count) };
}

/** Lines written at a time: a long fast run needs hundreds of MB of deliveries, more than one string may hold. */
const LINES_PER_WRITE = 10_000;

function writeDeliveryLines(path: string, count: number): void {
  const fd = openSync(path, 'w', 0o600);
  try {
    for (let first = 1; first <= count; first += LINES_PER_WRITE) {
      const lines: string[] = [];
      for (let seq = first; seq < first + LINES_PER_WRITE && seq <= count; seq++) {
        const { body, headers } = signedDelivery(seq);
        lines.push(`${headers['x-service-signature']} ${headers['x-service-timestamp']} ${body}\n`);
      }
      writeSync(fd, lines.join(''));
    }
  } finally {
    closeSync(fd);
  }
}

/** The figures of wrk's summary; throws when it has none (wrk failed to run). */
export function parseWrkOutput(output: string): Omit<WrkResult, 'repeated'> {
  const total = /(\d+) requests in ([\d.]+)(us|ms|s|m)\b/.exec(output);
  const rate = /Requests\/sec:\s+([\d.]+)/.exec(output);
  if (total === null || rate === null) throw new Error(`wrk printed no summary: ${output.slice(0, 500)}`);
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(output);
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  return {
    requests: Number(total[1]),
    rps: Number(rate[1]),
    non2xx: non2xx === null ? 0 : Number(non2xx[1]),
    socketErrors: errors === null ? 0 : errors.slice(1, 5).reduce((sum, n) => sum + Number(n), 0),
  };
}
