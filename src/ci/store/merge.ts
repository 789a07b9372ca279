/**
 * `opgate merge <db...> --into <db>`: copies the finished runs of shard databases, with their results, into one.
 *
 * A run is identified across merges by what never changes once it has started: (commit, branch, platform,
 * shard, tier, filters, started_at, kind); its status, end and results do change. Only finished runs are copied
 * (passed, failed, interrupted, aborted: a run whose process died reads aborted); a run still going is left for
 * a later merge, since a copy of it would be frozen half-way. A run already in the target is skipped, so
 * merging the same shard twice adds nothing, unless the source's copy went further: a complete run replaces a
 * partial copy (interrupted or aborted, then resumed), and a partial one a partial copy with fewer results.
 * Perf samples are copied the same way (a sample already there, same key and recording time, is skipped), so a
 * perf history merges into the dashboards' database.
 *
 * Every input is checked before the target is created or opened: a missing, foreign, newer-schema or damaged
 * file is an error (E_FILE_NOT_FOUND, E_DB_INVALID, E_DB_SCHEMA_NEWER, E_DB_CORRUPT) that leaves every file as it
 * was. Sources are only read (merge_source.ts); each one is copied in one transaction of the target, so a
 * failure (E_DB_FULL, ...) or a kill keeps the sources copied before it and nothing of the one it interrupted,
 * and merging again completes it.
 */
import { CiError } from '../errors.ts';
import { SQL, type Sql } from './connection.ts';
import { withDbErrors } from './db_errors.ts';
import { boundary } from './faults.ts';
import { effectiveStatus, isComplete, type RunLiveness } from './liveness.ts';
import { type MergeSource, openSource } from './merge_source.ts';
import { ResultsReader } from './reader.ts';
import { dropGoneRuns, foldRun } from './recent.ts';
import { rowWriter } from './result_rows.ts';
import { type ResultRow, STORED_RESULT_COLUMNS, wallSeconds } from './runs.ts';
import { copyShardSets } from './shard_sets.ts';
import { ResultsStore } from './store.ts';

export interface MergeReport {
  readonly runsAdded: number;
  /** Already there, as far along as the source's copy. */
  readonly runsSkipped: number;
  /** Partial copies replaced by a source's copy that went further. */
  readonly runsReplaced: number;
  /** Still running in their source: not copied (merge again once they end). */
  readonly runsRunning: number;
  readonly resultsAdded: number;
  readonly perfAdded: number;
}

const PERF_COLUMNS = 'scenario, metric, value, commit_sha, platform, node_version, recorded_at, detail';
const PERF_KEY = ['scenario', 'metric', 'commit_sha', 'platform', 'node_version', 'recorded_at'] as const;

const RUN_KEY = [
  'commit_sha',
  'branch',
  'platform',
  'shard',
  'tier',
  'filters',
  'started_at',
  'kind',
] as const;

/** Complete beats partial beats running; between partial copies, the one with more results. */
function goesFurther(src: { status: string; n: number }, dst: { status: string; n: number }): boolean {
  const rank = (s: string) => (isComplete(s) ? 2 : s === 'running' ? 0 : 1);
  return (
    rank(src.status) > rank(dst.status) || (rank(src.status) === 1 && rank(dst.status) === 1 && src.n > dst.n)
  );
}

type SourceRun = Record<string, unknown> & { run_id: number };

const liveness = (r: SourceRun): RunLiveness => ({
  status: String(r.status),
  host: (r.host as string | null) ?? null,
  pid: (r.pid as number | null) ?? null,
  heartbeatAt: (r.heartbeat_at as string | null) ?? null,
  startedAt: String(r.started_at),
});

export function mergeDatabases(sources: readonly string[], into: string): MergeReport {
  // Every source is opened read-only and checked (its pages, its -wal, every row) before the target is created
  // or opened: a missing, foreign, newer or damaged input leaves every file as it was.
  const opened: MergeSource[] = [];
  try {
    for (const path of sources) opened.push(openSource(path));
    // Opening the target checks it in turn (an existing file must be opgate's, a new one needs its directory).
    const target = new ResultsStore(into);
    try {
      target.reapAborted();
      const counts = {
        runsAdded: 0,
        runsSkipped: 0,
        runsReplaced: 0,
        runsRunning: 0,
        resultsAdded: 0,
        perfAdded: 0,
      };
      opened.forEach((src, k) => {
        if (k > 0) boundary('merge-source');
        target.write(`merge ${src.path}`, () => copySource(target[SQL], src, counts));
      });
      return counts;
    } finally {
      target.close();
    }
  } finally {
    for (const s of opened) s.close();
  }
}

type Counts = { -readonly [K in keyof MergeReport]: number };

