/** The commit grid's queries: result counts per job, the runs that did not finish, failures. */
import { marks, type ResultsSource, SQL } from '../connection.ts';
import type { ResultsReader } from '../reader.ts';
import { NOTABLE, STATUS_IN, STATUS_NAME_SQL } from '../result_columns.ts';
import { LATEST_RUNS, RUN_STATUS } from './commits.ts';

/**
 * Results per (run: commit and shard, device, status) of the runs that count for `shas`: a finished run's from
 * its counts (run_counts), a run in progress from its results. `fromResults`: all from the results (the
 * definition).
 */
export function gridCounts(
  db: ResultsSource,
  shas: readonly string[],
  o: { fromResults?: boolean } = {},
): { sha: string; shard: string; device: string; status: string; n: number }[] {
  const counted = `u.run_id IN (${LATEST_RUNS}) AND u.commit_sha IN (SELECT value FROM json_each(@shas))`;
  const raw = `SELECT u.commit_sha AS sha, u.shard, r.device, r.status, COUNT(*) AS n
     FROM runs u JOIN results r ON r.run_id = u.run_id
     WHERE ${counted} ${o.fromResults ? '' : "AND u.status = 'running'"}
     GROUP BY u.run_id, r.device, r.status`;
  const cells = `SELECT u.commit_sha AS sha, u.shard, c.device, c.status, c.n
     FROM runs u JOIN run_counts c ON c.run_id = u.run_id
     WHERE ${counted} AND u.status != 'running'`;
  return db[SQL].prepare(o.fromResults ? raw : `${cells} UNION ALL ${raw}`).all({
    shas: JSON.stringify(shas),
  }) as { sha: string; shard: string; device: string; status: string; n: number }[];
}

/** The counted runs of `shas` that did not finish, with the devices they were asked for (JSON) and status. */
export function unfinishedRuns(
  db: ResultsReader,
  shas: readonly string[],
): { sha: string; shard: string; devices: string | null; status: 'running' | 'interrupted' | 'aborted' }[] {
  return db[SQL]
    .prepare(
      `SELECT u.commit_sha AS sha, u.shard, json_extract(u.filters, '$.device') AS devices, ${RUN_STATUS} AS status
     FROM runs u WHERE u.run_id IN (${LATEST_RUNS}) AND u.status IN ('running', 'interrupted', 'aborted')
       AND u.commit_sha IN (${marks(shas.length)})`,
    )
    .all(...shas) as {
    sha: string;
    shard: string;
    devices: string | null;
    status: 'running' | 'interrupted' | 'aborted';
  }[];
}

/** Each failing (fail, error, xpass) result of the counted runs of `shas`. */
export function failingResults(
  db: ResultsReader,
  shas: readonly string[],
): { id: string; sha: string; shard: string; device: string }[] {
  return db[SQL]
    .prepare(
      `SELECT i.id, u.commit_sha AS sha, u.shard, i.device
     FROM runs u JOIN result_rows r INDEXED BY result_rows_notable ON r.run_id = u.run_id JOIN instances i ON i.inst = r.inst
     WHERE u.run_id IN (${LATEST_RUNS}) AND u.commit_sha IN (${marks(shas.length)})
       AND ${NOTABLE('r')} AND ${STATUS_IN('r.status', ['fail', 'error', 'xpass'])}`,
    )
    .all(...shas) as { id: string; sha: string; shard: string; device: string }[];
}

export interface CellFailureRow {
  readonly id: string;
  readonly status: string;
  readonly message: string | null;
  readonly sample: number | null;
  readonly seed: number | null;
  readonly attempts: number;
  readonly durationMs: number;
}

/** The failing and flaky results of one job at one commit, failures first, by id. */
export function cellFailures(
  db: ResultsReader,
  sha: string,
  shard: string,
  device: string,
): CellFailureRow[] {
  return db[SQL]
    .prepare(
      `SELECT i.id, ${STATUS_NAME_SQL('r.status')} AS status, m.text AS message, r.sample, r.seed, r.attempts,
       r.dur_us / 1000.0 AS durationMs
     FROM runs u JOIN result_rows r INDEXED BY result_rows_notable ON r.run_id = u.run_id
       JOIN instances i ON i.inst = r.inst LEFT JOIN messages m ON m.msg = r.msg
     WHERE u.run_id IN (${LATEST_RUNS}) AND u.commit_sha = ? AND u.shard = ? AND i.device = ? AND ${NOTABLE('r')}
     ORDER BY ${STATUS_IN('r.status', ['flaky'])}, i.id`,
    )
    .all(sha, shard, device) as CellFailureRow[];
}
