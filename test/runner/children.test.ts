/** src/runner/children.ts: a run ends the processes it started, even one that ignores SIGTERM. */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { endChildren, runningChildren, watchChildren } from '../../src/runner/children.js';

const node = (script: string) => spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'ignore'] });
/** Resolves once the child printed its first line: it runs, with its handlers in place. */
const ready = (child: ReturnType<typeof node>) => new Promise((resolve) => child.stdout!.once('data', resolve));

describe('endChildren', () => {
  it('ends every child still running, by SIGTERM or, past the grace, SIGKILL, and forgets those that exited', async () => {
    watchChildren();
    const done = node('console.log("up")');
    await new Promise((resolve) => done.once('exit', resolve));
    const polite = node('console.log("up"); setInterval(() => {}, 1000)');
    const stubborn = node('process.on("SIGTERM", () => {}); console.log("up"); setInterval(() => {}, 1000)');
    await Promise.all([ready(polite), ready(stubborn)]);
    expect(runningChildren()).toEqual(expect.arrayContaining([polite, stubborn]));
    expect(runningChildren()).not.toContain(done);
    const started = performance.now();
    expect(await endChildren(300)).toBe(2);
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(polite.signalCode).toBe('SIGTERM');
    expect(stubborn.signalCode).toBe('SIGKILL');
    expect(runningChildren()).toEqual([]);
  });
});
