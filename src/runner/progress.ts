/**
 * The run's progress on a terminal: checks done, running and left, and the one running
 * longest, on one line redrawn in place. Off a terminal (CI) nothing is drawn: the plain line
 * per finished check is the log.
 */

export interface ProgressState {
  total: number;
  done: number;
  /** Check id → when it started (ms, the clock of `now`). */
  running: ReadonlyMap<string, number>;
  nowMs: number;
}

/** "12/111 done, 32 running, 67 left; longest running HOOK-RETRY-FULL-SCHEDULE 31 s". */
export function progressText({ total, done, running, nowMs }: ProgressState): string {
  const left = Math.max(0, total - done - running.size);
  let longest: [string, number] | undefined;
  for (const [id, startedMs] of running) if (!longest || startedMs < longest[1]) longest = [id, startedMs];
  const slowest = longest ? `; longest running ${longest[0]} ${Math.floor((nowMs - longest[1]) / 1000)} s` : '';
  return `${done}/${total} done, ${running.size} running, ${left} left${slowest}`;
}

const REDRAW_MS = 1_000;

export class ProgressLine {
  private readonly running = new Map<string, number>();
  private done = 0;
  private drawn = false;
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly stream: Pick<NodeJS.WriteStream, 'write' | 'isTTY' | 'columns'>,
    private readonly total: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!stream.isTTY) return;
    this.timer = setInterval(() => this.draw(), REDRAW_MS);
    this.timer.unref();
  }

  started(id: string): void {
    this.running.set(id, this.now());
    this.draw();
  }

  finished(id: string): void {
    if (this.running.delete(id)) this.done += 1;
  }

  /** Around a line printed to the same terminal: the status line leaves, the line goes, it returns. */
  around(print: () => void): void {
    this.clear();
    print();
    this.draw();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.clear();
  }

  private draw(): void {
    if (!this.stream.isTTY) return;
    const text = progressText({ total: this.total, done: this.done, running: this.running, nowMs: this.now() });
    const width = Math.max(20, (this.stream.columns || 100) - 1);
    this.stream.write(`\r\u001b[K${text.slice(0, width)}`);
    this.drawn = true;
  }

  private clear(): void {
    if (!this.drawn) return;
    this.stream.write('\r\u001b[K');
    this.drawn = false;
  }
}
