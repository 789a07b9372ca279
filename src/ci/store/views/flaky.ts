/** The flaky view's queries: instances that ever failed, their outcomes, quarantine skips per commit. */
import { marks, SQL } from '../connection.ts';
import type { ResultsReader } from '../reader.ts';
import { LATEST_RUNS } from './commits.ts';

/** Ids with a failing or flaky result in some normal run (only those can be flaky). */
export function everFailedIds(db: ResultsReader): string[] {
  return db[SQL]
    .prepare(
      `SELECT DISTINCT r.id FROM results r JOIN runs u ON u.run_id = r.run_id
     WHERE u.kind = 'normal' AND r.status IN ('flaky','fail','error','xpass')`,
    )
    .pluck()
    .all() as string[];
}

/** The non-skip outcomes of `ids` in normal runs, oldest run first. */
export function outcomesOf(db: ResultsReader, ids: readonly string[]): { id: string; status: string }[] {
  if (ids.length === 0) return [];
  return db[SQL]
    .prepare(
      `SELECT r.id, r.status FROM results r JOIN runs u ON u.run_id = r.run_id
     WHERE u.kind = 'normal' AND r.status != 'skip' AND r.id IN (${marks(ids.length)}) ORDER BY r.run_id`,
    )
    .all(...ids) as { id: string; status: string }[];
}

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
