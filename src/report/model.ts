/**
 * The result of a run, as ../shared/contracts/runner.md fixes report.json. The zod schema is
 * the one source: the types below are inferred from it, and the published JSON Schema
 * (docs/schemas/report.schema.json, `npm run docs`) is generated from it.
 */
import { z } from 'zod';
import type { Level } from '../catalog/checks.js';
import { PROVENANCE } from './provenance.js';
import { SELECTION } from './selection.js';
import { EXPECTED_FAILURE_MARK, EXPECTED_FAILURES_OF_RUN, excusedFailure, strictlyFixed } from '../expected/mark.js';

const VERDICT = z
  .enum(['pass', 'fail', 'warn', 'skip', 'error'])
  .describe(
    'pass | fail | warn (a failed should) | skip | error (no verdict: the network kept its exchanges from an answer)',
  );
const LEVEL = z
  .enum(['must', 'should', 'observe'])
  .describe(
    'must: the spec states it; should: a strong reading, failing warns; observe: records a choice the spec leaves open',
  );

const CHECK_RESULT = z.looseObject({
  id: z
    .string()
    .regex(/^[A-Z0-9]+(?:-[A-Z0-9]+)*$/)
    .describe('stable across versions, unique, upper-case words joined by -'),
  title: z.string(),
  clause: z.string().describe('the spec clause(s) the check traces to'),
  level: LEVEL,
  verdict: VERDICT,
  duration_ms: z.number().nonnegative(),
  detail: z.string().optional(),
  measurements: z.record(z.string(), z.unknown()).optional(),
  area: z.string().describe('suite the check belongs to (not in the contract example; extra fields are allowed)'),
  expected_failure: EXPECTED_FAILURE_MARK.optional(),
});

const LEFTOVER = z.object({
  kind: z.enum(['workspace', 'token', 'endpoint']),
  id: z.string(),
  workspace_id: z.string(),
  remove_with: z
    .string()
    .describe('the control-interface call that removes it, e.g. DELETE /workspaces/ws_x/tokens/tok_y'),
});

const RAN = z
  .object({ ran: z.number().int().nonnegative(), of: z.number().int().nonnegative() })
  .describe('checks of the tier that ran with a verdict (not skip), of all checks of the tier at that level');

const COVERAGE = z
  .object({
    by_level: z.object({ must: RAN, should: RAN, observe: RAN }),
    must_percent: z
      .number()
      .min(0)
      .max(100)
      .describe("percent of the tier's must checks that ran (100 when the tier has none)"),
    min_must_percent: z.number().min(0).max(100).describe('CERTIFY_MIN_COVERAGE of the run'),
    met: z.boolean().describe('must_percent >= min_must_percent; false fails the run (exit 1)'),
    missing: z
      .array(
        z.object({
          reason: z.string().describe('the skip reason: which capability the run lacked'),
          checks: z.array(z.string()),
        }),
      )
      .describe("the tier's must checks that did not run, grouped by why"),
  })
  .describe('how much of the tier ran: a run that skipped what it could not do must not read as a full pass');

const NETWORK = z.object({
  requests: z.number().int().nonnegative().describe('requests the checks sent to the public API, resends included'),
  control_requests: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe('requests the checks sent to the control interface, resends included'),
  rate_limited: z.number().int().nonnegative().describe('answers that were 429'),
  waited_ms: z
    .number()
    .nonnegative()
    .describe('time the checks spent waiting for rate limits: Retry-After, back-off and pacing'),
  resent: z.number().int().nonnegative().describe('requests sent again after a 429 or without an answer'),
  unanswered: z
    .number()
    .int()
    .nonnegative()
    .describe('requests that got no answer after their retries (their checks end in error)'),
});

