/**
 * How fast the harness sends to the public API. The spec leaves rate limits open, so any
 * limit is the target's conformant choice; the harness keeps under it rather than be told
 * 429 again and again. Two kinds of bucket, each a GCRA token bucket (smooth, with a small
 * burst): one for the whole run (CERTIFY_RATE_LIMIT, else unlimited) and one per lane (a
 * workspace's credentials, src/http/lanes.ts).
 *
 * A 429 lowers the rate of the bucket it blames to what the target let through over the
 * last seconds, and pauses that bucket for the Retry-After. It blames the lane alone, unless
 * 429s reached several lanes at once: then the limit is the client's, and the whole run
 * slows. A bucket creeps back up while no 429 comes, and returns to its ceiling after a
 * quiet spell, so a limit met once does not slow the rest of the run.
 *
 * Requests whose timing a check judges (revocation polls, traffic around a rotation) reserve
 * their slot ahead of set-up and other bulk requests, which take a slot only once it is free.
 */

/** A bucket's "what got through" counts over at least this, so a lane seconds old is not judged by one instant. */
const MIN_ADMITTED_SPAN_MS = 500;
/** One 429 lowers a bucket to no less than this share of its rate: what got through is low while the bucket itself was paused. */
const MAX_LOWERING = 0.5;

/** The slowest a bucket is ever lowered to, in requests a second. */
export const MIN_RATE = 1;
/** Blamed on the whole run when 429s reached this many lanes within BLAME_WINDOW_MS. */
const LANES_FOR_GLOBAL_BLAME = 2;
const BLAME_WINDOW_MS = 1_000;
/** The window over which "what the target let through" is counted. */
const ADMITTED_WINDOW_MS = 2_000;
/** A bucket is not lowered twice within this: answers to requests sent before the first 429 are still arriving. */
const LOWER_COOLDOWN_MS = 1_000;
/** Growth per second without a 429, and the quiet spell after which the ceiling returns. */
const GROWTH_PER_SECOND = 0.05;
const QUIET_RESET_MS = 10_000;
/** Lanes unused this long are forgotten, so a run of thousands of tokens holds only live ones. */
const LANE_IDLE_MS = 30_000;

export interface PaceClock {
  now(): number;
}

/** A token bucket in GCRA form: `tatMs` is when the bucket will next be empty of debt. */
export class Bucket {
  private tatMs = 0;
  private pausedUntilMs = 0;
  private rate: number;
  private lastLoweredMs = -Infinity;
  private last429Ms = -Infinity;
  private lastGrownMs = 0;
  /** Times (ms) of answers that were not 429, within ADMITTED_WINDOW_MS. */
  private readonly admitted: number[] = [];
  lastUsedMs = 0;
  private firstSeenMs = Infinity;

  constructor(readonly ceiling: number) {
    this.rate = ceiling;
  }

  /** Requests a second the bucket lets through now (Infinity: no limit). */
  get ratePerSecond(): number {
    return this.rate;
  }

  /** Reserves a slot for one request; the ms to wait before sending it. */
  reserve(nowMs: number): number {
    const waitMs = this.free(nowMs);
    this.take(nowMs + waitMs);
    return waitMs;
  }

  /** The ms until a slot is free, reserving none (a request behind others looks again then). */
  free(nowMs: number): number {
    this.seen(nowMs);
    this.grow(nowMs);
    if (!Number.isFinite(this.rate)) return Math.max(0, this.pausedUntilMs - nowMs);
    const interval = 1000 / this.rate;
    const tolerance = (Math.max(1, Math.floor(this.rate / 10)) - 1) * interval;
    return Math.max(0, this.tatMs - tolerance - nowMs, this.pausedUntilMs - nowMs);
  }

  /** Takes the slot of a request sent at `sendAtMs`, which `free` said is free by then. */
  take(sendAtMs: number): void {
    if (!Number.isFinite(this.rate)) return;
    this.tatMs = Math.max(this.tatMs, sendAtMs) + 1000 / this.rate;
  }

  /** An answer other than 429 arrived. */
  answered(nowMs: number): void {
    this.seen(nowMs);
    this.admitted.push(nowMs);
    this.trimAdmitted(nowMs);
  }

