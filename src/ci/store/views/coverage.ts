/** Op coverage: results per op cell. */
import { type ResultsSource, SQL } from '../connection.ts';
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

/**
 * Result counts per (op, device, dtype, status, skip/xfail reason) of the runs that count for `sha`: a finished
 * run's from its cell counts (run_cells, kept as it ended), a run in progress from its results. A cell may come
 * in several rows (one per run): the caller adds them up. `fromResults`: every count from the results (the
 * definition the summary is checked against).
 */
export function coverageCounts(
  db: ResultsSource,
  sha: string | null,
  o: { fromResults?: boolean } = {},
): CoverageRow[] {
  const raw = `SELECT r.op, r.device, r.dtype, r.status, CASE WHEN r.status IN ('skip','xfail') THEN r.message END AS message,
       COUNT(*) AS n
     FROM runs u JOIN results r ON r.run_id = u.run_id
     WHERE u.run_id IN (${LATEST_RUNS}) AND u.commit_sha = @sha ${o.fromResults ? '' : "AND u.status = 'running'"}
     GROUP BY 1, 2, 3, 4, 5`;
  const cells = `SELECT c.op, c.device, c.dtype, c.status, m.text AS message, SUM(c.n) AS n
     FROM runs u JOIN run_cells c ON c.run_id = u.run_id LEFT JOIN messages m ON m.msg = c.msg
     WHERE u.run_id IN (${LATEST_RUNS}) AND u.commit_sha = @sha AND u.status != 'running'
     GROUP BY 1, 2, 3, 4, 5`;
  return db[SQL].prepare(o.fromResults ? raw : `${cells} UNION ALL ${raw}`).all({ sha }) as CoverageRow[];
}
