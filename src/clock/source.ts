/**
 * What this harness's own clock is, so a user told "the service's clock is 40 s off" can
 * rule out (or in) the harness's side: the clock read (Date.now, the system's wall clock),
 * the kernel's clock source, and whether the system says it is NTP-synchronised.
 * Linux files only; elsewhere each unknown part says so.
 */
import { existsSync, readFileSync } from 'node:fs';

export interface HarnessClock {
  /** What the harness reads. */
  reads: 'Date.now (system wall clock)';
  /** The kernel clock source (Linux), e.g. tsc, kvm-clock; `unknown` elsewhere. */
  kernel_clocksource: string;
  /** `yes` when systemd-timesyncd or chrony reports synchronisation, `unknown` when nothing says. */
  ntp_synchronized: 'yes' | 'unknown';
}

const CLOCKSOURCE = '/sys/devices/system/clocksource/clocksource0/current_clocksource';
/** Files that exist only while a time daemon considers the clock synchronised. */
const SYNCHRONISED_MARKERS = ['/run/systemd/timesync/synchronized', '/run/chrony/synchronized'];

export function harnessClock(): HarnessClock {
  let kernel = 'unknown';
  try {
    kernel = readFileSync(CLOCKSOURCE, 'utf8').trim().slice(0, 40) || 'unknown';
  } catch {
    // Not Linux, or no sysfs: stays unknown.
  }
  return {
    reads: 'Date.now (system wall clock)',
    kernel_clocksource: kernel,
    ntp_synchronized: SYNCHRONISED_MARKERS.some((path) => existsSync(path)) ? 'yes' : 'unknown',
  };
}

export function describeHarnessClock(clock: HarnessClock): string {
  return `harness clock: ${clock.reads}, kernel clocksource ${clock.kernel_clocksource}, NTP synchronised: ${clock.ntp_synchronized}`;
}
