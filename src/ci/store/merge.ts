/**
 * `opgate merge <db...> --into <db>`: copies the runs and results of shard databases into one. A run is
 * identified by (commit, branch, platform, shard, tier, filters, started_at): a run already in the target is
 * skipped, so merging the same shard twice adds nothing. Perf samples are copied the same way (a sample already
 * there, same key and recording time, is skipped), so a perf history merges into the dashboards' database.
 */
import { type ResultRow, ResultsStore } from './store.ts';

export interface MergeReport {
  readonly runsAdded: number;
  readonly runsSkipped: number;
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

export function mergeDatabases(sources: readonly string[], into: string): MergeReport {
  const target = new ResultsStore(into);
  let runsAdded = 0;
  let runsSkipped = 0;
  let resultsAdded = 0;
  let perfAdded = 0;
  const copyPerf = `INSERT INTO perf (${PERF_COLUMNS}) SELECT ${PERF_COLUMNS} FROM src.perf s
    WHERE NOT EXISTS (SELECT 1 FROM perf p WHERE ${PERF_KEY.map((k) => `p.${k} IS s.${k}`).join(' AND ')})`;
  try {
    for (const path of sources) {
      // Opening through the store migrates an older shard database to this schema first.
      new ResultsStore(path).close();
      target.db.prepare('ATTACH DATABASE ? AS src').run(path);
      try {
        target.db.transaction(() => {
          const runs = target.db.prepare('SELECT * FROM src.runs ORDER BY run_id').all() as Record<
            string,
            unknown
          >[];
          const exists = target.db.prepare(
            `SELECT run_id FROM runs WHERE ${RUN_KEY.map((k) => `${k} IS ?`).join(' AND ')}`,
          );
          const insertRun = target.db.prepare(
            `INSERT INTO runs (${RUN_KEY.join(', ')}, ended_at, status) VALUES (${RUN_KEY.map(() => '?').join(', ')}, ?, ?)`,
          );
          const copyResults = target.db.prepare(
            `INSERT INTO results (run_id, id, op, oracle, device, dtype, layout, mode, status, duration_ms, attempts, message, sample, seed, checks, rerun_passes, rerun_failures)
             SELECT ?, id, op, oracle, device, dtype, layout, mode, status, duration_ms, attempts, message, sample, seed, checks, rerun_passes, rerun_failures
             FROM src.results WHERE run_id = ?`,
          );
          for (const r of runs) {
            const key = RUN_KEY.map((k) => r[k]);
            if (exists.get(...key)) {
              runsSkipped++;
              continue;
            }
            const id = Number(insertRun.run(...key, r.ended_at, r.status).lastInsertRowid);
            resultsAdded += copyResults.run(id, r.run_id).changes;
            runsAdded++;
          }
          perfAdded += target.db.prepare(copyPerf).run().changes;
        })();
      } finally {
        target.db.prepare('DETACH DATABASE src').run();
      }
    }
  } finally {
    target.close();
  }
  return { runsAdded, runsSkipped, resultsAdded, perfAdded };
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
    throw new Error(`--keep-commits: got ${keep}, expected a positive integer`);
  const store = new ResultsStore(path);
  try {
    const report = store.db.transaction(() => {
      const old = store.db
        .prepare(
          `SELECT commit_sha FROM runs GROUP BY commit_sha ORDER BY MAX(started_at) DESC, MAX(run_id) DESC LIMIT -1 OFFSET ?`,
        )
        .pluck()
        .all(keep) as string[];
      const gone = JSON.stringify(old);
      store.db
        .prepare(
          'DELETE FROM results WHERE run_id IN (SELECT run_id FROM runs WHERE commit_sha IN (SELECT value FROM json_each(?)))',
        )
        .run(gone);
      const runsDropped = store.db
        .prepare('DELETE FROM runs WHERE commit_sha IN (SELECT value FROM json_each(?))')
        .run(gone).changes;
      const perfDropped = store.db
        .prepare(
          `DELETE FROM perf WHERE commit_sha IN (
             SELECT commit_sha FROM perf GROUP BY commit_sha ORDER BY MAX(rowid) DESC LIMIT -1 OFFSET ?)`,
        )
        .run(keep).changes;
      return { commitsDropped: old.length, runsDropped, perfDropped };
    })();
    // Give the space back: the file is what the CI cache stores.
    if (report.runsDropped + report.perfDropped > 0) store.db.exec('VACUUM');
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
    const s = new ResultsStore(path);
    try {
      const run = s.lastRunId();
      if (run === null) continue;
      rows.push(...s.results(run));
      const t = s.db
        .prepare(
          'SELECT (julianday(ended_at) - julianday(started_at)) * 86400 AS s FROM runs WHERE run_id = ?',
        )
        .get(run) as { s: number | null };
      seconds = Math.max(seconds, t.s ?? 0);
    } finally {
      s.close();
    }
  }
  return { rows, seconds };
}