export const RUN_REPORT = z.looseObject({
  harness_version: z.string(),
  target: z.object({ base_url: z.string(), embedded_reference: z.boolean() }),
  started_at: z.iso.datetime(),
  finished_at: z.iso.datetime(),
  summary: z.object({
    pass: z.number().int().nonnegative(),
    fail: z.number().int().nonnegative(),
    warn: z.number().int().nonnegative(),
    skip: z.number().int().nonnegative(),
    error: z
      .number()
      .int()
      .nonnegative()
      .optional()
      .describe('absent in reports of harness versions before the error verdict'),
  }),
  checks: z.array(CHECK_RESULT),
  tier: z.enum(['fast', 'full']),
  interrupted: z.boolean().optional().describe('set when a signal stopped the run before every check ran'),
  leftovers: z
    .array(LEFTOVER)
    .optional()
    .describe(
      'what the run created on the target and its clean-up could not remove (absent when none); the run then exits 3 unless a must check failed',
    ),
  coverage: COVERAGE.optional().describe('absent in reports of harness versions before it'),
  seed: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe('the seed of every generated check of the run: FAST_CHECK_SEED (or --seed) re-runs them with it'),
  network: NETWORK.optional().describe(
    'what the network cost the run (absent in reports of harness versions before it)',
  ),
  control: z
    .object({
      kind: z.enum(['interface', 'adapter', 'none']),
      adapter: z.string().optional().describe('CERTIFY_CONTROL_ADAPTER, as given'),
    })
    .optional()
    .describe(
      'how the run did the control operations: the HTTP control interface, an adapter module, or none (a token-only run)',
    ),
  selection: SELECTION.optional().describe('absent in reports of harness versions before it'),
  partial: z
    .boolean()
    .optional()
    .describe(
      'true when the run did not select every check of its tier (--checks, --rerun-failed): coverage then counts the rest as not run; absent in reports of harness versions before it',
    ),
  provenance: PROVENANCE.optional().describe('absent in reports of harness versions before it'),
  expected_failures: EXPECTED_FAILURES_OF_RUN.optional(),
});

export type Verdict = z.infer<typeof VERDICT>;
export type CheckResult = z.infer<typeof CHECK_RESULT>;
export type RunReport = z.infer<typeof RUN_REPORT>;
export type Leftover = z.infer<typeof LEFTOVER>;
export type Coverage = z.infer<typeof COVERAGE>;

// The catalog's Level and the report's level must stay one set of words.
const levelsAgree: [Level, z.infer<typeof LEVEL>] extends [z.infer<typeof LEVEL>, Level] ? true : never = true;
void levelsAgree;

/** report.json's JSON Schema (draft 2020-12), as published in docs/schemas/report.schema.json. */
export function reportJsonSchema(): Record<string, unknown> {
  return {
    $id: 'https://svc-conformance.example.test/schemas/report.schema.json',
    title: 'report.json of a certification run',
    ...z.toJSONSchema(RUN_REPORT, { io: 'output' }),
  };
}

export function summarize(checks: readonly CheckResult[]): Record<Verdict, number> {
  const summary: Record<Verdict, number> = { pass: 0, fail: 0, warn: 0, skip: 0, error: 0 };
  for (const check of checks) summary[check.verdict] += 1;
  return summary;
}

/** How a test outcome becomes a verdict: a `should` that fails warns, an `observe` records, no answer is no verdict. */
export function verdictOf(level: Level, state: 'passed' | 'failed' | 'skipped' | 'errored'): Verdict {
  if (state === 'skipped') return 'skip';
  if (state === 'errored') return 'error';
  if (state === 'passed') return 'pass';
  return level === 'must' ? 'fail' : 'warn';
}

/** A `must` check failed, other than as the run's expected-failures file expects. */
export function mustFailed(report: RunReport): boolean {
  return report.checks.some((check) => check.level === 'must' && check.verdict === 'fail' && !excusedFailure(check));
}

/** A `must` check reached no verdict: the network kept its answers away. */
export function mustErred(report: RunReport): boolean {
  return report.checks.some((check) => check.level === 'must' && check.verdict === 'error');
}

export type RunVerdict = 'INTERRUPTED' | 'FAILED' | 'ERROR' | 'CLEAN-UP-INCOMPLETE' | 'PASSED';

/**
 * The run's verdict, as every writer and the console state it, in the order of the exit
 * codes' precedence (130, 1, 2, 3, 0): a must failed, or fewer must checks ran than
 * CERTIFY_MIN_COVERAGE demands, or (--strict) an expected failure passes, fails it; a must without a verdict (error) leaves the run
 * without one; leftovers make it incomplete.
 */
export function runVerdict(report: RunReport): RunVerdict {
  if (report.interrupted) return 'INTERRUPTED';
  if (mustFailed(report) || report.coverage?.met === false || strictlyFixed(report).length > 0) return 'FAILED';
  if (mustErred(report)) return 'ERROR';
  return (report.leftovers?.length ?? 0) > 0 ? 'CLEAN-UP-INCOMPLETE' : 'PASSED';
}
