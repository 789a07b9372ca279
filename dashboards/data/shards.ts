/**
 * View 5, shards & time: for one commit, each shard's wall time and summed instance time (the balance the
 * duration-based sharding aims for), the time to signal (first shard start to last shard end), the slowest
 * instances; and time to signal over recent commits.
 */
import {
  type CommitTimeRow,
  commitTimes,
  recentCommits,
  shardRuns,
  slowestResults,
} from '../../src/ci/index.ts';
import type { ReadDb } from './db.ts';
import { CommitMemo } from './memo.ts';

/** A commit's shard runs and slowest results (a sum and a sort over its results), per commit stamp (memo.ts). */
const PER_COMMIT = new CommitMemo<{
  runs: ReturnType<typeof shardRuns>;
  slowest: ReturnType<typeof slowestResults>;
}>(50);

export interface ShardRow {
  readonly shard: string;
  /** The devices the run was limited to (CI runs one device per job), or null for all. */
  readonly devices: string | null;
  /** The run's status (RunStatus): a run whose process died reads 'aborted'. */
  readonly status: string;
  readonly wallS: number | null;
  readonly testS: number;
  readonly instances: number;
}

export interface ShardsData {
  readonly sha: string | null;
  readonly shards: readonly ShardRow[];
  /** Slowest shard's summed instance time over its group's mean (worst group): 1 is perfect balance. */
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
  /** Time to signal over the newest commits (empty in a per-commit document: the view reads data/shards.json's). */
  readonly history: readonly { sha: string; at: string; timeToSignalS: number | null; shards: number }[];
}

const seconds = (from: string, to: string | null) =>
  to === null ? null : Math.max(0, (Date.parse(to) - Date.parse(from)) / 1000);

export function shardsData(db: ReadDb, sha?: string, historyLimit = 50): ShardsData {
  const commit = sha ?? recentCommits(db, 1)[0]?.sha ?? null;
  const { runs, slowest } =
    commit === null
      ? { runs: shardRuns(db, null), slowest: slowestResults(db, null, 25) }
      : PER_COMMIT.one(db, commit, () => ({
          runs: shardRuns(db, commit),
          slowest: slowestResults(db, commit, 25),
        }));
  const shards = runs
    .map((r) => ({
      shard: r.shard,
      devices: r.devices ? (JSON.parse(r.devices) as string[]).join(',') : null,
      status: r.status,
      wallS: seconds(r.startedAt, r.endedAt),
      testS: r.testMs / 1000,
      instances: r.instances,
    }))
    .sort(
      (a, b) =>
        (a.devices ?? '').localeCompare(b.devices ?? '') ||
        Number(a.shard.split('/')[0]) - Number(b.shard.split('/')[0]),
    );
  // Balance is per group of shards that split one selection (CI shards each device separately).
  const groups = new Map<string, number[]>();
  for (const x of shards) groups.set(x.devices ?? '', [...(groups.get(x.devices ?? '') ?? []), x.testS]);
  const ratios = [...groups.values()].map((g) => {
    const mean = g.reduce((a, b) => a + b, 0) / g.length;
    return mean > 0 ? Math.max(...g) / mean : 1;
  });
  const point = (h: CommitTimeRow) => ({
    sha: h.sha,
    at: h.at,
    shards: h.shards,
    timeToSignalS: h.open ? null : seconds(h.at, h.endedAt),
  });
  const history = historyLimit > 0 ? commitTimes(db, historyLimit).reverse().map(point) : [];
  const open = shards.some((s) => s.wallS === null);
  const last = commit ? commitTimes(db, 1, commit).map(point)[0] : undefined;
  return {
    sha: commit,
    shards,
    imbalance: ratios.length ? Math.max(...ratios) : null,
    timeToSignalS: open ? null : (last?.timeToSignalS ?? null),
    slowest,
    history,
  };
}
