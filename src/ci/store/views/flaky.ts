/** The flaky view's query (its flake statistics come from the instances' recent history, recent.ts). */
import { type ResultsSource, SQL } from '../connection.ts';
import { LATEST_RUNS, recentCommits } from './commits.ts';

const DISABLED = `'disabled by issue%'`;

/**
 * Per commit of the newest `commits`, oldest first: how many instances its counted runs skipped as disabled
 * (quarantined). A finished run's skips come from its cell counts (run_cells: an instance is in one counted run
 * of a commit, so cells add up to instances), a run in progress's from its results. `fromResults`: all from the
 * results (the definition).
 */
export function disabledSkipsByCommit(
  db: ResultsSource,
  commits = 200,
  o: { fromResults?: boolean; shas?: readonly string[] } = {},
): { sha: string; at: string; firstRun: number; count: number }[] {
  // `shas`: these commits instead of the newest (the dashboards compute only the commits whose runs changed).
  const shas = o.shas ?? recentCommits(db, commits).map((c) => c.sha);
  const fromResults = `SELECT COUNT(DISTINCT r.id) FROM results r
     WHERE r.run_id = u.run_id AND r.status = 'skip' AND r.message LIKE ${DISABLED}`;
  const fromCells = `SELECT COALESCE(SUM(c.n), 0) FROM run_cells c JOIN messages m ON m.msg = c.msg
     WHERE c.run_id = u.run_id AND c.status = 'skip' AND m.text LIKE ${DISABLED}`;
  const perRun = o.fromResults
    ? `(${fromResults})`
    : `CASE WHEN u.status = 'running' THEN (${fromResults}) ELSE (${fromCells}) END`;
  return db[SQL]
    .prepare(
      `SELECT u.commit_sha AS sha, MIN(u.started_at) AS at, MIN(u.run_id) AS firstRun, SUM(${perRun}) AS count
     FROM runs u WHERE u.run_id IN (${LATEST_RUNS}) AND u.commit_sha IN (SELECT value FROM json_each(@shas))
     GROUP BY u.commit_sha ORDER BY MIN(u.started_at), MIN(u.run_id)`,
    )
    .all({ shas: JSON.stringify(shas) }) as {
    sha: string;
    at: string;
    firstRun: number;
    count: number;
  }[];
}
