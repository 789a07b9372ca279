/**
 * What every dashboard view asks of the runs table: which runs count for a commit, the newest commits, and a
 * run's status as readers see it.
 */

import { type ResultsSource, SQL } from '../connection.ts';
import { runStatusSql } from '../liveness.ts';

/** A run's status as readers see it (`u` is the runs table): a run whose process died reads 'aborted'. */
export const RUN_STATUS = runStatusSql('u');

/**
 * A run's job: what it was asked to run (shard, tier, platform and its filters, e.g. CI's `--device cpu`), not
 * where its temporary id files lived.
 */
const JOB_OF_RUN = `shard, tier, platform, json_remove(filters, '$.idsFile', '$.priorityFile', '$.disabledFile', '$.reruns')`;

/**
 * The runs that count for a commit: normal (not rerun-disabled) runs, the latest one per job, so a re-run of a
 * job replaces its earlier attempt while the other devices' runs of the same shard number stay. Correlated with
 * the outer runs row `u` (`u.run_id IN (LATEST_RUNS)`): it reads only that row's commit's runs (runs_by_commit),
 * so its cost follows the commits asked about, not the history.
 */
export const LATEST_RUNS = `SELECT MAX(run_id) AS run_id FROM runs
  WHERE kind = 'normal' AND commit_sha = u.commit_sha GROUP BY ${JOB_OF_RUN}`;

export interface CommitRow {
  readonly sha: string;
  readonly branch: string;
  readonly startedAt: string;
}

/**
 * The newest `limit` commits with normal runs, newest first: ordered by their latest run's start, then their
 * latest run id. Read from the newest run back (runs_by_start) until `limit` commits are seen and the next run
 * started strictly earlier than the last of them, so the cost follows the window, not the history; the
 * candidates' order is then settled on their own runs (runs_by_commit).
 */
export function recentCommits(db: ResultsSource, limit: number): CommitRow[] {
  if (limit <= 0) return [];
  const sql = db[SQL];
  const seen = new Set<string>();
  let cutoff: string | null = null;
  for (const r of sql
    .prepare(`SELECT commit_sha AS sha, started_at AS at FROM runs WHERE kind = 'normal'
      ORDER BY started_at DESC, run_id DESC`)
    .iterate() as Iterable<{ sha: string; at: string }>) {
    if (cutoff !== null && r.at < cutoff) break;
    seen.add(r.sha);
    if (seen.size === limit && cutoff === null) cutoff = r.at;
  }
  return sql
    .prepare(
      `SELECT commit_sha AS sha, MAX(branch) AS branch, MIN(started_at) AS startedAt FROM runs
       WHERE kind = 'normal' AND commit_sha IN (SELECT value FROM json_each(?)) GROUP BY commit_sha
       ORDER BY MAX(started_at) DESC, MAX(run_id) DESC LIMIT ?`,
    )
    .all(JSON.stringify([...seen]), limit) as CommitRow[];
}

/** Every commit with a normal run. */
export function commitShas(db: ResultsSource): string[] {
  return db[SQL]
    .prepare(`SELECT DISTINCT commit_sha FROM runs WHERE kind = 'normal'`)
    .pluck()
    .all() as string[];
}

/** The shard specs run at a commit. */
export function shardsOfCommit(db: ResultsSource, sha: string): string[] {
  return db[SQL].prepare('SELECT DISTINCT shard FROM runs WHERE commit_sha = ?').pluck().all(sha) as string[];
}

/**
 * What a commit's documents are computed from: its runs, each with its status as readers see it and its last
 * write. Equal stamps, equal documents (the static build keeps a document whose stamp did not change).
 */
export function commitStamp(db: ResultsSource, sha: string): string {
  return commitStamps(db, [sha]).get(sha) ?? '';
}

/** commitStamp of each of `shas` in one query ('' for a commit with no runs). */
export function commitStamps(db: ResultsSource, shas: readonly string[]): Map<string, string> {
  const rows = db[SQL]
    .prepare(
      `SELECT u.commit_sha AS sha,
         group_concat(u.run_id || ' ' || ${RUN_STATUS} || ' ' || COALESCE(u.ended_at, u.heartbeat_at, u.started_at), ',' ORDER BY u.run_id) AS stamp
       FROM runs u WHERE u.commit_sha IN (SELECT value FROM json_each(?)) GROUP BY u.commit_sha`,
    )
    .all(JSON.stringify(shas)) as { sha: string; stamp: string }[];
  const out = new Map(shas.map((s) => [s, '']));
  for (const r of rows) out.set(r.sha, r.stamp);
  return out;
}
