/**
 * The vitest reporter behind `opgate run`: maps each matrix test case to one results row (channel.ts's
 * resultRow: status with xfail/xpass from the test's `fails` flag, one row however many attempts), commits
 * rows to SQLite as they arrive, and draws a progress bar on a terminal (stderr, so `--json` stdout stays clean).
 *
 * Durability: a row is committed within FLUSH_MS of being reported (a timer, not a batch size: a run killed
 * with SIGKILL loses at most its last half second), and the run's heartbeat is written at least every
 * HEARTBEAT_MS so readers on other hosts can tell a live run from a dead one.
 *
 * Write failures stop the run: a commit that fails with anything but a busy lock (a full disk, an I/O error, a
 * read-only or damaged file) is kept as `failure`, nothing more is accepted, and the engine is cancelled at once
 * (`onFailure`); run.ts then reports the coded error and how to resume. A lock held by another writer is waited
 * out for BUSY_GIVE_UP_MS, the rows kept pending meanwhile.
 */
import type { Reporter, TestCase, Vitest } from 'vitest/node';
import { boundary } from '../store/faults.ts';
import { HEARTBEAT_MS } from '../store/liveness.ts';
import type { ResultRow, ResultsStore } from '../store/store.ts';
import { resultRow } from './channel.ts';

export const FLUSH_MS = 500;

/** How long commits may keep failing on another writer's lock before the run stops with E_DB_BUSY. */
export const BUSY_GIVE_UP_MS = 60_000;

/**
 * `OPGATE_LOG_RESULTS=1`: one line per reported instance on stderr, `opgate-result <epoch ms> <status> <id>`,
 * written before the row is committed: a CI log of what ran, and the record a kill test compares the store with.
 */
export const ENV_LOG_RESULTS = 'OPGATE_LOG_RESULTS';

export interface ReporterOptions {
  readonly progress: boolean;
  /** Results the run already has (a resumed run's). */
  readonly done?: readonly ResultRow[];
  /** Commit at most this long after a report (default FLUSH_MS; 0: at every report). */
  readonly flushMs?: number;
}

export class OpgateReporter implements Reporter {
  /** Every row of the run: those a resumed run already had, then those reported here. */
  readonly rows: ResultRow[];
  /** The first write failure; once set, nothing more is accepted. */
  failure: Error | null = null;
  /** Called once, on the first write failure: the engine stops running instances. */
  onFailure: (() => void) | null = null;
  /** Resolves on the first write failure: the run stops waiting for its engine (whose teardown takes seconds). */
  readonly failed: Promise<void>;
  private signalFailed: () => void = () => {};
  /** Rows committed (including a resumed run's). */
  stored: number;
  private pending: ResultRow[] = [];
  private lastDraw = 0;
  private lastWrite = Date.now();
  private busySince: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly log = process.env[ENV_LOG_RESULTS] === '1';
  private readonly flushMs: number;
  private readonly progress: boolean;

  constructor(
    private readonly store: ResultsStore,
    private readonly runId: number,
    private readonly expectedTotal: number,
    o: ReporterOptions,
  ) {
    this.failed = new Promise((resolve) => {
      this.signalFailed = resolve;
    });
    this.rows = [...(o.done ?? [])];
    this.stored = this.rows.length;
    this.flushMs = o.flushMs ?? FLUSH_MS;
    this.progress = o.progress;
  }

  onInit(vitest: Vitest): void {
    // 'test-failure' is bail's reason: vitest skips what has not started; closing ends its workers now (the
    // cancelled run's teardown would take seconds, and nothing a worker still reports could be stored).
    this.onFailure = () => {
      void vitest.cancelCurrentRun('test-failure');
      void vitest.close();
    };
  }

  /** Starts the flush and heartbeat timer (unref'd: it never keeps the process alive). */
  start(): void {
    this.timer ??= setInterval(() => {
      if (this.pending.length > 0) this.tryFlush();
      else if (Date.now() - this.lastWrite >= HEARTBEAT_MS)
        this.attempt(() => this.store.heartbeat(this.runId));
    }, Math.max(this.flushMs, 20) / 2);
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
    if (row) this.report(row);
  }

  /** One instance's row, committed within the flush period; ignored once the store has failed. */
  report(row: ResultRow): void {
    if (this.failure) return;
    this.rows.push(row);
    this.pending.push(row);
    if (this.log) process.stderr.write(`opgate-result ${Date.now()} ${row.status} ${row.id}\n`);
    boundary('result-reported');
    // The timer flushes too; this covers an event loop too busy with results to run it on time.
    if (Date.now() - this.lastWrite >= this.flushMs) this.tryFlush();
    this.draw(false);
  }

  /** Rows the run adds itself (instances that never reported); committed with the next flush. */
  record(rows: readonly ResultRow[]): void {
    this.rows.push(...rows);
    this.pending.push(...rows);
  }

  onTestRunEnd(): void {
    this.tryFlush();
    this.draw(true);
  }

  /** Commits what is pending; throws the store's coded error. */
  flush(): void {
    if (this.pending.length === 0) return;
    this.store.addResults(this.runId, this.pending);
    this.stored += this.pending.length;
    this.pending = [];
    this.lastWrite = Date.now();
  }

  private tryFlush(): void {
    this.attempt(() => this.flush());
  }

  /** A write from a timer or a vitest hook: never throws (that would kill the run without a word). */
  private attempt(write: () => void): void {
    if (this.failure) return;
    try {
      write();
      this.busySince = null;
      this.lastWrite = Date.now();
    } catch (e) {
      const busy = (e as { code?: string }).code === 'E_DB_BUSY';
      this.busySince ??= Date.now();
      if (busy && Date.now() - this.busySince < BUSY_GIVE_UP_MS) return;
      this.failure = e as Error;
      this.stop();
      this.onFailure?.();
      this.signalFailed();
    }
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
