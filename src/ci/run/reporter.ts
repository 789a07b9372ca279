/**
 * The vitest reporter behind `opgate run`: maps each matrix test case to one results row (channel.ts's
 * resultRow: status with xfail/xpass from the test's `fails` flag, one row however many attempts), commits
 * rows to SQLite as they arrive, and draws a progress bar on a terminal (stderr, so `--json` stdout stays clean).
 *
 * Durability: a row is committed within FLUSH_MS of being reported (a timer, not a batch size: a run killed
 * with SIGKILL loses at most its last half second), and the run's heartbeat is written at least every
 * HEARTBEAT_MS so readers on other hosts can tell a live run from a dead one.
 */
import type { Reporter, TestCase } from 'vitest/node';
import { HEARTBEAT_MS } from '../store/liveness.ts';
import type { ResultRow, ResultsStore } from '../store/store.ts';
import { resultRow } from './channel.ts';

export const FLUSH_MS = 500;

/**
 * `OPGATE_LOG_RESULTS=1`: one line per reported instance on stderr, `opgate-result <epoch ms> <status> <id>`,
 * written before the row is committed: a CI log of what ran, and the record a kill test compares the store with.
 */
export const ENV_LOG_RESULTS = 'OPGATE_LOG_RESULTS';

export class OpgateReporter implements Reporter {
  /** Every row of the run: those a resumed run already had, then those reported here. */
  readonly rows: ResultRow[];
  private pending: ResultRow[] = [];
  private lastDraw = 0;
  private lastWrite = Date.now();
  private timer: NodeJS.Timeout | null = null;
  private readonly log = process.env[ENV_LOG_RESULTS] === '1';

  constructor(
    private readonly store: ResultsStore,
    private readonly runId: number,
    private readonly expectedTotal: number,
    private readonly progress: boolean,
    done: readonly ResultRow[] = [],
  ) {
    this.rows = [...done];
  }

  /** Starts the flush and heartbeat timer (unref'd: it never keeps the process alive). */
  start(): void {
    this.timer ??= setInterval(() => {
      try {
        if (this.pending.length > 0) this.flush();
        else if (Date.now() - this.lastWrite >= HEARTBEAT_MS) {
          this.store.heartbeat(this.runId);
          this.lastWrite = Date.now();
        }
      } catch (e) {
        // A locked database (another writer past the busy timeout): the rows stay pending for the next tick;
        // throwing from a timer would kill the run.
        process.stderr.write(`opgate: results not stored yet, will retry: ${(e as Error).message}\n`);
      }
    }, FLUSH_MS / 2);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  onTestCaseResult(tc: TestCase): void {
    const record = tc.meta().opgate;
    if (!record) return;
    const result = tc.result();
    const diagnostic = tc.diagnostic();
    const row = resultRow(tc.name, record, {
      state: result.state,
      fails: tc.options.fails === true,
      retryCount: diagnostic?.retryCount ?? 0,
      errors: result.errors ?? [],
      note: (result as { note?: string }).note,
      durationMs: diagnostic?.duration ?? 0,
    });
    if (!row) return;
    this.rows.push(row);
    this.pending.push(row);
    if (this.log) process.stderr.write(`opgate-result ${Date.now()} ${row.status} ${row.id}\n`);
    // The timer flushes too; this covers an event loop too busy with results to run it on time.
    if (Date.now() - this.lastWrite >= FLUSH_MS) this.flush();
    this.draw(false);
  }

  /** Rows the run adds itself (instances that never reported); committed with the next flush. */
  record(rows: readonly ResultRow[]): void {
    this.rows.push(...rows);
    this.pending.push(...rows);
  }

  onTestRunEnd(): void {
    this.flush();
    this.draw(true);
  }

  flush(): void {
    if (this.pending.length === 0) return;
    this.store.addResults(this.runId, this.pending);
    this.pending = [];
    this.lastWrite = Date.now();
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
