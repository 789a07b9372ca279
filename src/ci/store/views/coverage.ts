/** Op coverage and test search: results per op cell, and every instance's outcome per commit. */
import { marks, SQL } from '../connection.ts';
import type { ResultsReader } from '../reader.ts';
import { LATEST_RUNS } from './commits.ts';

export interface CoverageRow {
  readonly op: string;
  readonly device: string;
  readonly dtype: string;
  readonly status: string;
  /** A skip's or xfail's reason; null for other statuses. */
  readonly message: string | null;
  readonly n: number;
}

/** Result counts per (op, device, dtype, status, skip/xfail reason) of the runs that count for `sha`. */
export function coverageCounts(db: ResultsReader, sha: string | null): CoverageRow[] {
  return db[SQL]
    .prepare(
      `SELECT r.op, r.device, r.dtype, r.status, CASE WHEN r.status IN ('skip','xfail') THEN r.message END AS message,
       COUNT(*) AS n
     FROM runs u JOIN results r ON r.run_id = u.run_id
     WHERE u.run_id IN (${LATEST_RUNS}) AND u.commit_sha = ? GROUP BY 1, 2, 3, 4, 5`,
    )
    .all(sha) as CoverageRow[];
}

/** [id, sha, status] of every result of the runs that count for `shas`. */
export function outcomesByCommit(db: ResultsReader, shas: readonly string[]): [string, string, string][] {
  if (shas.length === 0) return [];
  return db[SQL]
    .prepare(
      `SELECT r.id, u.commit_sha AS sha, r.status FROM runs u JOIN results r ON r.run_id = u.run_id
     WHERE u.run_id IN (${LATEST_RUNS}) AND u.commit_sha IN (${marks(shas.length)})`,
    )
    .raw()
    .all(...shas) as [string, string, string][];
}
