/** The flaky view's query (its flake statistics come from the instances' recent history, recent.ts). */
import { SQL } from '../connection.ts';
import type { ResultsReader } from '../reader.ts';
import { LATEST_RUNS } from './commits.ts';

/** Per commit, oldest first: how many instances its counted runs skipped as disabled (quarantined). */
export function disabledSkipsByCommit(db: ResultsReader): { sha: string; at: string; count: number }[] {
  return db[SQL]
    .prepare(
      `SELECT u.commit_sha AS sha, MIN(u.started_at) AS at,
       COUNT(DISTINCT CASE WHEN r.status = 'skip' AND r.message LIKE 'disabled by issue%' THEN r.id END) AS count
     FROM runs u LEFT JOIN results r ON r.run_id = u.run_id
     WHERE u.run_id IN (${LATEST_RUNS}) GROUP BY u.commit_sha ORDER BY MIN(u.started_at), MIN(u.run_id)`,
    )
    .all() as { sha: string; at: string; count: number }[];
}
