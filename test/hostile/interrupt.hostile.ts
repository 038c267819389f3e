/**
 * Interrupts in the middle of a suite: SIGINT to the whole process group (Ctrl-C) or
 * SIGTERM to the run (a CI job cancelled) ends the run within a few seconds, with exit
 * 130, a partial report marked interrupted, and nothing the run created left on the
 * target, which is checked by asking the target's control interface afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../../reference/index.js';
import { limiter } from '../support/limit.js';
import { runCertifyChild } from './child.js';
import { RSS_BOUND_MB } from './cases.js';
import { hasStackTrace, leaks } from './scan.js';
import { startHostileServer, type HostileServer } from './server.js';
import { leftovers, when } from './target-state.js';

/** From the signal to the exit, on a loaded 2-core machine. */
export const INTERRUPT_BOUND_MS = 10_000;

let reference: RunningReference;
let hostile: HostileServer;
const limit = limiter(3);
const measured: string[] = [];

beforeAll(async () => {
  reference = await startReference({ quiet: true });
  hostile = await startHostileServer(reference.baseUrl);
});

afterAll(async () => {
  process.stdout.write(`\n${measured.join('\n')}\n`);
  await hostile?.close();
  await reference?.close();
});

const CASES = [
  {
    name: 'SIGINT to the group while revocation polls',
    signal: 'SIGINT',
    group: true,
    checks: 'REVOKE-*',
    at: /^DELETE \/_control\/workspaces\/[^/]+\/tokens\//,
    delayMs: 1_500,
  },
  {
    name: 'SIGTERM to the run while revocation polls',
    signal: 'SIGTERM',
    group: false,
    checks: 'REVOKE-*',
    at: /^DELETE \/_control\/workspaces\/[^/]+\/tokens\//,
    delayMs: 1_500,
  },
  {
    name: 'SIGTERM to the group while webhook retries run',
    signal: 'SIGTERM',
    group: true,
    checks: 'HOOK-RETRY-EARLY-SCHEDULE,HOOK-DROP-AND-FLAG,HOOK-AUTO-DISABLE',
    at: /^POST \/_control\/workspaces\/[^/]+\/webhook-endpoints$/,
    delayMs: 2_000,
  },
  {
    name: 'SIGINT to the run while webhook retries run',
    signal: 'SIGINT',
    group: false,
    checks: 'HOOK-RETRY-ON-5XX,HOOK-RETRY-ON-TIMEOUT,HOOK-DROP-AND-FLAG',
    at: /^POST \/_control\/workspaces\/[^/]+\/events$/,
    delayMs: 500,
  },
  {
    name: 'SIGINT to the group while session tokens are checked',
    signal: 'SIGINT',
    group: true,
    checks: 'SESSION-*',
    at: /^PUT \/_control\/workspaces\/[^/]+\/identity-provider$/,
    delayMs: 1_000,
  },
  {
    name: 'SIGTERM to the run while call events are awaited',
    signal: 'SIGTERM',
    group: false,
    checks: 'HOOK-LIFECYCLE-*,HOOK-CALL-COMPLETED-FIELDS',
    at: /^POST \/v1\/voice\/calls$/,
    delayMs: 300,
  },
  // Creations answered after the grace: what they create must still reach the ledger and be removed.
  {
    name: 'SIGINT to the group while creations are answered late',
    signal: 'SIGINT',
    group: true,
    checks: 'SESSION-*',
    at: /^POST \/_control\/workspaces$/,
    delayMs: 500,
    behaviour: 'slow-create',
    where: 'control',
  },
  // A cancelled CI job: SIGTERM reaches the suites' worker too, which must outlive it until those
  // answers are in. The first workspace is the reach probe's, made by the runner; the second a check's.
  {
    name: "SIGTERM to the group while the checks' creations are answered late",
    signal: 'SIGTERM',
    group: true,
    checks: 'SESSION-*',
    at: /^POST \/_control\/workspaces$/,
    nth: 2,
    delayMs: 500,
    behaviour: 'slow-create',
    where: 'control',
  },
] as const;

describe.concurrent('an interrupted run', () => {
  it.each(CASES.map((c, i) => [c.name, c, i] as const))(
    '%s: exit 130 within the bound, partial report, nothing left',
    async (name, c, i) => {
      const run = `int${i}`;
      const urls = 'behaviour' in c ? hostile.urls(run, c.behaviour, c.where) : hostile.urls(run, 'none', 'api');
      const record = hostile.record(run);
      const result = await limit(() =>
        runCertifyChild({
          settings: {
            SVC_BASE_URL: urls.baseUrl,
            SVC_CONTROL_URL: urls.controlUrl,
            SVC_CONTROL_TOKEN: reference.controlToken,
            CERTIFY_CHECKS: c.checks,
          },
          interrupt: { signal: c.signal, group: c.group, at: when(record, c.at, c.delayMs, 'nth' in c ? c.nth : 1) },
          killAfterMs: 180_000,
        }),
      );
      measured.push(
        `${name.padEnd(52)} exit ${result.exitCode}  ${((result.afterSignalMs ?? NaN) / 1000).toFixed(1)} s after the signal  peak RSS ${result.rss.maxMb} MB (all ${result.rss.sumMb} MB)  created ${record.workspaces.size} ws, ${record.tokens.size} tokens, ${record.endpoints.size} endpoints`,
      );
      const output = `${result.stdout}\n${result.stderr}`;
      expect(
        result.afterSignalMs,
        `${name}: the signal was never sent (the trigger did not match); output:\n${output.slice(-2000)}`,
      ).toBeDefined();
      expect(result.exitCode, output.slice(-3000)).toBe(130);
      expect(result.afterSignalMs!).toBeLessThan(INTERRUPT_BOUND_MS);
      expect(result.report?.interrupted).toBe(true);
      // A process of the run that outlived it goes on writing in its temp folder (Node's compile cache at its exit).
      expect(result.outlived, 'processes of the run still running after it exited').toEqual([]);
      expect(result.rss.maxMb).toBeLessThan(RSS_BOUND_MB.process);
      expect(result.rss.sumMb).toBeLessThan(RSS_BOUND_MB.run);
      expect(hasStackTrace(output), output.slice(-3000)).toBe(false);
      expect(
        record.workspaces.size,
        'the run created nothing before the signal: the case proves nothing',
      ).toBeGreaterThan(0);
      expect(await leftovers(reference, record)).toEqual([]);
      expect(leaks(result, [reference.controlToken, ...record.secrets])).toEqual([]);
    },
  );
});
