/**
 * report.json checked against its published JSON Schema (schemas/report.schema.json), the
 * file CI users validate with, not the zod schema it is generated from: what the tests
 * prove is what is published.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { ReportFileError } from '../errors.js';
import type { RunReport } from './model.js';

export const REPORT_SCHEMA_PATH = new URL('../../schemas/report.schema.json', import.meta.url);

let validate: ValidateFunction | undefined;

/** Every way `value` departs from the published report schema; empty when it conforms. */
export function reportSchemaProblems(value: unknown): string[] {
  if (!validate) {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    ajvFormats.default(ajv, { formats: ['date-time'] });
    validate = ajv.compile(JSON.parse(readFileSync(REPORT_SCHEMA_PATH, 'utf8')) as Record<string, unknown>);
  }
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`);
}

/** Reads a report.json and refuses one that is not JSON or departs from the published schema. */
export function readReportFile(path: string): RunReport {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ReportFileError(
      `${path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : `not JSON (${(error as Error).message})`}`,
    );
  }
  const problems = reportSchemaProblems(value);
  if (problems.length > 0)
    throw new ReportFileError(
      `${path} does not conform to schemas/report.schema.json: ${problems.slice(0, 5).join('; ')}`,
    );
  return value as RunReport;
}
