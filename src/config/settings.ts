/**
 * Settings of a certification run (../shared/contracts/runner.md, "Settings"):
 * the environment first, then `.env` in the working directory; validated at start so
 * that a typo or a bad value stops the run with a message naming the setting.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import { z } from 'zod';

const httpUrl = (name: string) =>
  z
    .string()
    .refine((value) => /^https?:\/\/[^\s/]+/i.test(value) && URL.canParse(value), {
      message: `${name} must be an absolute http:// or https:// URL, e.g. https://staging.example.test`,
    })
    .transform((value) => value.replace(/\/+$/, ''));

const port = (name: string) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a port number from 0 to 65535`)
    .transform(Number)
    .refine((value) => value >= 0 && value <= 65535, `${name} must be a port number from 0 to 65535`);

const readableFile = (name: string) =>
  z.string().refine((path) => existsSync(path), { message: `${name} names a file that does not exist` });

const flag = (name: string) =>
  z.enum(['true', 'false', '1', '0'], { message: `${name} must be true or false` }).transform((value) => value === 'true' || value === '1');

const FIELDS = z.object({
    SVC_BASE_URL: httpUrl('SVC_BASE_URL').optional(),
    SVC_CONTROL_URL: httpUrl('SVC_CONTROL_URL').optional(),
    SVC_CONTROL_TOKEN: z.string().min(1, 'SVC_CONTROL_TOKEN is empty').optional(),
    SVC_TOKEN: z.string().min(1, 'SVC_TOKEN is empty').optional(),
    RECEIVER_PORT: port('RECEIVER_PORT').default(0),
    RECEIVER_PUBLIC_URL: httpUrl('RECEIVER_PUBLIC_URL').optional(),
    RECEIVER_TLS_CERT: readableFile('RECEIVER_TLS_CERT').optional(),
    RECEIVER_TLS_KEY: readableFile('RECEIVER_TLS_KEY').optional(),
    RECEIVER_SECRET: z.string().min(1).optional(),
    CERTIFY_TIER: z.enum(['fast', 'full'], { message: 'CERTIFY_TIER must be fast or full' }).default('fast'),
    CERTIFY_REPORT_DIR: z.string().min(1).default('reports/latest'),
    CERTIFY_CHECKS: z.string().optional(),
    CERTIFY_ALLOW_PRODUCTION: flag('CERTIFY_ALLOW_PRODUCTION').default(false),
  });

const SCHEMA = FIELDS.superRefine((settings, ctx) => {
    if (settings.SVC_CONTROL_URL && !settings.SVC_CONTROL_TOKEN) {
      ctx.addIssue({ code: 'custom', path: ['SVC_CONTROL_TOKEN'], message: 'SVC_CONTROL_TOKEN is required when SVC_CONTROL_URL is set' });
    }
    if (!settings.SVC_BASE_URL && (settings.SVC_CONTROL_URL || settings.SVC_TOKEN)) {
      ctx.addIssue({ code: 'custom', path: ['SVC_BASE_URL'], message: 'SVC_BASE_URL is required when SVC_CONTROL_URL or SVC_TOKEN is set' });
    }
    if (Boolean(settings.RECEIVER_TLS_CERT) !== Boolean(settings.RECEIVER_TLS_KEY)) {
      ctx.addIssue({ code: 'custom', path: ['RECEIVER_TLS_KEY'], message: 'RECEIVER_TLS_CERT and RECEIVER_TLS_KEY must be given together' });
    }
  });

export type Settings = z.output<typeof SCHEMA>;

const KNOWN_NAMES = new Set(Object.keys(FIELDS.shape));
const OWNED_PREFIXES = ['SVC_', 'RECEIVER_', 'CERTIFY_'];

export class SettingsError extends Error {
  override name = 'SettingsError';
}

/** Merges `.env` under the environment (the environment wins), as dotenv documents. */
export function readSettingSources(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Record<string, string> {
  const dotenvPath = resolve(cwd, '.env');
  const fromFile = existsSync(dotenvPath) ? parseDotenv(readFileSync(dotenvPath)) : {};
  const merged: Record<string, string> = { ...fromFile };
  for (const [name, value] of Object.entries(env)) if (value !== undefined) merged[name] = value;
  return merged;
}

export function parseSettings(sources: Record<string, string>): Settings {
  const owned = Object.fromEntries(
    Object.entries(sources).filter(([name, value]) => OWNED_PREFIXES.some((prefix) => name.startsWith(prefix)) && value !== ''),
  );
  const unknown = Object.keys(owned).filter((name) => !KNOWN_NAMES.has(name));
  if (unknown.length > 0) {
    const names = [...KNOWN_NAMES].join(', ');
    throw new SettingsError(`unknown setting ${unknown.join(', ')} (known: ${names})`);
  }
  const result = SCHEMA.safeParse(owned);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const setting = String(issue.path[0] ?? '');
    throw new SettingsError(issue.message.includes(setting) ? issue.message : `${setting}: ${issue.message}`);
  }
  return result.data;
}

export function loadSettings(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Settings {
  return parseSettings(readSettingSources(env, cwd));
}
