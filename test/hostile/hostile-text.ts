/**
 * Text a hostile target answers with (the `hostile-text` behaviour of server.ts), and how a
 * test counts what of it reached a console or a report raw. Shared with the writers' unit
 * tests (test/report/hostile-text.test.ts), so both meet the same text.
 */

/** Control characters, terminal escapes (clear screen, set title), markup, a CDATA end, invalid Unicode. */
export const HOSTILE_TEXT =
  'NUL\u0000 BEL\u0007 BS\u0008 CR\r DEL\u007f \u001b[2J\u001b[H\u001b]0;pwned\u0007 \u009b31m <script>alert(1)</script> ]]> \uFFFE \uFFFF \uD800 \uDC00 \u202Eevil';

/**
 * Every unsafe character in `text`, by code (e.g. "0x1b"): a control character other than
 * tab and newline, DEL, a C1 control, U+FFFE/U+FFFF or a lone surrogate. `text` is a file
 * read as UTF-8 or a console stream.
 */
export function unsafeCharacters(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(
    /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
  )) {
    found.push(`0x${match[0].charCodeAt(0).toString(16)}`);
  }
  return found;
}
