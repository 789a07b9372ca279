/** The shards view's queries: a commit's runs with their times, its slowest instances, time to signal. */
import { SQL } from '../connection.ts';
import type { ResultsReader } from '../reader.ts';
import { STATUS_NAME_SQL } from '../result_columns.ts';
import { LATEST_RUNS, RUN_STATUS, recentCommits } from './commits.ts';

export interface ShardRunRow {
  readonly shard: string;
  /** The devices the run was asked for (JSON), or null for all. */
  readonly devices: string | null;
  readonly status: string;
  readonly startedAt: string;
  /** Null while the run is going. */
  readonly endedAt: string | null;
  readonly testMs: number;
  readonly instances: number;
}

/** The counted runs of a commit, oldest first, with their summed instance time. */
export function shardRuns(db: ResultsReader, sha: string | null): ShardRunRow[] {
  return db[SQL]
    .prepare(
      `SELECT u.shard, json_extract(u.filters, '$.device') AS devices, ${RUN_STATUS} AS status, u.started_at AS startedAt,
       -- A run whose process died never wrote its end: it ended at its last heartbeat.
       CASE WHEN ${RUN_STATUS} = 'running' THEN NULL ELSE COALESCE(u.ended_at, u.heartbeat_at, u.started_at) END AS endedAt,
       COALESCE(SUM(r.dur_us), 0) / 1000.0 AS testMs, COUNT(r.inst) AS instances
     FROM runs u LEFT JOIN result_rows r ON r.run_id = u.run_id
     WHERE u.run_id IN (${LATEST_RUNS}) AND u.commit_sha = ? GROUP BY u.run_id ORDER BY u.run_id`,
    )
    .all(sha) as ShardRunRow[];
}

/** The `limit` slowest results of a commit's counted runs. */
export function slowestResults(
  db: ResultsReader,
  sha: string | null,
  limit: number,
): { id: string; shard: string; device: string; durationMs: number; status: string }[] {
  return db[SQL]
    .prepare(
      `SELECT i.id, u.shard, i.device, r.dur_us / 1000.0 AS durationMs, ${STATUS_NAME_SQL('r.status')} AS status
     FROM runs u JOIN result_rows r ON r.run_id = u.run_id JOIN instances i ON i.inst = r.inst
     WHERE u.run_id IN (${LATEST_RUNS}) AND u.commit_sha = ? ORDER BY r.dur_us DESC LIMIT ?`,
    )
    .all(sha, limit) as { id: string; shard: string; device: string; durationMs: number; status: string }[];
}

export interface CommitTimeRow {
  readonly sha: string;
  readonly at: string;
  readonly endedAt: string | null;
  /** How many of its runs are still going. */
  readonly open: number;
  readonly shards: number;
}

/**
 * The newest `limit` commits' (recentCommits) first start, last end and open runs, by first start, newest first
 * (`sha`: that commit's only).
 */
export function commitTimes(db: ResultsReader, limit: number, sha?: string): CommitTimeRow[] {
  const shas = sha === undefined ? recentCommits(db, limit).map((c) => c.sha) : [sha];
  return db[SQL]
    .prepare(
      `SELECT u.commit_sha AS sha, MIN(u.started_at) AS at,
       MAX(COALESCE(u.ended_at, u.heartbeat_at, u.started_at)) AS endedAt,
       SUM(${RUN_STATUS} = 'running') AS open, COUNT(*) AS shards
     FROM runs u WHERE u.run_id IN (${LATEST_RUNS}) AND u.commit_sha IN (SELECT value FROM json_each(@shas))
     GROUP BY u.commit_sha ORDER BY MIN(u.started_at) DESC`,
    )
    .all({ shas: JSON.stringify(shas) }) as CommitTimeRow[];
}
