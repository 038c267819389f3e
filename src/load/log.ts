/** Progress of a load command on stderr, secrets masked, made printable: one line a call. */
import { writeLine } from '../text/console.js';

export const log = (line: string): void => {
  writeLine(process.stderr, line);
};
