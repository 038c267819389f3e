/**
 * What a target says is data. Its text reaches the console and every report, so before
 * any writer sees it, it is made printable here, and only here:
 *
 * - control characters (C0 but tab and newline, DEL, C1) and the invisible characters that
 *   reorder or break lines (bidirectional controls, U+2028/U+2029) are shown as `\u001b`,
 *   so a body cannot clear a terminal, set its title or hide text;
 * - invalid Unicode (a lone surrogate, a noncharacter such as U+FFFE) becomes U+FFFD;
 * - the result is at most `maxLength` characters, with what was cut counted at its end.
 *
 * What remains is also legal in XML 1.0, so a JUnit writer needs only its usual escaping.
 * Applying it twice changes nothing (tested), so a writer may apply it to text that
 * already went through it.
 */

/** Long enough for any detail or evidence excerpt a check records; short enough that one field cannot swamp a report. */
export const MAX_PRINTABLE = 10_000;

const REPLACEMENT = '\uFFFD';

// Code points shown as an escape: C0 but \t (9) and \n (10), DEL, C1, the bidirectional
// controls (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) and U+2028/U+2029.
const SHOWN = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028-\u202E\u2066-\u2069]/;
// A surrogate not part of a pair, or a noncharacter (U+FDD0–U+FDEF, and the last two code points of every plane).
const INVALID =
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|[\uFDD0-\uFDEF\uFFFE\uFFFF]|[\uD83F\uD87F\uD8BF\uD8FF\uD93F\uD97F\uD9BF\uD9FF\uDA3F\uDA7F\uDABF\uDAFF\uDB3F\uDB7F\uDBBF\uDBFF][\uDFFE\uDFFF]/;
const UNPRINTABLE = new RegExp(`${SHOWN.source}|${INVALID.source}`, 'g');

const escapeUnprintable = (ch: string): string =>
  SHOWN.test(ch) ? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}` : REPLACEMENT;

/** `text` made safe to print and to write into any report (see above). */
export function printable(text: string, maxLength = MAX_PRINTABLE): string {
  const shown = text.replace(UNPRINTABLE, escapeUnprintable);
  return shown.length <= maxLength ? shown : cut(shown, maxLength);
}

/** Every string of a JSON-like value (keys too) made printable, for report.json. */
export function printableDeep<T>(value: T): T {
  if (typeof value === 'string') return printable(value) as T;
  if (Array.isArray(value)) return value.map((item) => printableDeep(item)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [printable(key), printableDeep(item)])) as T;
  }
  return value;
}

/** The first characters of `text` and how many were cut, within `maxLength` in all. */
function cut(text: string, maxLength: number): string {
  // The marker's own length depends on the count; the count is at most text.length.
  const markerLength = marker(text.length).length;
  let end = Math.max(0, maxLength - markerLength);
  // Never split a surrogate pair: half of one would be invalid Unicode.
  if (end > 0 && /[\uD800-\uDBFF]/.test(text[end - 1]!)) end -= 1;
  return `${text.slice(0, end)}${marker(text.length - end)}`.slice(0, maxLength);
}

const marker = (count: number): string => `… (${count} more characters)`;
