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

/** Per (scenario, metric, platform, Node version, commit) the latest sample, each series in recording order. */
export function perfSeriesPoints(db: ResultsReader): SeriesPoint[] {
  return db[SQL]
    .prepare(
      `SELECT scenario, metric, platform, node_version AS nodeVersion, commit_sha AS sha, value, recorded_at AS at
     FROM perf WHERE rowid IN (
       SELECT MAX(rowid) FROM perf GROUP BY scenario, metric, platform, node_version, commit_sha)
     ORDER BY scenario, metric, platform, node_version, rowid`,
    )
    .all() as SeriesPoint[];
}
