import type { Clock, TimerHandle } from '../clock.js';
import type { FaultSet } from '../faults.js';

// The endpoint state machine of the spec: active ⇄ disabled, plus the dashboard flag.
// A failure with no 2xx before it starts a streak and a timer; if no success has
// ended the streak when the timer fires (24 h, scaled), the endpoint is disabled.

export type EndpointStateName = 'active' | 'disabled';

export interface EndpointHealthOptions {
  clock: Clock;
  /** The auto-disable period for this endpoint's workspace (24 h divided by its time scale). */
  disableAfterMs: () => number;
  faults: () => FaultSet;
  /** Called once each time the endpoint becomes disabled (the dispatcher drops pending retries). */
  onDisabled?: () => void;
}

export class EndpointHealth {
  state: EndpointStateName = 'active';
  flagged = false;
  /** Start of the current unbroken run of failures, or null. */
  failingSince: number | null = null;
  /** Fault reenabled-endpoint-silent: once disabled, no delivery is ever sent again. */
  private silenced = false;
  private disableTimer: TimerHandle | null = null;
  /** Fault auto-disable-from-last-success: the endpoint's creation or its last 2xx. */
  private lastSuccessAt: number;
  /** Fault enable-keeps-failure-streak: the streak start that disabled the endpoint, kept for its re-enable. */
  private keptStreakStart: number | null = null;
  /** Fault auto-disable-after-24-failures: failed attempts since the last success or re-enable. */
  private failedAttemptsInARow = 0;

  constructor(private readonly options: EndpointHealthOptions) {
    this.lastSuccessAt = options.clock.now();
  }

  /** Whether an attempt may be sent now. */
  acceptsDeliveries(): boolean {
    if (this.options.faults().has('reenabled-endpoint-silent') && this.silenced) return false;
    return this.state === 'active' || this.options.faults().has('deliver-when-disabled');
  }

  recordSuccess(): void {
    this.lastSuccessAt = this.options.clock.now();
    this.failedAttemptsInARow = 0;
    // Fault streak-not-ended-by-success: the streak is ended only by re-enabling.
    if (this.options.faults().has('streak-not-ended-by-success')) return;
    this.failingSince = null;
    this.cancelTimer();
  }

  recordFailure(): void {
    // Fault auto-disable-after-24-failures: the rule's "24" is counted in failed attempts, not hours.
    // Stryker disable next-line all: equivalent: only that fault reads the count
    this.failedAttemptsInARow += 1;
    if (
      this.options.faults().has('auto-disable-after-24-failures') &&
      this.failedAttemptsInARow >= 24 &&
      this.state === 'active'
    ) {
      this.cancelTimer();
      this.disable();
      return;
    }
    // A streak already running is timed by the timer its first failure set (below).
    if (this.failingSince !== null) {
      // Fault enable-keeps-failure-streak: the re-enable kept the streak but no timer; the kept streak is
      // checked at each failure, and is already 24 h old.
      if (
        this.options.faults().has('enable-keeps-failure-streak') &&
        this.state === 'active' &&
        !this.options.faults().has('no-auto-disable') &&
        this.options.clock.now() - this.failingSince >= this.options.disableAfterMs()
      )
        this.disable();
      return;
    }
    this.failingSince = this.options.clock.now();
    // A disabled endpoint is sent nothing, so a failure recorded while disabled is an attempt that was in
    // flight: a timer set for it finds the endpoint disabled already, or is cancelled by the re-enable.
    // Stryker disable next-line LogicalOperator: equivalent: a timer set while disabled finds the endpoint disabled, or the re-enable cancels it
    if (this.state !== 'active' || this.options.faults().has('no-auto-disable')) return;
    // Fault auto-disable-from-last-success: the period is counted from the last good news, not from this failure.
    const alreadyElapsed = this.options.faults().has('auto-disable-from-last-success')
      ? this.failingSince - this.lastSuccessAt
      : 0;
    // Stryker disable next-line ArithmeticOperator: equivalent: alreadyElapsed is 0 without the fault auto-disable-from-last-success
    this.disableTimer = this.options.clock.setTimer(Math.max(0, this.options.disableAfterMs() - alreadyElapsed), () => {
      this.disableTimer = null;
      this.disable();
    });
  }

  /** Retries exhausted: the delivery is dropped and the dashboard shows the endpoint flagged. */
  recordDrop(): void {
    if (!this.options.faults().has('no-flag-on-drop')) this.flagged = true;
  }

  /** Re-enabled from the dashboard: active again with a clean streak. The flag stays. */
  enable(): void {
    if (this.options.faults().has('enable-ignored')) return;
    this.state = 'active';
    this.failedAttemptsInARow = 0;
    this.failingSince = this.options.faults().has('enable-keeps-failure-streak') ? this.keptStreakStart : null;
    // Stryker disable next-line all: no stated rule: a disabled endpoint has no timer left; re-enabling an active one is not described, and its kept timer still disables it only after 24 hours of consecutive failures
    this.cancelTimer();
  }

  /** Fault suspend-disables-endpoints: disabled by the workspace's suspension, as the 24 h of failures would. */
  disableForSuspension(): void {
    this.cancelTimer();
    this.disable();
  }

  // Stryker disable next-line all: equivalent: a deleted endpoint's state is never read again (its control URL answers 404)
  dispose(): void {
    // Stryker disable next-line all: equivalent: as above
    this.cancelTimer();
  }

  private disable(): void {
    if (this.state === 'disabled') return;
    this.state = 'disabled';
    this.keptStreakStart = this.failingSince;
    this.failingSince = null;
    if (this.options.faults().has('reenabled-endpoint-silent')) this.silenced = true;
    this.options.onDisabled?.();
  }

  private cancelTimer(): void {
    this.disableTimer?.cancel();
    this.disableTimer = null;
  }
}
