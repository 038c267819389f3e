/**
 * A request as the `curl` command that sends it again, for a failure's "reproduce with" line
 * (schemathesis's habit). The command is for a person's shell, so no secret is ever in it:
 * each one (a registered secret or a credential's shape, src/secrets/mask.ts) becomes a
 * shell variable the reader sets ("$SVC_TOKEN"), and the argument holding it is double-quoted
 * so that the variable expands while the rest of the argument stays literal.
 */
import { replaceSecrets } from '../secrets/mask.js';

/** Longest body the command carries inline; a longer one is left out, and the command says so. */
export const REPRODUCE_BODY_CHARS = 4_000;

/** Stands for a secret while an argument is quoted; no header, path or JSON text holds a NUL. */
const SECRET_MARK = '\u0000secret\u0000';

export interface ReproducedRequest {
  method: string;
  /** The full URL the request went to. */
  url: string;
  headers: Record<string, string | string[]>;
  body: string | Buffer | undefined;
}

/** The `curl` command for `request`, its secrets as `placeholder` (a shell variable such as "$SVC_TOKEN"). */
export function curlCommand(request: ReproducedRequest, placeholder: string): string {
  const args = ['curl', '-sS', '-i', '-X', request.method, shellArg(request.url, placeholder)];
  for (const [name, value] of Object.entries(request.headers)) {
    for (const one of Array.isArray(value) ? value : [value]) args.push('-H', shellArg(`${name}: ${one}`, placeholder));
  }
  const { body } = request;
  if (typeof body === 'string' && body.length <= REPRODUCE_BODY_CHARS)
    args.push('--data-raw', shellArg(body, placeholder));
  else if (body !== undefined && body.length > 0)
    args.push(
      `--data-binary @body  # the ${body.length}-${typeof body === 'string' ? 'character' : 'byte'} body, not shown`,
    );
  return args.join(' ');
}

/** One shell argument: single-quoted, or double-quoted with its secrets as `placeholder` when it holds one. */
export function shellArg(value: string, placeholder: string): string {
  const marked = replaceSecrets(value, () => SECRET_MARK);
  if (marked === value) return /^[A-Za-z0-9_./:@%+=,-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
  return `"${marked.replace(/["\\$`]/g, '\\$&').replaceAll(SECRET_MARK, placeholder)}"`;
}
