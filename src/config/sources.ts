/** Where settings come from: the environment, then `.env` in the working directory (dotenv; the environment wins). */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse as parseDotenv } from 'dotenv';

export function readSettingSources(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Record<string, string> {
  const dotenvPath = resolve(cwd, '.env');
  const fromFile = existsSync(dotenvPath) ? parseDotenv(readFileSync(dotenvPath)) : {};
  const merged: Record<string, string> = { ...fromFile };
  for (const [name, value] of Object.entries(env)) if (value !== undefined) merged[name] = value;
  return merged;
}