/** Copies one source's finished runs (with their results), shard-set plans and perf samples into `db`. */
function copySource(db: Sql, src: MergeSource, c: Counts): void {
  const existing = db.prepare(
    `SELECT run_id AS runId, status, (SELECT COUNT(*) FROM results r WHERE r.run_id = runs.run_id) AS n
     FROM runs WHERE ${RUN_KEY.map((k) => `${k} IS ?`).join(' AND ')}`,
  );
  const sourceCount = src.db.prepare('SELECT COUNT(*) FROM results WHERE run_id = ?').pluck();
  const insertRun = db.prepare(
    `INSERT INTO runs (${RUN_KEY.join(', ')}, ended_at, status, pid, host, heartbeat_at, shard_set)
     VALUES (${RUN_KEY.map(() => '?').join(', ')}, ?, ?, ?, ?, ?, ?)`,
  );
  const updateRun = db.prepare(
    'UPDATE runs SET ended_at = ?, status = ?, pid = ?, host = ?, heartbeat_at = ?, shard_set = ? WHERE run_id = ?',
  );
  const dropResults = db.prepare('DELETE FROM result_rows WHERE run_id = ?');
  const sourceResults = src.db.prepare(`SELECT ${STORED_RESULT_COLUMNS} FROM results WHERE run_id = ?`);
  const put = rowWriter(db);
  const runs = src.db.prepare('SELECT * FROM runs ORDER BY run_id').all() as SourceRun[];
  for (const r of runs) {
    const status = effectiveStatus(liveness(r));
    if (status === 'running') {
      c.runsRunning++;
      continue;
    }
    // An aborted run never wrote its end: its last heartbeat is the best one known.
    const ended = r.ended_at ?? r.heartbeat_at ?? r.started_at;
    const tail = [ended, status, r.pid ?? null, r.host ?? null, r.heartbeat_at ?? null, r.shard_set ?? null];
    const key = RUN_KEY.map((k) => r[k]);
    const there = existing.get(...key) as { runId: number; status: string; n: number } | undefined;
    let id: number;
    if (!there) {
      id = Number(insertRun.run(...key, ...tail).lastInsertRowid);
      c.runsAdded++;
    } else if (goesFurther({ status, n: sourceCount.get(r.run_id) as number }, there)) {
      id = there.runId;
      dropResults.run(id);
      updateRun.run(...tail, id);
      c.runsReplaced++;
    } else {
      c.runsSkipped++;
      continue;
    }
    const rows = sourceResults.all(r.run_id) as ResultRow[];
    put(id, rows);
    c.resultsAdded += rows.length;
    foldRun(db, id);
  }
  copyShardSets(db, src.db, src.path);
  const perfThere = db.prepare(`SELECT 1 FROM perf WHERE ${PERF_KEY.map((k) => `${k} IS ?`).join(' AND ')}`);
  const insertPerf = db.prepare(
    `INSERT INTO perf (${PERF_COLUMNS}) VALUES (${PERF_COLUMNS.split(', ')
      .map(() => '?')
      .join(', ')})`,
  );
  for (const p of src.db.prepare(`SELECT ${PERF_COLUMNS} FROM perf`).iterate() as Iterable<
    Record<string, unknown>
  >) {
    if (perfThere.get(...PERF_KEY.map((k) => p[k]))) continue;
    insertPerf.run(...PERF_COLUMNS.split(', ').map((k) => p[k]));
    c.perfAdded++;
  }
}

export interface PruneReport {
  readonly commitsDropped: number;
  readonly runsDropped: number;
  readonly perfDropped: number;
}

/**
 * Keeps the newest `keep` commits of a history database (by their latest run, and separately by their latest
 * perf sample) and drops the rest, so a history kept across CI runs (the dashboards') stays bounded.
 */
export function pruneCommits(path: string, keep: number): PruneReport {
  if (!Number.isInteger(keep) || keep < 1)
    throw new CiError('E_INVALID_ARGUMENT', `--keep-commits: got ${keep}, expected a positive integer`);
  const store = new ResultsStore(path);
  const db = store[SQL];
  try {
    const report = store.write('retention', () => {
      const old = db
        .prepare(
          `SELECT commit_sha FROM runs GROUP BY commit_sha ORDER BY MAX(started_at) DESC, MAX(run_id) DESC LIMIT -1 OFFSET ?`,
        )
        .pluck()
        .all(keep) as string[];
      const gone = JSON.stringify(old);
      const runs = db
        .prepare('SELECT run_id FROM runs WHERE commit_sha IN (SELECT value FROM json_each(?))')
        .pluck()
        .all(gone) as number[];
      db.prepare(
        'DELETE FROM result_rows WHERE run_id IN (SELECT run_id FROM runs WHERE commit_sha IN (SELECT value FROM json_each(?)))',
      ).run(gone);
      const runsDropped = db
        .prepare('DELETE FROM runs WHERE commit_sha IN (SELECT value FROM json_each(?))')
        .run(gone).changes;
      const perfDropped = db
        .prepare(
          `DELETE FROM perf WHERE commit_sha IN (
             SELECT commit_sha FROM perf GROUP BY commit_sha ORDER BY MAX(rowid) DESC LIMIT -1 OFFSET ?)`,
        )
        .run(keep).changes;
      dropGoneRuns(db, new Set(runs));
      return { commitsDropped: old.length, runsDropped, perfDropped };
    });
    // Give the space back (the file is what the CI cache stores) in proportion to what was dropped: a file with
    // incremental auto-vacuum frees its free pages; an older file is rewritten once, switching it over.
    if (report.runsDropped + report.perfDropped > 0)
      withDbErrors(path, 'giving space back', () => {
        if ((db.pragma('auto_vacuum', { simple: true }) as number) === 2) db.pragma('incremental_vacuum');
        else {
          db.pragma('auto_vacuum = INCREMENTAL');
          db.exec('VACUUM');
        }
        db.pragma('wal_checkpoint(TRUNCATE)');
      });
    return report;
  } finally {
    store.close();
  }
}

/** The results of the latest run of each shard database, and the longest shard's wall time (time to signal). */
export function shardResults(sources: readonly string[]): { rows: ResultRow[]; seconds: number } {
  const rows: ResultRow[] = [];
  let seconds = 0;
  for (const path of sources) {
    const s = new ResultsReader(path, { brief: true });
    try {
      const run = s.lastRunId();
      if (run === null) continue;
      rows.push(...s.results(run));
      seconds = Math.max(seconds, wallSeconds(s, run) ?? 0);
    } finally {
      s.close();
    }
  }
  return { rows, seconds };
}
