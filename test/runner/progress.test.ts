/** The status line of a run on a terminal (src/runner/progress.ts), and nothing of it off one. */
import { describe, expect, it } from 'vitest';
import { ProgressLine, progressText } from '../../src/runner/progress.js';

describe('progressText', () => {
  it('counts done, running and left, and names the check running longest', () => {
    const running = new Map([
      ['AUTH-WHOAMI-ACCEPTED', 9_000],
      ['HOOK-RETRY-FULL-SCHEDULE', 1_000],
    ]);
    expect(progressText({ total: 111, done: 12, running, nowMs: 32_500 })).toBe(
      '12/111 done, 2 running, 97 left; longest running HOOK-RETRY-FULL-SCHEDULE 31 s',
    );
  });

  it('names none when nothing runs', () => {
    expect(progressText({ total: 3, done: 3, running: new Map(), nowMs: 0 })).toBe('3/3 done, 0 running, 0 left');
  });
});

function fakeStream(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, stream: { isTTY, columns: 80, write: (chunk: string) => (writes.push(chunk), true) } as never };
}

describe('ProgressLine', () => {
  it('redraws its line in place on a terminal, clearing it around each printed line', () => {
    const { writes, stream } = fakeStream(true);
    let now = 0;
    const line = new ProgressLine(stream, 2, () => now);
    line.started('A');
    now = 2_000;
    line.finished('A');
    const printed: string[] = [];
    line.around(() => printed.push('  ok   A'));
    line.stop();
    expect(printed).toEqual(['  ok   A']);
    expect(writes).toEqual([
      '\r\u001b[K0/2 done, 1 running, 1 left; longest running A 0 s',
      '\r\u001b[K',
      '\r\u001b[K1/2 done, 0 running, 1 left',
      '\r\u001b[K',
    ]);
  });

  it('draws nothing off a terminal (CI)', () => {
    const { writes, stream } = fakeStream(false);
    const line = new ProgressLine(stream, 2);
    line.started('A');
    line.finished('A');
    line.around(() => undefined);
    line.stop();
    expect(writes).toEqual([]);
  });
});
