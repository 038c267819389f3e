/** The harness's version, as package.json states it: the one source for reports and `--version`. */
import { readFileSync } from 'node:fs';

export const HARNESS_VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
