/**
 * Masking of secrets in everything the harness prints or writes.
 *
 * Two nets: secrets registered when the harness learns them (tokens, signing secrets,
 * JWTs, the control token), and patterns for credential shapes the spec names
 * (`svc_live_`/`svc_test_` tokens, JWTs), so a secret echoed back by a target in an
 * unexpected place is masked too.
 */

/** Shortest value worth registering: masking shorter strings would eat ordinary text. */
const MIN_SECRET_LENGTH = 6;

/**
 * Registered secrets of at least KEY_CHARS characters, indexed by their last KEY_CHARS: a run
 * learns thousands of tokens and secrets, and every string the harness writes is searched for
 * all of them, so the search must cost the length of the text, not the number of secrets. The
 * key is the end of a secret because secrets of one kind share their start (a token's prefix,
 * a JWT's header) and differ in their random end.
 */
const KEY_CHARS = 12;
const byEnding = new Map<string, string[]>();
/** Registered secrets shorter than KEY_CHARS, searched one by one (few in any run). */
const shortSecrets = new Set<string>();
const registered = new Set<string>();

const PATTERNS: RegExp[] = [
  /svc_(?:live|test)_[A-Za-z0-9_\-]+/g,
  /eyJ[A-Za-z0-9_\-]*\.[A-Za-z0-9_\-]*\.[A-Za-z0-9_\-]*/g,
  /whsec_[A-Za-z0-9+/=_\-]+/g,
];

export function registerSecret(value: string | undefined | null): void {
  if (!value || value.length < MIN_SECRET_LENGTH || registered.has(value)) return;
  registered.add(value);
  if (value.length < KEY_CHARS) {
    shortSecrets.add(value);
    return;
  }
  const key = value.slice(-KEY_CHARS);
  const same = byEnding.get(key);
  if (same) same.push(value);
  else byEnding.set(key, [value]);
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
  let out = '';
  let from = 0;
  for (const { start, secret } of registeredIn(text)) {
    out += text.slice(from, start) + replacement(secret);
    from = start + secret.length;
  }
  out += text.slice(from);
  for (const pattern of PATTERNS) out = out.replace(pattern, (match) => replacement(match));
  return out;
}

/** Where registered secrets occur in `text`: leftmost first, the longest at a place, never overlapping. */
function registeredIn(text: string): { start: number; secret: string }[] {
  if (text.length < MIN_SECRET_LENGTH || registered.size === 0) return [];
  const found: { start: number; secret: string }[] = [];
  for (let end = KEY_CHARS; end <= text.length && byEnding.size > 0; end++) {
    const candidates = byEnding.get(text.slice(end - KEY_CHARS, end));
    if (!candidates) continue;
    for (const secret of candidates)
      if (end >= secret.length && text.startsWith(secret, end - secret.length))
        found.push({ start: end - secret.length, secret });
  }
  for (const secret of shortSecrets)
    for (let at = text.indexOf(secret); at !== -1; at = text.indexOf(secret, at + 1)) found.push({ start: at, secret });
  found.sort((a, b) => a.start - b.start || b.secret.length - a.secret.length);
  const kept: { start: number; secret: string }[] = [];
  let coveredTo = 0;
  for (const match of found) {
    if (match.start < coveredTo) continue;
    kept.push(match);
    coveredTo = match.start + match.secret.length;
  }
  return kept;
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
