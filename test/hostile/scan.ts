/** What a run must never print or write: a secret it was given or learned, a bare stack trace. */
import type { ChildResult } from './child.js';

/** Credential shapes the spec names, unmasked: a token, a JWT, a signing secret. */
const SHAPES = [
  /svc_(?:live|test)_[A-Za-z0-9_-]{8,}/,
  /eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/,
  /whsec_[A-Za-z0-9+/=_-]{8,}/,
];
const STACK_FRAME = /\n\s+at (?:[^\n]+ \()?(?:file:\/\/|node:|\/)[^\n]*:\d+:\d+\)?/;

/** Every place of the run's output and files where one of `secrets` (or an unmasked credential shape) appears. */
export function leaks(run: ChildResult, secrets: Iterable<string>): string[] {
  const places: Array<[string, string]> = [
    ['stdout', run.stdout],
    ['stderr', run.stderr],
    ...[...run.files].map(([path, text]) => [path, text] as [string, string]),
  ];
  const found: string[] = [];
  const list = [...secrets].filter((secret) => secret.length >= 8);
  for (const [where, text] of places) {
    for (const secret of list) if (text.includes(secret)) found.push(`${where}: ${secret.slice(0, 12)}…`);
    for (const shape of SHAPES) {
      const match = shape.exec(text);
      if (match) found.push(`${where}: unmasked ${match[0].slice(0, 14)}…`);
    }
  }
  return found;
}

export function hasStackTrace(text: string): boolean {
  return STACK_FRAME.test(text);
}
