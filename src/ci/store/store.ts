/**
 * The results store: better-sqlite3 in WAL mode at .opgate/opgate.db by default. The reporter commits results
 * as they arrive (at least every half second), so a process that dies mid-run keeps all but its last moment;
 * a run records its pid, host and heartbeat so readers can tell it from one that is still going (liveness.ts).
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { DEFAULT_DB, prepareDbPath, schemaNewerError } from './file.ts';
import { effectiveStatus, type RunStatus, THIS_HOST } from './liveness.ts';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.ts';

export { DEFAULT_DB };

export type ResultStatus = 'pass' | 'fail' | 'skip' | 'xfail' | 'xpass' | 'flaky' | 'error';

export interface RunInfo {
  readonly commitSha: string;
  readonly branch: string;
  readonly platform: string;
  readonly shard?: string;
  readonly tier: string;
  readonly filters?: string;
  /** 'normal' or 'rerun-disabled'. */
  readonly kind?: string;
}

export interface ResultRow {
  readonly id: string;
  readonly op: string;
  readonly oracle: string;
  readonly device: string;
  readonly dtype: string;
  readonly layout: string;
  readonly mode: string;
  readonly status: ResultStatus;
  readonly durationMs: number;
  readonly attempts: number;
  readonly message: string | null;
  readonly sample: number | null;
  readonly seed: number | null;
  readonly checks: number;
  /** rerun-disabled runs: how many of the reruns passed / failed. */
  readonly rerunPasses?: number | null;
  readonly rerunFailures?: number | null;
}

/** A runs row; `status` as readers see it. */
export interface StoredRun {
  readonly runId: number;
  readonly commitSha: string;
  readonly branch: string;
  readonly platform: string;
  readonly shard: string;
  readonly tier: string;
  readonly filters: string;
  readonly kind: string;
  readonly status: RunStatus;
  readonly startedAt: string;
  readonly endedAt: string | null;
  readonly pid: number | null;
  readonly host: string | null;
  readonly heartbeatAt: string | null;
}

export class ResultsStore {
  readonly db: Database.Database;

  constructor(path: string = DEFAULT_DB) {
    // Refuse a foreign or newer file before opening it for writing, which would switch it to WAL.
    if (path !== ':memory:') prepareDbPath(path);
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('foreign_keys = ON');
    this.migrate(path);
  }

  get schemaVersion(): number {
    return this.db.pragma('user_version', { simple: true }) as number;
  }

  private migrate(path: string): void {
    const from = this.schemaVersion;
    if (from > SCHEMA_VERSION) throw schemaNewerError(path, from);
    for (let v = from; v < SCHEMA_VERSION; v++) {
      this.db.transaction(() => {
        this.db.exec(MIGRATIONS[v]);
        this.db.pragma(`user_version = ${v + 1}`);
      })();
    }
  }

