/**
 * The results store: better-sqlite3 in WAL mode at .opgate/opgate.db by default. Results are written as they
 * arrive (batched in transactions), so a process that dies mid-run keeps everything reported so far.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.ts';

export const DEFAULT_DB = '.opgate/opgate.db';

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

export class ResultsStore {
  readonly db: Database.Database;

  constructor(path: string = DEFAULT_DB) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('foreign_keys = ON');
    this.migrate();
  }

  get schemaVersion(): number {
    return this.db.pragma('user_version', { simple: true }) as number;
  }

  private migrate(): void {
    const from = this.schemaVersion;
    if (from > SCHEMA_VERSION) {
      throw new Error(
        `database schema version ${from} is newer than this opgate (${SCHEMA_VERSION}); upgrade opgate`,
      );
    }
    for (let v = from; v < SCHEMA_VERSION; v++) {
      this.db.transaction(() => {
        this.db.exec(MIGRATIONS[v]);
        this.db.pragma(`user_version = ${v + 1}`);
      })();
    }
  }

  startRun(info: RunInfo): number {
    const r = this.db
      .prepare(
        'INSERT INTO runs (commit_sha, branch, platform, shard, tier, filters, started_at, kind) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        info.commitSha,
        info.branch,
        info.platform,
        info.shard ?? '1/1',
        info.tier,
        info.filters ?? '{}',
        new Date().toISOString(),
        info.kind ?? 'normal',
      );
    return Number(r.lastInsertRowid);
  }

  endRun(runId: number, status: 'passed' | 'failed' | 'interrupted'): void {
    this.db
      .prepare('UPDATE runs SET ended_at = ?, status = ? WHERE run_id = ?')
      .run(new Date().toISOString(), status, runId);
  }

  addResults(runId: number, rows: readonly ResultRow[]): void {
    const insert = this.db.prepare(
      `INSERT OR REPLACE INTO results (run_id, id, op, oracle, device, dtype, layout, mode, status, duration_ms, attempts, message, sample, seed, checks, rerun_passes, rerun_failures)
       VALUES (@runId, @id, @op, @oracle, @device, @dtype, @layout, @mode, @status, @durationMs, @attempts, @message, @sample, @seed, @checks, @rerunPasses, @rerunFailures)`,
    );
    this.db.transaction(() => {
      for (const r of rows) insert.run({ rerunPasses: null, rerunFailures: null, ...r, runId });
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
