/**
 * A vitest reporter that collects each check's outcome for the reports and prints live
 * progress: which suite, which check, its verdict and the elapsed time.
 */
import type { Reporter, TestCase, TestModule, TestSuite } from 'vitest/node';
import { getCheck } from '../catalog/checks.js';
import { checkResult } from '../check/result.js';
import type { CheckResult } from '../report/model.js';
import { mask } from '../secrets/mask.js';
import type { CheckMeta } from '../check/record.js';
import '../suite/outcome.js';
import type { ProgressLine } from './progress.js';
import { addTally, emptyTally, type NetworkTally } from '../http/tally.js';

const MARK = { pass: 'ok  ', fail: 'FAIL', warn: 'warn', skip: 'skip', error: 'ERR ' } as const;

export class CheckCollector implements Reporter {
  readonly results = new Map<string, CheckResult>();
  readonly suiteErrors: string[] = [];
  /** What the network cost the run: the checks' tallies added up. */
  readonly network: NetworkTally = emptyTally();
  private readonly started = performance.now();

  private stopping = false;

  constructor(
    private readonly print: (line: string) => void,
    /** The status line on a terminal, drawn between the lines printed. */
    private readonly progress?: ProgressLine,
  ) {}

  onTestCaseReady(testCase: TestCase): void {
    this.progress?.started(testCase.name.split(' ')[0] ?? testCase.name);
  }

  /**
   * The run is stopping (deadline, signal, crash). vitest 4 then marks every check still
   * running or queued as skipped ("The test run was aborted") and reports it so; such a
   * check is not recorded, so the run's own reason (unfinished at the deadline, interrupted)
   * stands for it rather than a plain skip.
   */
  stop(): void {
    this.stopping = true;
    this.progress?.stop();
  }

  // The suites run side by side, so their checks' lines interleave; each line names its check.
  onTestSuiteReady(suite: TestSuite): void {
    const line = `▸ ${suite.name}  (starts ${this.elapsed()} into the run)`;
    if (this.progress) this.progress.around(() => this.print(line));
    else this.print(line);
  }

  onTestModuleEnd(module: TestModule): void {
    for (const error of module.errors()) this.suiteErrors.push(mask(`${module.moduleId}: ${error.message}`));
  }

  onTestCaseResult(testCase: TestCase): void {
    const meta = testCase.meta() as { check?: CheckMeta };
    const checkId = meta.check?.checkId ?? testCase.name.split(' ')[0] ?? testCase.name;
    const spec = getCheck(checkId);
    const result = testCase.result();
    if (meta.check?.network) addTally(this.network, meta.check.network);
    const state = meta.check?.errorReason
      ? 'errored'
      : result.state === 'passed' || result.state === 'failed'
        ? result.state
        : 'skipped';
    if (this.stopping && state === 'skipped' && !meta.check?.skipReason) return;
    const failure =
      result.state === 'failed'
        ? (result.errors?.[0]?.message ?? 'failed without a message').split('\n')[0]
        : undefined;
    const entry = checkResult(spec, {
      state,
      ...(failure ? { failure } : {}),
      ...(meta.check ? { meta: meta.check } : {}),
      durationMs: testCase.diagnostic()?.duration ?? 0,
    });
    const verdict = entry.verdict;
    this.results.set(spec.id, entry);
    const reason = verdict === 'pass' ? '' : `  ${entry.detail ?? ''}`;
    const line = `  ${MARK[verdict]} ${spec.id.padEnd(28)} ${String(entry.duration_ms).padStart(6)} ms${reason.slice(0, 160)}`;
    this.progress?.finished(spec.id);
    if (this.progress) this.progress.around(() => this.print(line));
    else this.print(line);
  }

  private elapsed(): string {
    return `${((performance.now() - this.started) / 1000).toFixed(1)} s`;
  }
}
