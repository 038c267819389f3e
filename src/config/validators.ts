/**
 * The validators every group of settings uses (SVC_/RECEIVER_/CERTIFY_, TARGET_RECEIVER_,
 * LOAD_, REFERENCE_): settings arrive as strings from the environment or .env, and each message names
 * the setting so that a typo stops the run with a line that says what to fix.
 */
import { existsSync } from 'node:fs';
import { z } from 'zod';
import { SettingsError } from '../errors.js';

/** An absolute http:// or https:// URL, kept as written. */
export const httpUrl = (name: string, example = 'https://staging.example.test') =>
  z.string().refine((value) => /^https?:\/\/[^\s/]+/i.test(value) && URL.canParse(value), {
    message: `${name} must be an absolute http:// or https:// URL, e.g. ${example}`,
  });

/** A base URL: as httpUrl, without trailing slashes (paths are appended to it). */
export const baseUrl = (name: string) => httpUrl(name).transform((value) => value.replace(/\/+$/, ''));

/** A number written as `pattern` allows, from min to max; one message for every way it can be wrong. */
const numberIn = (pattern: RegExp, message: string, min: number, max: number) =>
  z
    .string()
    .regex(pattern, message)
    .transform(Number)
    .refine((value) => value >= min && value <= max, message);

export const integer = (name: string, min: number, max: number) =>
  numberIn(/^\d+$/, `${name} must be a whole number from ${min} to ${max}`, min, max);

/** A decimal number (k6 reads it as one), e.g. 0.01 or 250.5. */
export const decimal = (name: string, min: number, max: number) =>
  numberIn(/^\d+(\.\d+)?$/, `${name} must be a number from ${min} to ${max}`, min, max);

export const port = (name: string) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a port number from 0 to 65535`)
    .transform(Number)
    .refine((value) => value >= 0 && value <= 65535, `${name} must be a port number from 0 to 65535`);

export const readableFile = (name: string) =>
  z.string().refine((path) => existsSync(path), { message: `${name} names a file that does not exist` });

/** A token: not blank, no surrounding whitespace (a stray space in .env is a typo, not a token). */
export const credential = (name: string) =>
  z
    .string()
    .refine((value) => value.trim().length > 0, `${name} is empty`)
    .refine((value) => value.trim() === value, `${name} has leading or trailing whitespace`);

export const flag = (name: string) =>
  z
    .enum(['true', 'false', '1', '0'], { message: `${name} must be true or false` })
    .transform((value) => value === 'true' || value === '1');

/** Milliseconds from 1 s to 10 min. */
export const positiveMs = (name: string) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a whole number of milliseconds`)
    .transform(Number)
    .refine((value) => value >= 1_000 && value <= 600_000, `${name} must be from 1000 to 600000 ms`);

/** Extra environment: `A=1,B=2`, or a JSON object of strings. */
export const envList = (name: string) =>
  z.string().transform((raw, ctx) => {
    const text = raw.trim();
    if (text.startsWith('{')) {
      try {
        const parsed = JSON.parse(text) as unknown;
        if (
          parsed &&
          typeof parsed === 'object' &&
          !Array.isArray(parsed) &&
          Object.values(parsed).every((value) => typeof value === 'string')
        ) {
          return parsed as Record<string, string>;
        }
      } catch {
        // reported below
      }
      ctx.addIssue({
        code: 'custom',
        message: `${name} must be a JSON object of strings, or NAME=value pairs separated by commas`,
      });
      return z.NEVER;
    }
    const env: Record<string, string> = {};
    for (const pair of text.split(',').filter((part) => part.trim() !== '')) {
      const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(pair);
      if (!match) {
        ctx.addIssue({
          code: 'custom',
          message: `${name}: "${pair.trim()}" is not NAME=value (use JSON for values with commas)`,
        });
        return z.NEVER;
      }
      env[match[1]!] = match[2]!;
    }
    return env;
  });

/** The first problem zod found, as one line that names the setting. */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const setting = String(issue.path[0] ?? '');
  return issue.message.includes(setting) ? issue.message : `${setting}: ${issue.message}`;
}

/** The settings of `sources` under `prefixes`; a name under them that `known` lacks is a typo. */
export function ownedSettings(
  sources: Record<string, string>,
  prefixes: readonly string[],
  known: ReadonlySet<string>,
): { owned: Record<string, string>; unknown: string[] } {
  const owned = Object.fromEntries(
    Object.entries(sources).filter(([name]) => prefixes.some((prefix) => name.startsWith(prefix))),
  );
  // A CI secret that is not defined arrives as an empty variable: dropping it would certify
  // something else (the bundled reference, for an empty SVC_BASE_URL) and could pass.
  const empty = Object.keys(owned).filter((name) => owned[name] === '');
  if (empty.length > 0) {
    const one = empty.length === 1;
    throw new SettingsError(
      `${empty.join(', ')} ${one ? 'is' : 'are'} set but empty: give ${one ? 'it a value' : 'them values'} or unset ${one ? 'it' : 'them'} (an undefined CI secret arrives empty)`,
    );
  }
  return { owned, unknown: Object.keys(owned).filter((name) => !known.has(name)) };
}
