/**
 * The numerics fingerprint's queries: per (op, device, dtype) the largest max ulp of a commit's counted runs,
 * and the commit before it that has any. `max_ulp` is set by the golden oracle (NULL elsewhere); a commit's runs
 * are read as their ranges of result_rows (one run's rows are one range of its key).
 */
import { type ResultsSource, SQL } from '../connection.ts';
import { LATEST_RUNS, recentCommits } from './commits.ts';

export interface UlpRow {
  readonly op: string;
  readonly device: string;
  readonly dtype: string;
  /** The largest max ulp over the cell's instances (layouts, modes, oracles) that measured one. */
  readonly maxUlp: number;
  /** The instance that measured it (the first by id among equals). */
  readonly worst: string;
  /** How many of the cell's instances measured one. */
  readonly instances: number;
}

/** Per (op, device, dtype), by op, device, dtype: the max of max_ulp over the runs that count for `sha`. */
export function maxUlpByCell(db: ResultsSource, sha: string): UlpRow[] {
  return db[SQL]
    .prepare(
      `SELECT op, device, dtype, maxUlp, worst, instances FROM (
         SELECT r.op, r.device, r.dtype, r.max_ulp AS maxUlp, r.id AS worst,
           ROW_NUMBER() OVER (PARTITION BY r.op, r.device, r.dtype ORDER BY r.max_ulp DESC, r.id) AS k,
           COUNT(*) OVER (PARTITION BY r.op, r.device, r.dtype) AS instances
         FROM runs u JOIN results r ON r.run_id = u.run_id
         WHERE u.run_id IN (${LATEST_RUNS}) AND u.commit_sha = ? AND r.max_ulp IS NOT NULL)
       WHERE k = 1 ORDER BY op, device, dtype`,
    )
    .all(sha) as UlpRow[];
}

/**
 * The newest commit before `sha` whose counted runs measured any max ulp, or null. Commits are ordered as the
 * dashboards order them: by their latest normal run's start, then its id.
 */
export function previousUlpCommit(db: ResultsSource, sha: string): string | null {
  const measured = db[SQL]
    .prepare(
      `SELECT EXISTS (SELECT 1 FROM runs u JOIN results r ON r.run_id = u.run_id
                      WHERE u.commit_sha = ? AND u.run_id IN (${LATEST_RUNS}) AND r.max_ulp IS NOT NULL)`,
    )
    .pluck();
  // The newest commits in growing windows until `sha` and a measured commit after it show up (the previous commit
  // usually answers), each commit asked once: the cost follows how far back the answer is, not the history.
  let asked = 0;
  for (let n = 64; ; n *= 4) {
    const shas = recentCommits(db, n).map((c) => c.sha);
    const at = shas.indexOf(sha);
    if (at >= 0) {
      for (let i = Math.max(at + 1, asked); i < shas.length; i++)
        if (measured.get(shas[i]) === 1) return shas[i];
      asked = shas.length;
    }
    if (shas.length < n) return null;
  }
}
