/** The load command's parsed command line (src/cli/commands/load.ts) as LoadArgs, and its LOAD_ settings. */
import { UsageError, type ParsedArgs } from '../cli/command.js';
import { SettingsError } from '../config/settings.js';

export interface LoadArgs {
  scenarios: string[];
  smoke: boolean;
  baseline?: string;
  tolerance: number;
  reportDir?: string;
  allowProduction: boolean;
  build: boolean;
}

/** The command line as LoadArgs; scenario names checked against `known`. */
export function toLoadArgs({ values, positionals }: ParsedArgs, known: readonly string[]): LoadArgs {
  const args: LoadArgs = {
    scenarios: [],
    smoke: values.smoke === true,
    tolerance: 0.1,
    allowProduction: values['allow-production'] === true,
    build: values['no-build'] !== true,
    ...(typeof values.baseline === 'string' ? { baseline: values.baseline } : {}),
    ...(typeof values['report-dir'] === 'string' ? { reportDir: values['report-dir'] } : {}),
  };
  if (typeof values.tolerance === 'string') {
    const pct = Number(values.tolerance);
    if (values.tolerance.trim() === '' || !Number.isFinite(pct) || pct < 0) throw new UsageError('--tolerance takes a percentage, e.g. 10');
    args.tolerance = pct / 100;
  }
  for (const name of positionals) {
    if (name === 'all') args.scenarios.push(...known);
    else if (known.includes(name)) args.scenarios.push(name);
    else throw new UsageError(`unknown scenario ${name} (known: ${known.join(', ')})`);
  }
  if (args.scenarios.length === 0) args.scenarios = [...known];
  args.scenarios = [...new Set(args.scenarios)];
  return args;
}

/** LOAD_ settings a user may give (environment or .env); others are refused, like SVC_ typos. */
export const LOAD_SETTINGS = [
  'LOAD_RATE', 'LOAD_DURATION', 'LOAD_MAX_VUS', 'LOAD_P95_MS', 'LOAD_P99_MS', 'LOAD_MAX_ERROR_RATE',
  'LOAD_ABORT_ON_FAIL', 'LOAD_DRAIN_S', 'LOAD_ENDPOINTS', 'LOAD_K6_BINARY', 'LOAD_REPORT_DIR',
  'LOAD_ALLOW_PRODUCTION', 'LOAD_TOKEN', 'LOAD_AGENT_ID', 'LOAD_INSTANCES',
] as const;
/** Set by the load command for k6 only. */
const LOAD_INTERNAL = ['LOAD_OLD_TOKEN', 'LOAD_OLD_TOKEN_ID', 'LOAD_NEW_TOKEN', 'LOAD_WORKSPACE_ID', 'LOAD_MONITOR_URL', 'LOAD_SUMMARY_PATH', 'LOAD_RUN_ID', 'LOAD_ENVIRONMENT'];

/** Reads LOAD_ settings (environment over .env) and refuses unknown LOAD_ names. */
export function loadSettingsOf(sources: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(sources)) {
    if (!name.startsWith('LOAD_') || value === '') continue;
    if (!(LOAD_SETTINGS as readonly string[]).includes(name)) {
      if (LOAD_INTERNAL.includes(name)) throw new SettingsError(`${name} is set by npm run load itself; remove it`);
      throw new SettingsError(`unknown setting ${name} (known: ${LOAD_SETTINGS.join(', ')})`);
    }
    out[name] = value;
  }
  return out;
}