  /** A 429 arrived: pause for `waitMs`, and lower the rate to what the target let through. */
  limited(nowMs: number, waitMs: number): void {
    this.last429Ms = nowMs;
    this.pausedUntilMs = Math.max(this.pausedUntilMs, nowMs + waitMs);
    if (nowMs - this.lastLoweredMs < LOWER_COOLDOWN_MS) return;
    this.lastLoweredMs = nowMs;
    this.trimAdmitted(nowMs);
    const spanMs = Math.min(ADMITTED_WINDOW_MS, Math.max(MIN_ADMITTED_SPAN_MS, nowMs - this.firstSeenMs));
    const letThrough = (this.admitted.length * 1000) / spanMs;
    const lowered = Math.max(MIN_RATE, 0.9 * letThrough, Number.isFinite(this.rate) ? MAX_LOWERING * this.rate : 0);
    this.rate = Math.min(this.rate, lowered, this.ceiling);
    this.lastGrownMs = nowMs;
    // The debt owed at the old rate would keep the bucket too fast for a while: start anew.
    this.tatMs = Math.max(nowMs, this.pausedUntilMs);
  }

  private seen(nowMs: number): void {
    this.lastUsedMs = nowMs;
    if (!Number.isFinite(this.firstSeenMs)) this.firstSeenMs = nowMs;
  }

  private grow(nowMs: number): void {
    if (this.rate >= this.ceiling) return;
    if (nowMs - this.last429Ms > QUIET_RESET_MS) {
      this.rate = this.ceiling;
      return;
    }
    const seconds = (nowMs - this.lastGrownMs) / 1000;
    if (seconds < 1) return;
    this.rate = Math.min(this.ceiling, this.rate * (1 + GROWTH_PER_SECOND) ** Math.floor(seconds));
    this.lastGrownMs = nowMs;
  }

  private trimAdmitted(nowMs: number): void {
    while (this.admitted.length > 0 && this.admitted[0]! < nowMs - ADMITTED_WINDOW_MS) this.admitted.shift();
  }
}

/** The run's pace: its own bucket and one per lane, fed by what the target answers. */
export class Pacer {
  private readonly run: Bucket;
  private readonly lanes = new Map<string, Bucket>();
  /** Lanes that met a 429 recently, with when. */
  private readonly recent429s = new Map<string, number>();

  constructor(
    ratePerSecond: number | undefined,
    private readonly clock: PaceClock = performance,
  ) {
    this.run = new Bucket(ratePerSecond ?? Infinity);
  }

  /** The ms to wait before sending one request of `lane`: the later of its lane's slot and the run's, reserved now. */
  reserve(lane: string | undefined): number {
    const now = this.clock.now();
    const laneWait = lane === undefined ? 0 : this.lane(lane, now).reserve(now);
    return laneWait + this.run.reserve(now + laneWait);
  }

  /**
   * Lets one request of `lane` through by its kind. A `timed` request (one whose timing a check
   * judges) reserves its slot at once, ahead of every request still waiting. Any other takes a
   * slot only when one is free now: 0, and it is sent; else the ms after which it asks again,
   * so that timed requests that came meanwhile go first.
   */
  admit(lane: string | undefined, timed: boolean): number {
    if (timed) return this.reserve(lane);
    const now = this.clock.now();
    const laneBucket = lane === undefined ? undefined : this.lane(lane, now);
    const waitMs = Math.max(laneBucket?.free(now) ?? 0, this.run.free(now));
    if (waitMs > 0) return waitMs;
    laneBucket?.take(now);
    this.run.take(now);
    return 0;
  }

  answered(lane: string | undefined): void {
    const now = this.clock.now();
    this.run.answered(now);
    if (lane !== undefined) this.lanes.get(lane)?.answered(now);
  }

  /** A 429 for `lane`, asking to wait `waitMs`: which buckets it slows is decided here. */
  limited(lane: string | undefined, waitMs: number): 'lane' | 'run' {
    const now = this.clock.now();
    for (const [key, at] of this.recent429s) if (at < now - BLAME_WINDOW_MS) this.recent429s.delete(key);
    this.recent429s.set(lane ?? '', now);
    if (lane !== undefined) this.lane(lane, now).limited(now, waitMs);
    if (lane !== undefined && this.recent429s.size < LANES_FOR_GLOBAL_BLAME) return 'lane';
    this.run.limited(now, waitMs);
    return 'run';
  }

  /** The run's current rate in requests a second (Infinity: no limit). */
  get runRate(): number {
    return this.run.ratePerSecond;
  }

  private lane(key: string, now: number): Bucket {
    let bucket = this.lanes.get(key);
    if (!bucket) {
      if (this.lanes.size >= 256)
        for (const [name, lane] of this.lanes) if (now - lane.lastUsedMs > LANE_IDLE_MS) this.lanes.delete(name);
      bucket = new Bucket(Infinity);
      this.lanes.set(key, bucket);
    }
    return bucket;
  }
}
