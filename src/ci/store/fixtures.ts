/**
 * SQLite files that opgate did not write, for the tests that check how the store and the dashboards treat
 * them (refused untouched, or read as they are), and the integrity check of a file a killed writer left. They
 * live in the store because every SQL statement does (tests/unit/sql_owner.test.ts).
 */
import { closeSync, fstatSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import Database from 'better-sqlite3';

export interface SqliteFileOptions {
  /** Its user_version (opgate's schema version). */
  readonly version: number;
  readonly journal?: 'wal' | 'delete';
  /**
   * 'opgate': empty `runs` and `results` tables, as a database of some opgate version has; 'foreign': a table
   * of another application's; 'none': no tables.
   */
  readonly tables?: 'opgate' | 'foreign' | 'none';
}

const TABLES = {
  opgate: 'CREATE TABLE runs (run_id INTEGER PRIMARY KEY); CREATE TABLE results (run_id INTEGER, id TEXT)',
  foreign: 'CREATE TABLE notes (body TEXT)',
  none: '',
} as const;

/** Writes a closed SQLite file at `path` and returns `path`. */
export function writeSqliteFile(path: string, o: SqliteFileOptions): string {
  const d = new Database(path);
  try {
    d.pragma(`journal_mode = ${o.journal ?? 'delete'}`);
    const tables = TABLES[o.tables ?? 'opgate'];
    if (tables) d.exec(tables);
    d.pragma(`user_version = ${Math.trunc(o.version)}`);
  } finally {
    d.close();
  }
  return path;
}

/** SQLite's integrity check of an existing file: 'ok', or what is wrong. */
export function integrityCheck(path: string): string {
  const d = new Database(path, { fileMustExist: true });
  try {
    return String(d.pragma('integrity_check', { simple: true }));
  } finally {
    d.close();
  }
}

/** Deletes one result of a run (a shard that lost an instance), for the tests of `opgate verify`. */
export function dropResult(path: string, runId: number, id: string): number {
  const d = new Database(path, { fileMustExist: true });
  try {
    return d
      .prepare(
        'DELETE FROM result_rows WHERE run_id = ? AND inst = (SELECT inst FROM instances WHERE id = ?)',
      )
      .run(runId, id).changes;
  } finally {
    d.close();
  }
}

/** Turns a run's commit sha into bytes that are no sha (damage inside a record, which quick_check passes). */
export function garbleCommit(path: string, runId: number): void {
  const d = new Database(path, { fileMustExist: true });
  try {
    d.prepare('UPDATE runs SET commit_sha = ? WHERE run_id = ?').run('\u0007\ufffd\u0000\u00ff?', runId);
  } finally {
    d.close();
  }
}

/**
 * Damages `path` as a disk fault would: `bytes` of 0x5a written over the page at `fraction` of the file (past the
 * header page). The file must be closed (no -wal).
 */
export function damagePage(path: string, fraction = 0.5, bytes = 4096): void {
  const fd = openSync(path, 'r+');
  try {
    const pages = Math.floor(fstatSync(fd).size / 4096);
    const page = Math.min(pages - 1, Math.max(1, Math.floor(pages * fraction)));
    writeSync(fd, Buffer.alloc(bytes, 0x5a), 0, bytes, page * 4096);
  } finally {
    closeSync(fd);
  }
}

/** Flips one byte in the page of frame `frame` (1-based) of a -wal file, as a disk fault would. */
export function damageWalFrame(walPath: string, frame: number): void {
  const wal = readFileSync(walPath);
  const page = wal.readUInt32BE(8);
  wal[32 + (frame - 1) * (24 + page) + 24 + 100] ^= 0xff;
  writeFileSync(walPath, wal);
}

/** A finished run row as `insertRuns` writes it: any start time (ties, runs out of order), any kind. */
export interface FixtureRun {
  readonly commitSha: string;
  readonly branch: string;
  readonly startedAt: string;
  readonly kind: 'normal' | 'rerun-disabled';
}

/** Appends finished runs with the given start times (which the store's startRun takes from the clock). */
export function insertRuns(path: string, runs: readonly FixtureRun[]): void {
  const d = new Database(path, { fileMustExist: true });
  try {
    const insert = d.prepare(
      `INSERT INTO runs (commit_sha, branch, platform, tier, started_at, ended_at, status, kind)
       VALUES (?, ?, 'p', 'pull', ?, ?, 'passed', ?)`,
    );
    d.transaction(() => {
      for (const r of runs) insert.run(r.commitSha, r.branch, r.startedAt, r.startedAt, r.kind);
    })();
  } finally {
    d.close();
  }
}

/** Deletes a commit's perf samples (retention taking rows out of the perf view's window). */
export function deletePerf(path: string, sha: string): number {
  const d = new Database(path, { fileMustExist: true });
  try {
    return d.prepare('DELETE FROM perf WHERE commit_sha = ?').run(sha).changes;
  } finally {
    d.close();
  }
}

/**
 * The definitions the windowed views must agree with, computed over every run: the newest `limit` commits with
 * normal runs (by latest start, then latest run id), and the newest commit before `sha` that measured a max ulp.
 */
export function commitOrderDefinitions(path: string): {
  newest: (limit: number) => { sha: string; branch: string; startedAt: string }[];
  previousUlp: (sha: string) => string | null;
  newestRunFirst: () => string[];
  close: () => void;
} {
  const d = new Database(path, { fileMustExist: true, readonly: true });
  const commits = `SELECT commit_sha AS sha, MAX(branch) AS branch, MIN(started_at) AS startedAt,
      MAX(started_at) AS at, MAX(run_id) AS rid FROM runs WHERE kind = 'normal' GROUP BY commit_sha`;
  const newest = d.prepare(
    `SELECT sha, branch, startedAt FROM (${commits}) ORDER BY at DESC, rid DESC LIMIT ?`,
  );
  const previous = d
    .prepare(
      `WITH c AS (${commits})
       SELECT c.sha FROM c JOIN c AS me ON me.sha = ?
       WHERE (c.at < me.at OR (c.at = me.at AND c.rid < me.rid))
         AND EXISTS (SELECT 1 FROM runs u JOIN results x ON x.run_id = u.run_id
                     WHERE u.commit_sha = c.sha AND x.max_ulp IS NOT NULL)
       ORDER BY c.at DESC, c.rid DESC LIMIT 1`,
    )
    .pluck();
  const runOrder = d
    .prepare("SELECT commit_sha FROM runs WHERE kind = 'normal' ORDER BY run_id DESC")
    .pluck();
  return {
    newest: (limit) => newest.all(limit) as { sha: string; branch: string; startedAt: string }[],
    previousUlp: (sha) => (previous.get(sha) as string | undefined) ?? null,
    newestRunFirst: () => [...new Set(runOrder.all() as string[])],
    close: () => d.close(),
  };
}
