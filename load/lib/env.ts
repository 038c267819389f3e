/**
 * Settings of a k6 run, from k6's environment (`__ENV`). `svc-harness load` (src/load/) sets
 * them for a local run; a k6-operator TestRun sets them from a Secret. Names reuse the
 * harness's (SVC_*) where they mean the same thing; everything load-specific is LOAD_*.
 */
import { durationSeconds } from './duration.ts';

export function env(name: string): string | undefined {
  const value = __ENV[name];
  return value === undefined || value === '' ? undefined : value;
}

export function required(name: string): string {
  const value = env(name);
  if (value === undefined) throw new Error(`${name} is not set (svc-harness load sets it; see load/README.md)`);
  return value;
}

export function num(name: string, fallback: number): number {
  const value = env(name);
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0) throw new Error(`${name} must be a non-negative number, got ${value}`);
  return parsed;
}

export function flag(name: string): boolean {
  const value = env(name);
  return value === 'true' || value === '1';
}

/** Seconds as a k6 duration string, to the millisecond. */
export function seconds(value: number): string {
  return `${Math.max(0, Math.round(value * 1000))}ms`;
}

/** How long the measured phase of a scenario runs (LOAD_DURATION, default given). */
export function loadDuration(fallbackSeconds: number): number {
  const text = env('LOAD_DURATION');
  return text === undefined ? fallbackSeconds : durationSeconds(text);
}

/** Whether a failing gate threshold stops the run at once (LOAD_ABORT_ON_FAIL, default true). */
export function abortOnFail(): boolean {
  return env('LOAD_ABORT_ON_FAIL') !== 'false';
}
