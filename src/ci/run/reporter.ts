/**
 * The vitest reporter behind `opgate run`: maps each matrix test case to a results row (status with xfail/xpass
 * from the test's `fails` flag), writes rows to SQLite in batches as they arrive, and draws a progress bar on a
 * terminal (stderr, so `--json` stdout stays clean).
 */
import type { Reporter, TestCase } from 'vitest/node';
import type { ResultRow, ResultStatus, ResultsStore } from '../store/store.ts';

export class OpgateReporter implements Reporter {
  readonly rows: ResultRow[] = [];
  private pending: ResultRow[] = [];
  private lastDraw = 0;

  constructor(
    private readonly store: ResultsStore,
    private readonly runId: number,
    private readonly expectedTotal: number,
    private readonly progress: boolean,
  ) {}

  onTestCaseResult(tc: TestCase): void {
    const meta = tc.meta().opgate;
    if (!meta) return;
    const result = tc.result();
    const fails = tc.options.fails === true;
    let status: ResultStatus;
    const retried = (tc.diagnostic()?.retryCount ?? 0) > 0;
    if (result.state === 'skipped') status = 'skip';
    // Failed, then passed on a retry: flaky (the failing attempt's message is kept).
    else if (result.state === 'passed')
      status = fails ? 'xfail' : retried || result.errors?.length ? 'flaky' : 'pass';
    else if (result.state === 'failed') status = fails ? 'xpass' : 'fail';
    else return;
    const errors = result.state === 'failed' || status === 'flaky' ? (result.errors ?? []) : [];
    const message =
      status === 'xpass'
        ? 'unexpected success: an xfail rule matched but the instance passed'
        : errors.length
          ? errors.map((e) => e.message).join('\n')
          : status === 'skip' || status === 'xfail'
            ? ((result as { note?: string }).note ?? meta.reason ?? null)
            : null;
    const row: ResultRow = {
      id: tc.name,
      op: meta.op,
      oracle: meta.oracle,
      device: meta.device,
      dtype: meta.dtype,
      layout: meta.layout,
      mode: meta.mode,
      status,
      durationMs: tc.diagnostic()?.duration ?? 0,
      attempts: 1 + (tc.diagnostic()?.retryCount ?? 0),
      message,
      sample: meta.sample ?? null,
      seed: meta.seed,
      checks: meta.checks,
      rerunPasses: meta.rerunPasses ?? null,
      rerunFailures: meta.rerunFailures ?? null,
    };
    this.rows.push(row);
    this.pending.push(row);
    if (this.pending.length >= 500) this.flush();
    this.draw(false);
  }

  onTestRunEnd(): void {
    this.flush();
    this.draw(true);
  }

  flush(): void {
    if (this.pending.length === 0) return;
    this.store.addResults(this.runId, this.pending);
    this.pending = [];
  }

  private draw(final: boolean): void {
    if (!this.progress) return;
    const now = Date.now();
    if (!final && now - this.lastDraw < 100) return;
    this.lastDraw = now;
    const done = this.rows.length;
    const total = Math.max(this.expectedTotal, done);
    const width = 30;
    const filled = Math.round((done / Math.max(total, 1)) * width);
    const failed = this.rows.filter((r) => r.status === 'fail' || r.status === 'xpass').length;
    process.stderr.write(
      `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} instances, ${failed} failed${final ? '\n' : ''}`,
    );
  }
}
