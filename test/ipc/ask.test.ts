import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ask } from '../../src/ipc/ask.js';

// A helper process that answers `{ echo }` with `{ echoed }`, `{ fail }` with `{ failed }`,
// `{ exit }` by exiting, and ignores anything else.
const dir = mkdtempSync(join(tmpdir(), 'ipc-ask-'));
const script = join(dir, 'helper.mjs');
writeFileSync(
  script,
  `process.on('message', (m) => {
     if (m.echo !== undefined) process.send({ noise: true }, () => process.send({ echoed: m.echo }));
     else if (m.fail) process.send({ failed: 'cannot do that' });
     else if (m.exit) process.exit(3);
   });`,
);

const children: ChildProcess[] = [];
function helper(): ChildProcess {
  const child = fork(script, [], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
  children.push(child);
  return child;
}
const options = { who: 'test helper', limitMs: 2_000 };

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ask', () => {
  it('resolves with the key of the first answer that holds it', async () => {
    await expect(ask(helper(), { echo: 42 }, 'echoed', options)).resolves.toBe(42);
  });

  it('rejects with the reason of an answer that says it failed', async () => {
    await expect(ask(helper(), { fail: true }, 'echoed', options)).rejects.toThrow('test helper: cannot do that');
  });

  it('rejects when the child exits before answering', async () => {
    await expect(ask(helper(), { exit: true }, 'echoed', options)).rejects.toThrow(
      'test helper exited (code 3) before answering',
    );
  });

  it('rejects when no answer comes within its limit', async () => {
    await expect(ask(helper(), { nothing: true }, 'echoed', { ...options, limitMs: 200 })).rejects.toThrow(
      'test helper gave no answer within 0.2 s',
    );
  });

  it('leaves no listener behind', async () => {
    const child = helper();
    await ask(child, { echo: 1 }, 'echoed', options);
    expect(child.listenerCount('message')).toBe(0);
    expect(child.listenerCount('exit')).toBe(0);
  });
});
