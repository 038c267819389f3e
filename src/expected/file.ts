/**
 * The expected-failures file (`--expected-failures`, CERTIFY_EXPECTED_FAILURES,
 * TARGET_RECEIVER_EXPECTED_FAILURES): the checks a team knows its target fails today, each
 * with the reason and, optionally, the day after which the entry no longer excuses anything.
 * YAML or JSON (JSON is YAML). The zod schema is the one source: its JSON Schema is published
 * as schemas/expected-failures.schema.json (`npm run docs`).
 *
 *   expected_failures:
 *     - id: HOOK-RETRY-FULL-SCHEDULE
 *       reason: retries run every minute until PLAT-812 ships
 *       expires: 2027-03-31
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { SettingsError } from '../errors.js';

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** 2026-02-30 has the shape of a day but is none: Date rolls it over to March. */
function isCalendarDay(day: string): boolean {
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(day);
}

const ENTRY = z.strictObject({
  id: z
    .string()
    .regex(/^[A-Z0-9]+(?:-[A-Z0-9]+)*$/, 'id must be a check id, e.g. HOOK-RETRY-FULL-SCHEDULE')
    .describe('the check id, exactly as in report.json'),
  reason: z
    .string()
    .trim()
    .min(1, 'reason must say why the check is expected to fail')
    .describe('why the check is expected to fail (an issue link, a plan)'),
  expires: z
    .string()
    .regex(ISO_DAY, 'expires must be a day, YYYY-MM-DD')
    .refine(isCalendarDay, 'expires must be a day of the calendar')
    .optional()
    .describe('the last day (UTC) the entry excuses a failure; after it, a failure counts again'),
});

export const EXPECTED_FAILURES_FILE = z
  .strictObject({ expected_failures: z.array(ENTRY).describe('one entry per check id') })
  .describe('checks expected to fail: reported as such, and not failing the run');

export type ExpectedFailure = z.infer<typeof ENTRY>;

/** schemas/expected-failures.schema.json. */
export function expectedFailuresJsonSchema(): Record<string, unknown> {
  return {
    $id: 'https://svc-conformance.example.test/schemas/expected-failures.schema.json',
    title: 'checks expected to fail (--expected-failures)',
    ...z.toJSONSchema(EXPECTED_FAILURES_FILE, { io: 'input' }),
  };
}

/**
 * Parses the file's text; `known` are the ids the command runs (an unknown id is a typo or a
 * check of the other command: a settings error, exit 2). `source` names the file in messages.
 */
export function parseExpectedFailures(
  text: string,
  source: string,
  known: ReadonlySet<string>,
  otherCommand?: { ids: ReadonlySet<string>; command: string },
): ExpectedFailure[] {
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch (error) {
    throw new SettingsError(`${source}: not YAML or JSON (${(error as Error).message.split('\n')[0]})`);
  }
  const result = EXPECTED_FAILURES_FILE.safeParse(value);
  if (!result.success)
    throw new SettingsError(`${source}: ${issueLine(result.error)} (schemas/expected-failures.schema.json)`);
  const entries = result.data.expected_failures;
  const seen = new Set<string>();
  for (const entry of entries) {
    if (seen.has(entry.id)) throw new SettingsError(`${source}: ${entry.id} is listed twice; keep one entry per check`);
    seen.add(entry.id);
    if (known.has(entry.id)) continue;
    const elsewhere = otherCommand?.ids.has(entry.id)
      ? ` (it is a check of \`${otherCommand.command}\`; keep a file per command)`
      : '';
    throw new SettingsError(
      `${source}: unknown check id ${entry.id}${elsewhere}; list only ids of this command's checks (docs/traceability.md)`,
    );
  }
  return entries;
}

export function readExpectedFailures(
  path: string,
  setting: string,
  known: ReadonlySet<string>,
  otherCommand?: { ids: ReadonlySet<string>; command: string },
): ExpectedFailure[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new SettingsError(
      `${setting}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); give a YAML or JSON file of expected failures`,
    );
  }
  return parseExpectedFailures(text, `${setting} ${path}`, known, otherCommand);
}

/** The first problem, at its place in the file: "expected_failures[2].reason: …". */
function issueLine(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const where = issue.path
    .map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${String(part)}`))
    .join('');
  return where ? `${where}: ${issue.message}` : issue.message;
}
