/**
 * Finding identifiers in response bodies whose shape the spec leaves open:
 * the first string anywhere in the JSON that matches the id pattern
 * (control-interface.md, "What the public API leaves open").
 */

export const ID_PATTERNS = {
  call: /^call_[A-Za-z0-9]+/,
  agent: /^agt_[A-Za-z0-9]+/,
  workspace: /^ws_[A-Za-z0-9]+/,
  event: /^evt_[A-Za-z0-9]+/,
  request: /^req_[A-Za-z0-9]+/,
} as const;

/** Every string in the value, depth first, in document order. */
export function* stringsIn(value: unknown): Generator<string> {
  if (typeof value === 'string') yield value;
  else if (Array.isArray(value)) for (const item of value) yield* stringsIn(item);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) yield* stringsIn(item);
}

export function findFirstId(value: unknown, pattern: RegExp): string | undefined {
  for (const text of stringsIn(value)) if (pattern.test(text)) return text;
  return undefined;
}

export function findAllIds(value: unknown, pattern: RegExp): string[] {
  const found = new Set<string>();
  for (const text of stringsIn(value)) if (pattern.test(text)) found.add(text);
  return [...found];
}
