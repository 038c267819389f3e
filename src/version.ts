/** The harness's name and version, as package.json states them: the one source for reports and `--version`. */
import { readFileSync } from 'node:fs';

const PACKAGE = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  name: string;
  version: string;
};

export const HARNESS_NAME = PACKAGE.name;
export const HARNESS_VERSION = PACKAGE.version;
