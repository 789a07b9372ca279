/**
 * View 5, shards & time: for one commit, each shard's wall time and summed instance time (the balance the
 * duration-based sharding aims for), the time to signal (first shard start to last shard end), the slowest
 * instances; and time to signal over recent commits.
 */
import { LATEST_RUNS, type ReadDb, recentCommits } from './db.ts';

export interface ShardRow {
  readonly shard: string;
  readonly status: string;
  readonly wallS: number | null;
  readonly testS: number;
  readonly instances: number;
}

export interface ShardsData {
  readonly sha: string | null;
  readonly shards: readonly ShardRow[];
  /** Slowest shard's summed instance time over the mean: 1 is perfect balance. */
  readonly imbalance: number | null;
  readonly timeToSignalS: number | null;
  readonly slowest: readonly {
    id: string;
    shard: string;
    device: string;
    durationMs: number;
    status: string;
  }[];
  /** Oldest first. */
  readonly history: readonly { sha: string; at: string; timeToSignalS: number | null; shards: number }[];
}

const seconds = (from: string, to: string | null) =>
  to === null ? null : Math.max(0, (Date.parse(to) - Date.parse(from)) / 1000);

export function shardsData(db: ReadDb, sha?: string, historyLimit = 50): ShardsData {
  const commit = sha ?? recentCommits(db, 1)[0]?.sha ?? null;
  const runs = db
    .prepare(
      `SELECT u.shard, u.status, u.started_at AS startedAt, u.ended_at AS endedAt,
         COALESCE(SUM(r.duration_ms), 0) AS testMs, COUNT(r.id) AS instances
       FROM runs u LEFT JOIN results r ON r.run_id = u.run_id
       WHERE u.run_id IN (${LATEST_RUNS}) AND u.commit_sha = ? GROUP BY u.run_id ORDER BY u.run_id`,
    )
    .all(commit) as {
    shard: string;
    status: string;
    startedAt: string;
    endedAt: string | null;
    testMs: number;
    instances: number;
  }[];
  const shards = runs
    .map((r) => ({
      shard: r.shard,
      status: r.status,
      wallS: seconds(r.startedAt, r.endedAt),
      testS: r.testMs / 1000,
      instances: r.instances,
    }))
    .sort((a, b) => Number(a.shard.split('/')[0]) - Number(b.shard.split('/')[0]));
  const mean = shards.reduce((a, s) => a + s.testS, 0) / (shards.length || 1);
  const slowest = db
    .prepare(
      `SELECT r.id, u.shard, r.device, r.duration_ms AS durationMs, r.status FROM runs u JOIN results r ON r.run_id = u.run_id
       WHERE u.run_id IN (${LATEST_RUNS}) AND u.commit_sha = ? ORDER BY r.duration_ms DESC LIMIT 25`,
    )
    .all(commit) as ShardsData['slowest'];
  const history = (
    db
      .prepare(
        `SELECT u.commit_sha AS sha, MIN(u.started_at) AS at, MAX(u.ended_at) AS endedAt,
           SUM(u.ended_at IS NULL) AS open, COUNT(*) AS shards
         FROM runs u WHERE u.run_id IN (${LATEST_RUNS}) GROUP BY u.commit_sha ORDER BY MIN(u.started_at) DESC LIMIT ?`,
      )
      .all(historyLimit) as {
      sha: string;
      at: string;
      endedAt: string | null;
      open: number;
      shards: number;
    }[]
  )
    .reverse()
    .map((h) => ({
      sha: h.sha,
      at: h.at,
      shards: h.shards,
      timeToSignalS: h.open ? null : seconds(h.at, h.endedAt),
    }));
  const open = shards.some((s) => s.wallS === null);
  const last = history.find((h) => h.sha === commit);
  return {
    sha: commit,
    shards,
    imbalance: shards.length && mean > 0 ? Math.max(...shards.map((s) => s.testS)) / mean : null,
    timeToSignalS: open ? null : (last?.timeToSignalS ?? null),
    slowest,
    history,
  };
}
