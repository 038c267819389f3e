/**
 * Re-serializations of a parsed body, as a receiver that verifies `serialize(parse(body))`
 * instead of the raw bytes would compute them (Events > Signature, 5). The harness signs
 * these to prove such a receiver wrong: it must reject them, and acknowledge the raw ones.
 */

export type Reserializer = 'javascript' | 'python';

export const RESERIALIZERS: readonly Reserializer[] = ['javascript', 'python'];

export function reserialize(rawBody: string, style: Reserializer): string {
  const parsed = JSON.parse(rawBody) as unknown;
  return style === 'javascript' ? JSON.stringify(parsed) : pythonDumps(parsed);
}

/**
 * Python's `json.dumps(value)` defaults: `', '` and `': '` separators, non-ASCII written as
 * `\uXXXX` escapes (ensure_ascii). Numbers are printed as JavaScript prints the parsed
 * double, which is where Python would differ (it keeps big integers): close enough to break
 * the same receivers.
 */
export function pythonDumps(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'string') return pythonString(value);
  if (Array.isArray(value)) return `[${value.map(pythonDumps).join(', ')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([key, item]) => `${pythonString(key)}: ${pythonDumps(item)}`)
      .join(', ')}}`;
  }
  return 'null';
}

const SHORT_ESCAPES: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\b': '\\b',
  '\f': '\\f',
};

function pythonString(text: string): string {
  let out = '"';
  // Iterating UTF-16 code units writes astral characters as surrogate-pair escapes, as Python does.
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    const code = text.charCodeAt(i);
    if (SHORT_ESCAPES[ch] !== undefined) out += SHORT_ESCAPES[ch];
    else if (code < 0x20 || code > 0x7e) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}
