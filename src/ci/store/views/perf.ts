/** The perf view's query: the latest sample per commit of every series. */
import { SQL } from '../connection.ts';
import type { ResultsReader } from '../reader.ts';

export interface SeriesPoint {
  readonly scenario: string;
  readonly metric: string;
  readonly platform: string;
  readonly nodeVersion: string;
  readonly sha: string;
  readonly value: number;
  readonly at: string;
}

/**
 * Where the perf view's window starts: the lowest row id of the newest `commits` commits with samples, read back
 * from the newest sample until one more commit shows up, so the cost follows the window, not the history.
 */
export function perfWindowStart(db: ResultsReader, commits = 100): number {
  let from = 0;
  const seen = new Set<string>();
  for (const r of db[SQL]
    .prepare('SELECT rowid AS id, commit_sha AS sha FROM perf ORDER BY rowid DESC')
    .iterate() as Iterable<{ id: number; sha: string }>) {
    seen.add(r.sha);
    if (seen.size > commits) break;
    from = r.id;
  }
  return from;
}

/**
 * The perf table as the window from row id `from` sees it: the oldest row id, the newest row (id, commit, time,
 * value) and how many rows there are from `from` on. Rows are appended (recording, merging) and deleted
 * (retention, oldest commits first), never changed, so an equal stamp means the same window. Reads two rows and
 * counts the window's row ids only.
 */
export function perfWindowStamp(db: ResultsReader, from: number): string {
  const sql = db[SQL];
  const top = sql
    .prepare(
      'SELECT rowid AS id, commit_sha AS sha, recorded_at AS at, value FROM perf ORDER BY rowid DESC LIMIT 1',
    )
    .get() as { id: number; sha: string; at: string; value: number } | undefined;
  const lo = sql.prepare('SELECT MIN(rowid) FROM perf').pluck().get() as number | null;
  const n = sql.prepare('SELECT COUNT(*) FROM perf WHERE rowid >= ?').pluck().get(from) as number;
  return top ? `${lo} ${top.id} ${top.sha} ${top.at} ${top.value} ${n}` : '';
}

/**
 * Per (scenario, metric, platform, Node version, commit) the latest sample, each series in recording order, over
 * the newest `commits` commits with samples (the rows from perfWindowStart on).
 */
export function perfSeriesPoints(
  db: ResultsReader,
  commits = 100,
  from = perfWindowStart(db, commits),
): SeriesPoint[] {
  return db[SQL]
    .prepare(
      `SELECT scenario, metric, platform, node_version AS nodeVersion, commit_sha AS sha, value, recorded_at AS at
     FROM perf WHERE rowid IN (
       SELECT MAX(rowid) FROM perf WHERE rowid >= @from GROUP BY scenario, metric, platform, node_version, commit_sha)
     ORDER BY scenario, metric, platform, node_version, rowid`,
    )
    .all({ from }) as SeriesPoint[];
}
