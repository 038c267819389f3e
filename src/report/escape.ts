/**
 * How text becomes markup in every report writer. Both functions first make the text
 * printable (src/text/printable.ts): a writer that escapes through them cannot print a
 * target's control characters or escape sequences, nor write XML that XML 1.0 forbids.
 */
import { MAX_PRINTABLE, printable } from '../text/printable.js';

/** Text for an XML or HTML element or attribute value. */
export function escapeXml(text: string, maxLength = MAX_PRINTABLE): string {
  return printable(text, maxLength).replace(
    /[<>&"']/g,
    (ch) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[ch]!,
  );
}

/**
 * Text for a Markdown table cell or a one-line list item: no line break, no cell border.
 * `<` stays as it is: a backslash would show inside code spans, and Markdown viewers
 * sanitise raw HTML themselves.
 */
export function escapeMarkdownCell(text: string): string {
  return printable(text).replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}
