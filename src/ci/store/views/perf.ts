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
 * Per (scenario, metric, platform, Node version, commit) the latest sample, each series in recording order, over
 * the newest `commits` commits with samples: read back from the newest sample until one more commit shows up, so
 * the cost follows the window, not the history.
 */
/**
 * The perf table as it stands: its first and last row ids and its row count (rows are only appended, by recording
 * or merging, and deleted, by retention, never changed).
 */
export function perfTableStamp(db: ResultsReader): string {
  const r = db[SQL].prepare('SELECT MIN(rowid) AS lo, MAX(rowid) AS hi, COUNT(*) AS n FROM perf').get() as {
    lo: number | null;
    hi: number | null;
    n: number;
  };
  return `${r.lo}:${r.hi}:${r.n}`;
}

export function perfSeriesPoints(db: ResultsReader, commits = 100): SeriesPoint[] {
  const sql = db[SQL];
  let from = 0;
  const seen = new Set<string>();
  for (const r of sql
    .prepare('SELECT rowid AS id, commit_sha AS sha FROM perf ORDER BY rowid DESC')
    .iterate() as Iterable<{
    id: number;
    sha: string;
  }>) {
    seen.add(r.sha);
    if (seen.size > commits) break;
    from = r.id;
  }
  return sql
    .prepare(
      `SELECT scenario, metric, platform, node_version AS nodeVersion, commit_sha AS sha, value, recorded_at AS at
     FROM perf WHERE rowid IN (
       SELECT MAX(rowid) FROM perf WHERE rowid >= @from GROUP BY scenario, metric, platform, node_version, commit_sha)
     ORDER BY scenario, metric, platform, node_version, rowid`,
    )
    .all({ from }) as SeriesPoint[];
}
