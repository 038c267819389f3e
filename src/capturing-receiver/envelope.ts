import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';

export interface EnvelopeVerdict {
  valid: boolean;
  errors: string[];
}

const SCHEMA_DIR = new URL('../../fixtures/schemas/', import.meta.url);

function loadSchema(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(file, SCHEMA_DIR), 'utf8')) as Record<string, unknown>;
}

/**
 * Compiled once, on the first delivery: compiling per request would dominate the receiver's
 * hot path, and compiling at module load would cost every process that loads the harness,
 * most of which never validate a delivery (the CLI, a run without webhooks). The
 * call-completed schema is registered so the envelope's `$ref` resolves.
 */
let compiled: ValidateFunction | undefined;

function envelopeSchema(): ValidateFunction {
  if (compiled) return compiled;
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  // Full checks where the spec needs a real date; the fast form of `uri`, whose full RFC 3986
  // expression was the costliest step of validation and adds nothing the suites rely on.
  ajvFormats.default(ajv, { mode: 'full', formats: ['date', 'date-time'] });
  ajvFormats.default(ajv, { mode: 'fast', formats: ['uri'] });
  ajv.addSchema(loadSchema('call-completed-data.schema.json'));
  compiled = ajv.compile(loadSchema('envelope.schema.json'));
  return compiled;
}

// Shared and frozen: most deliveries are valid and each keeps its verdict.
const VALID: EnvelopeVerdict = Object.freeze({ valid: true, errors: Object.freeze([]) as unknown as string[] });

/** Checks a parsed delivery body against fixtures/schemas/envelope.schema.json. */
export function validateEnvelope(json: unknown): EnvelopeVerdict {
  const validate = envelopeSchema();
  if (validate(json)) return VALID;
  return { valid: false, errors: describeErrors(validate.errors ?? []) };
}

/** "/data/to must match pattern "^\+"": where, then what. */
function describeErrors(errors: ErrorObject[]): string[] {
  // The `if` keyword only reports that its `then` failed; the real errors are listed too.
  return errors.filter((e) => e.keyword !== 'if').map((e) => `${e.instancePath || '(root)'} ${e.message ?? e.keyword}`);
}
