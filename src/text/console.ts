/**
 * The one way a line reaches the console: secrets masked first (src/secrets/mask.ts), then
 * made printable (printable.ts), so neither a credential nor a target's escape sequence
 * reaches a terminal or a CI log.
 */
import { mask } from '../secrets/mask.js';
import { printable } from './printable.js';

export function writeLine(stream: NodeJS.WritableStream, line: string): void {
  stream.write(`${printable(mask(line))}\n`);
}
