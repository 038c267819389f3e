/**
 * Where each check's body is, for docs/traceability.md: the file and line of its
 * `check('ID', …)` declaration, found by reading the sources that declare checks (the suites
 * for the service, src/receiver-cert/checks/ for webhook receivers) when the document is
 * generated, so the row follows the code wherever it moves.
 */
import { RegistrationError } from '../errors.js';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** A source file's text, with its path from the project's root (forward slashes). */
export interface SourceFile {
  path: string;
  text: string;
}

/** The folders whose files declare checks, from the project's root. */
export const CHECK_SOURCE_DIRS = ['suites', 'src/receiver-cert/checks'] as const;

/** `check(` then the id as a string literal, with any white space (line breaks too) between. */
const DECLARATION = /\bcheck\(\s*(['"`])([A-Z0-9]+(?:-[A-Z0-9]+)+)\1/g;

/**
 * Check id → `path:line` of the `check(` that declares it. A declaration whose id is not
 * among `ids` is passed over; an id declared twice, or not at all, is an error that names it.
 */
export function checkBodyLines(sources: readonly SourceFile[], ids: readonly string[]): Map<string, string> {
  const wanted = new Set(ids);
  const found = new Map<string, string>();
  for (const { path, text } of sources) {
    for (const match of text.matchAll(DECLARATION)) {
      const id = match[2]!;
      if (!wanted.has(id)) continue;
      const where = `${path}:${lineAt(text, match.index)}`;
      const earlier = found.get(id);
      if (earlier !== undefined) throw new RegistrationError(`check ${id} is declared twice: ${earlier} and ${where}`);
      found.set(id, where);
    }
  }
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length > 0) throw new RegistrationError(`no check('ID', …) declares ${missing.join(', ')} in ${CHECK_SOURCE_DIRS.join(' or ')}`);
  return found;
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < index; at = text.indexOf('\n', at + 1)) line += 1;
  return line;
}

/** Every .ts file under CHECK_SOURCE_DIRS of `root`, in a stable order. */
export function readCheckSources(root: string): SourceFile[] {
  return CHECK_SOURCE_DIRS.flatMap((dir) =>
    (readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' }))
      .filter((name) => name.endsWith('.ts'))
      .sort()
      .map((name) => {
        const file = join(root, dir, name);
        return { path: relative(root, file).split('\\').join('/'), text: readFileSync(file, 'utf8') };
      }),
  );
}
