/**
 * Masking of secrets in everything the harness prints or writes.
 *
 * Two nets: secrets registered when the harness learns them (tokens, signing secrets,
 * JWTs, the control token), and patterns for credential shapes the spec names
 * (`svc_live_`/`svc_test_` tokens, JWTs), so a secret echoed back by a target in an
 * unexpected place is masked too.
 */

const registered = new Set<string>();

/** Shortest value worth registering: masking shorter strings would eat ordinary text. */
const MIN_SECRET_LENGTH = 6;

const PATTERNS: RegExp[] = [
  /svc_(?:live|test)_[A-Za-z0-9_\-]+/g,
  /eyJ[A-Za-z0-9_\-]*\.[A-Za-z0-9_\-]*\.[A-Za-z0-9_\-]*/g,
  /whsec_[A-Za-z0-9+/=_\-]+/g,
];

export function registerSecret(value: string | undefined | null): void {
  if (value && value.length >= MIN_SECRET_LENGTH) registered.add(value);
}

/** A short, non-reversible label for a secret: its kind and length, never its content. */
export function describeSecret(value: string): string {
  const prefix = /^(svc_(?:live|test)_|whsec_|eyJ)/.exec(value)?.[1] ?? '';
  return `${prefix}***(${value.length} chars)`;
}

export function mask(text: string): string {
  return replaceSecrets(text, describeSecret);
}

/** `text` with every secret it holds (registered or of a credential's shape) replaced by `replacement(secret)`. */
export function replaceSecrets(text: string, replacement: (secret: string) => string): string {
  let out = text;
  for (const secret of registered) {
    if (out.includes(secret)) out = out.split(secret).join(replacement(secret));
  }
  for (const pattern of PATTERNS) out = out.replace(pattern, (match) => replacement(match));
  return out;
}

/** Masks every string inside a JSON-like value (for measurements and report data). */
export function maskDeep<T>(value: T): T {
  if (typeof value === 'string') return mask(value) as T;
  if (Array.isArray(value)) return value.map((item) => maskDeep(item)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, maskDeep(item)])) as T;
  }
  return value;
}