  /**
   * Starts a run written by this process. `planned`: the instance ids it sets out to run, kept until it ends
   * passed or failed so that `opgate run --resume` can run exactly the rest.
   */
  startRun(info: RunInfo, planned?: readonly string[]): number {
    const now = new Date().toISOString();
    return this.db.transaction(() => {
      const r = this.db
        .prepare(
          `INSERT INTO runs (commit_sha, branch, platform, shard, tier, filters, started_at, kind, pid, host, heartbeat_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          info.commitSha,
          info.branch,
          info.platform,
          info.shard ?? '1/1',
          info.tier,
          info.filters ?? '{}',
          now,
          info.kind ?? 'normal',
          process.pid,
          THIS_HOST,
          now,
        );
      const runId = Number(r.lastInsertRowid);
      if (planned)
        this.db
          .prepare('INSERT INTO run_plans (run_id, ids) VALUES (?, ?)')
          .run(runId, gzipSync(planned.join('\n')));
      return runId;
    })();
  }

  /** Takes over an aborted or interrupted run: this process writes it again, and it is running until it ends. */
  resumeRun(runId: number): void {
    this.db
      .prepare(
        `UPDATE runs SET status = 'running', ended_at = NULL, pid = ?, host = ?, heartbeat_at = ? WHERE run_id = ?`,
      )
      .run(process.pid, THIS_HOST, new Date().toISOString(), runId);
  }

  /** The writer is alive: readers keep showing the run as running. */
  heartbeat(runId: number): void {
    this.db.prepare('UPDATE runs SET heartbeat_at = ? WHERE run_id = ?').run(new Date().toISOString(), runId);
  }

  endRun(runId: number, status: 'passed' | 'failed' | 'interrupted'): void {
    const now = new Date().toISOString();
    this.db.transaction(() => {
      this.db
        .prepare('UPDATE runs SET ended_at = ?, heartbeat_at = ?, status = ? WHERE run_id = ?')
        .run(now, now, status, runId);
      // A complete run has nothing left to resume.
      if (status !== 'interrupted') this.db.prepare('DELETE FROM run_plans WHERE run_id = ?').run(runId);
    })();
  }

  /**
   * Writes 'aborted' into every run still marked running whose process is gone (see `effectiveStatus`), ending
   * it at its last heartbeat. Returns how many it ended.
   */
  reapAborted(now: number = Date.now()): number {
    const open = this.db
      .prepare(
        `SELECT run_id AS runId, status, host, pid, heartbeat_at AS heartbeatAt, started_at AS startedAt
         FROM runs WHERE status = 'running'`,
      )
      .all() as (Parameters<typeof effectiveStatus>[0] & { runId: number })[];
    const end = this.db.prepare(
      `UPDATE runs SET status = 'aborted', ended_at = COALESCE(heartbeat_at, started_at)
       WHERE run_id = ? AND status = 'running'`,
    );
    let n = 0;
    for (const r of open) if (effectiveStatus(r, now) === 'aborted') n += end.run(r.runId).changes;
    return n;
  }

  /** A run's row, its status as readers see it (a run whose process died reads 'aborted'). */
  run(runId: number): StoredRun | null {
    const r = this.db
      .prepare(
        `SELECT run_id AS runId, commit_sha AS commitSha, branch, platform, shard, tier, filters, kind, status,
           started_at AS startedAt, ended_at AS endedAt, pid, host, heartbeat_at AS heartbeatAt
         FROM runs WHERE run_id = ?`,
      )
      .get(runId) as StoredRun | undefined;
    return r ? { ...r, status: effectiveStatus(r) } : null;
  }

  /** Aborted or interrupted runs that still have their plan, newest first (call `reapAborted` first). */
  resumableRuns(): StoredRun[] {
    const ids = this.db
      .prepare(
        `SELECT u.run_id FROM runs u JOIN run_plans p ON p.run_id = u.run_id
         WHERE u.status IN ('aborted', 'interrupted') ORDER BY u.run_id DESC`,
      )
      .pluck()
      .all() as number[];
    return ids.map((id) => this.run(id)!);
  }

  /** The ids a run set out to run, or null when it kept no plan (it ended, or it predates plans). */
  plannedIds(runId: number): string[] | null {
    const blob = this.db.prepare('SELECT ids FROM run_plans WHERE run_id = ?').pluck().get(runId) as
      | Buffer
      | undefined;
    return blob ? gunzipSync(blob).toString('utf8').split('\n').filter(Boolean) : null;
  }

  addResults(runId: number, rows: readonly ResultRow[]): void {
    const insert = this.db.prepare(
      `INSERT OR REPLACE INTO results (run_id, id, op, oracle, device, dtype, layout, mode, status, duration_ms, attempts, message, sample, seed, checks, rerun_passes, rerun_failures)
       VALUES (@runId, @id, @op, @oracle, @device, @dtype, @layout, @mode, @status, @durationMs, @attempts, @message, @sample, @seed, @checks, @rerunPasses, @rerunFailures)`,
    );
    // One transaction per batch, with the heartbeat: committed rows survive a kill of this process.
    this.db.transaction(() => {
      for (const r of rows) insert.run({ rerunPasses: null, rerunFailures: null, ...r, runId });
      this.heartbeat(runId);
    })();
  }

  results(runId: number): ResultRow[] {
    return this.db
      .prepare(
        `SELECT id, op, oracle, device, dtype, layout, mode, status, duration_ms AS durationMs, attempts, message, sample, seed, checks
         FROM results WHERE run_id = ? ORDER BY id`,
      )
      .all(runId) as ResultRow[];
  }

  lastRunId(): number | null {
    const r = this.db.prepare('SELECT MAX(run_id) AS id FROM runs').get() as { id: number | null };
    return r.id;
  }

  close(): void {
    this.db.close();
  }
}
