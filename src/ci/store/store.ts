/**
 * The results store: better-sqlite3 in WAL mode at .opgate/opgate.db by default. The reporter commits results
 * as they arrive (at least every half second), so a process that dies mid-run keeps all but its last moment;
 * a run records its pid, host and heartbeat so readers can tell it from one that is still going (liveness.ts).
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { type ResultsSource, SQL, type Sql } from './connection.ts';
import { dbError } from './db_errors.ts';
import { writePoint } from './faults.ts';
import { DEFAULT_DB } from './file.ts';
import { effectiveStatus, type RunStatus, THIS_HOST } from './liveness.ts';
import { openWriter } from './open.ts';
import { foldRun, rebuildRecent, unfoldRun } from './recent.ts';
import { rowWriter } from './result_rows.ts';
import {
  allRuns,
  lastRunIdOf,
  latestResultOf,
  type ResultRow,
  resultsOf,
  runById,
  type StoredRun,
} from './runs.ts';

export type { ResultRow, ResultStatus, StoredRun } from './runs.ts';
export { DEFAULT_DB };

export interface RunInfo {
  readonly commitSha: string;
  readonly branch: string;
  readonly platform: string;
  readonly shard?: string;
  readonly tier: string;
  readonly filters?: string;
  /** 'normal' or 'rerun-disabled'. */
  readonly kind?: string;
  /** The shard set a sharded run belongs to (see shard_sets.ts). */
  readonly shardSet?: string | null;
}

/** What `patchRun` may rewrite: a run's times, status and writer. */
export interface RunPatch {
  readonly startedAt?: string;
  readonly endedAt?: string | null;
  readonly status?: RunStatus;
  readonly pid?: number | null;
  readonly host?: string | null;
  readonly heartbeatAt?: string | null;
}

const PATCH_COLUMNS: Record<keyof RunPatch, string> = {
  startedAt: 'started_at',
  endedAt: 'ended_at',
  status: 'status',
  pid: 'pid',
  host: 'host',
  heartbeatAt: 'heartbeat_at',
};

export class ResultsStore implements ResultsSource {
  readonly [SQL]: Sql;

  /**
   * Opens (or creates) `path` for writing: checked first (a foreign, newer or damaged file is refused untouched),
   * then migrated. Every failure is a coded error (open.ts).
   */
  constructor(readonly path: string = DEFAULT_DB) {
    this[SQL] = openWriter(path);
  }

  private get sql(): Sql {
    return this[SQL];
  }

  /**
   * One write of the store: an IMMEDIATE transaction (the write lock is taken at BEGIN, waiting out another
   * writer, so what it reads stays true until it commits; a failure leaves nothing half-written) that passes its
   * fault point first, its SQLite failure turned into a coded error naming the file.
   */
  write<T>(label: string, fn: () => T): T {
    try {
      return this.sql
        .transaction(() => {
          writePoint(label);
          return fn();
        })
        .immediate();
    } catch (e) {
      throw dbError(e, this.path, `writing (${label})`);
    }
  }

  /** 'wal' once open (readers never block the writer). */
  get journalMode(): string {
    return this.sql.pragma('journal_mode', { simple: true }) as string;
  }

  /** SQLite's auto_vacuum mode: 2 (incremental) for every file opgate created or retention switched over. */
  get autoVacuum(): number {
    return this.sql.pragma('auto_vacuum', { simple: true }) as number;
  }

  get schemaVersion(): number {
    return this.sql.pragma('user_version', { simple: true }) as number;
  }

