/**
 * Peak resident memory of a process and its descendants (Linux): VmHWM of each, read from
 * /proc every few hundred milliseconds while they live. VmHWM is the kernel's own
 * high-water mark, so a sample taken any time before a process exits holds its peak so far;
 * only growth in a process's last interval can be missed.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface RssPeaks {
  /** The largest peak of any single process of the run, in MB. */
  maxMb: number;
  /** The sum of every process's peak, in MB: an upper bound of the run's total at any instant. */
  sumMb: number;
  processes: Array<{ pid: number; command: string; peakMb: number }>;
}

const INTERVAL_MS = 200;

export class PeakRss {
  private readonly byPid = new Map<number, { command: string; kb: number }>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly rootPid: number) {
    this.sample();
    this.timer = setInterval(() => this.sample(), INTERVAL_MS);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  peaks(): RssPeaks {
    const processes = [...this.byPid].map(([pid, { command, kb }]) => ({
      pid,
      command,
      peakMb: Math.round(kb / 1024),
    }));
    return {
      maxMb: Math.max(0, ...processes.map((p) => p.peakMb)),
      sumMb: processes.reduce((sum, p) => sum + p.peakMb, 0),
      processes,
    };
  }

  private sample(): void {
    for (const pid of this.tree()) {
      const kb = vmHwmKb(pid);
      if (kb === undefined) continue;
      const previous = this.byPid.get(pid);
      if (!previous || kb > previous.kb) this.byPid.set(pid, { command: previous?.command ?? commandOf(pid), kb });
    }
  }

  /** The root process and every descendant alive now. */
  private tree(): number[] {
    const children = new Map<number, number[]>();
    for (const name of safeReaddir('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      const ppid = parentOf(Number(name));
      if (ppid === undefined) continue;
      const list = children.get(ppid) ?? [];
      list.push(Number(name));
      children.set(ppid, list);
    }
    const out: number[] = [];
    const stack = [this.rootPid];
    while (stack.length > 0) {
      const pid = stack.pop()!;
      out.push(pid);
      stack.push(...(children.get(pid) ?? []));
    }
    return out;
  }
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may contain spaces and parentheses: fields start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[1]);
  } catch {
    return undefined;
  }
}

function vmHwmKb(pid: number): number | undefined {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).slice(0, 4).join(' ').slice(0, 160);
  } catch {
    return '?';
  }
}