  /**
   * Starts a run written by this process. `planned`: the instance ids it sets out to run, kept until it ends
   * passed or failed so that `opgate run --resume` can run exactly the rest.
   */
  startRun(info: RunInfo, planned?: readonly string[]): number {
    const now = new Date().toISOString();
    const runId = this.write('start run', () => {
      const r = this.sql
        .prepare(
          `INSERT INTO runs (commit_sha, branch, platform, shard, tier, filters, started_at, kind, pid, host, heartbeat_at, shard_set)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
          info.shardSet ?? null,
        );
      const id = Number(r.lastInsertRowid);
      if (planned)
        this.sql
          .prepare('INSERT INTO run_plans (run_id, ids) VALUES (?, ?)')
          .run(id, gzipSync(planned.join('\n')));
      return id;
    });
    try {
      this.checkpoint();
    } catch {
      // Best effort: the start is committed (in the -wal); a disk too full to checkpoint fails the run's next
      // write, which stops it with what it stored and how to resume.
    }
    return runId;
  }

  /**
   * Copies the -wal into the main file where no reader holds it back (PASSIVE), so what was committed so far
   * (a run's row and plan) survives the loss of the -wal. One held back by a reader finishes later (not an error).
   */
  checkpoint(): void {
    try {
      this.sql.pragma('wal_checkpoint(PASSIVE)');
    } catch (e) {
      throw dbError(e, this.path, 'checkpointing');
    }
  }

  /** Takes over an aborted or interrupted run: this process writes it again, and it is running until it ends. */
  resumeRun(runId: number): void {
    this.write('resume run', () => {
      this.sql
        .prepare(
          `UPDATE runs SET status = 'running', ended_at = NULL, pid = ?, host = ?, heartbeat_at = ? WHERE run_id = ?`,
        )
        .run(process.pid, THIS_HOST, new Date().toISOString(), runId);
      unfoldRun(this.sql, runId);
    });
  }

  /** The writer is alive: readers keep showing the run as running. */
  heartbeat(runId: number): void {
    this.write('heartbeat', () => this.beat(runId));
  }

  private beat(runId: number): void {
    this.sql
      .prepare('UPDATE runs SET heartbeat_at = ? WHERE run_id = ?')
      .run(new Date().toISOString(), runId);
  }

  endRun(runId: number, status: 'passed' | 'failed' | 'interrupted'): void {
    const now = new Date().toISOString();
    this.write(`end run ${status}`, () => {
      this.sql
        .prepare('UPDATE runs SET ended_at = ?, heartbeat_at = ?, status = ? WHERE run_id = ?')
        .run(now, now, status, runId);
      // A complete run has nothing left to resume.
      if (status !== 'interrupted') this.sql.prepare('DELETE FROM run_plans WHERE run_id = ?').run(runId);
      // A finished run is history: its outcomes (and, complete, its durations) join each instance's recent ones.
      foldRun(this.sql, runId);
    });
  }

  /**
   * Writes 'aborted' into every run still marked running whose process is gone (see `effectiveStatus`), ending
   * it at its last heartbeat. Returns how many it ended.
   */
  reapAborted(now: number = Date.now()): number {
    const open = this.sql
      .prepare(
        `SELECT run_id AS runId, status, host, pid, heartbeat_at AS heartbeatAt, started_at AS startedAt
         FROM runs WHERE status = 'running'`,
      )
      .all() as (Parameters<typeof effectiveStatus>[0] & { runId: number })[];
    const end = this.sql.prepare(
      `UPDATE runs SET status = 'aborted', ended_at = COALESCE(heartbeat_at, started_at)
       WHERE run_id = ? AND status = 'running'`,
    );
    const dead = open.filter((r) => effectiveStatus(r, now) === 'aborted');
    if (dead.length === 0) return 0;
    return this.write('reap aborted runs', () =>
      dead.reduce((n, r) => {
        const ended = end.run(r.runId).changes;
        foldRun(this.sql, r.runId);
        return n + ended;
      }, 0),
    );
  }

  /** A run's row, its status as readers see it (a run whose process died reads 'aborted'). */
  run(runId: number): StoredRun | null {
    return runById(this, runId);
  }

  /** Every run, oldest first, each status as readers see it. */
  runs(): StoredRun[] {
    return allRuns(this);
  }

  /** Aborted or interrupted runs that still have their plan, newest first (call `reapAborted` first). */
  resumableRuns(): StoredRun[] {
    const ids = this.sql
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
    const blob = this.sql.prepare('SELECT ids FROM run_plans WHERE run_id = ?').pluck().get(runId) as
      | Buffer
      | undefined;
    return blob ? gunzipSync(blob).toString('utf8').split('\n').filter(Boolean) : null;
  }

  addResults(runId: number, rows: readonly ResultRow[]): void {
    // One transaction per batch, with the heartbeat: committed rows survive a kill of this process.
    this.write('add results', () => {
      rowWriter(this.sql)(runId, rows);
      this.beat(runId);
    });
  }

  results(runId: number): ResultRow[] {
    return resultsOf(this, runId);
  }

  /** An instance's result in the newest run that has one, with its rerun counts. */
  latestResult(id: string): (ResultRow & { runId: number }) | null {
    return latestResultOf(this, id);
  }

  lastRunId(): number | null {
    return lastRunIdOf(this);
  }

  /**
   * Rewrites a run's times, status or writer, as an importer of runs recorded elsewhere does: the demo seed
   * spreads its runs over past hours, and tests make a run look killed (a dead pid), stale (an old heartbeat
   * from another host) or written by an older opgate (no writer at all).
   */
  patchRun(runId: number, patch: RunPatch): void {
    const keys = (Object.keys(patch) as (keyof RunPatch)[]).filter((k) => Object.hasOwn(PATCH_COLUMNS, k));
    if (keys.length === 0) return;
    this.write('patch run', () => {
      this.sql
        .prepare(`UPDATE runs SET ${keys.map((k) => `${PATCH_COLUMNS[k]} = ?`).join(', ')} WHERE run_id = ?`)
        .run(...keys.map((k) => patch[k] ?? null), runId);
      // A run imported with its end state (the demo seed) is history as a run ended here is.
      if (patch.status !== undefined) foldRun(this.sql, runId);
    });
  }

  /** Recomputes the derived tables (each instance's recent history) from the results: `opgate db rebuild`. */
  rebuildSummaries(): void {
    this.write('rebuild summaries', () => rebuildRecent(this.sql));
  }

  close(): void {
    this[SQL].close();
  }
}
