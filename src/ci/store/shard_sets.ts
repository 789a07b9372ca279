/**
 * Shard sets: the shards of one sharded run plan one partition. The first shard to plan a set stores it under
 * the set's id (in one IMMEDIATE transaction: the others wait, then read it back), so a shard started while
 * another shard of its set writes the same file, or after it, runs exactly its part. Separate shard files
 * each store the plan they computed; `merge` copies it and records a conflict when two shards of one set
 * planned different partitions. `verifyShardSet` holds a set's runs to its plan.
 */
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { type ResultsSource, SQL, type Sql } from './connection.ts';
import { isComplete } from './liveness.ts';
import { runById, type StoredRun } from './runs.ts';
import type { ResultsStore } from './store.ts';

export interface ShardSetPlan {
  readonly setId: string;
  readonly shards: number;
  /** sha256 of the set's selection (sorted ids). */
  readonly selectionDigest: string;
  /** sha256 of the partition. */
  readonly planDigest: string;
  /** Per shard (index 0 is shard 1/N), its instance ids. */
  readonly parts: readonly (readonly string[])[];
  /** A merged shard database that planned this set differently: what it was. */
  readonly conflict: string | null;
}

/** sha256 (hex) of a list of ids, order-insensitive. */
export const digestIds = (ids: readonly string[]): string =>
  createHash('sha256')
    .update([...ids].sort().join('\n'))
    .digest('hex');

/** sha256 of a partition (each part order-insensitive, parts in shard order). */
export const digestParts = (parts: readonly (readonly string[])[]): string =>
  createHash('sha256')
    .update(parts.map((p) => digestIds(p)).join('|'))
    .digest('hex');

interface Row {
  set_id: string;
  shards: number;
  selection_digest: string;
  plan_digest: string;
  plan: Buffer;
  conflict: string | null;
}

const fromRow = (r: Row): ShardSetPlan => ({
  setId: r.set_id,
  shards: r.shards,
  selectionDigest: r.selection_digest,
  planDigest: r.plan_digest,
  parts: JSON.parse(gunzipSync(r.plan).toString('utf8')) as string[][],
  conflict: r.conflict,
});

const rowOf = (db: Sql, setId: string) =>
  db.prepare('SELECT * FROM shard_sets WHERE set_id = ?').get(setId) as Row | undefined;

export function shardSetPlan(src: ResultsSource, setId: string): ShardSetPlan | null {
  const r = rowOf(src[SQL], setId);
  return r ? fromRow(r) : null;
}

/**
 * The set's stored plan, or the one `compute` makes, stored: under the write lock, so shards of one set that
 * plan at once all get the first one's partition.
 */
export function claimShardSet(
  store: ResultsStore,
  setId: string,
  compute: () => { readonly selectionDigest: string; readonly parts: readonly (readonly string[])[] },
): ShardSetPlan {
  const db = store[SQL];
  return store.write('plan shard set', () => {
    const there = rowOf(db, setId);
    if (there) return fromRow(there);
    const { selectionDigest, parts } = compute();
    const plan: Row = {
      set_id: setId,
      shards: parts.length,
      selection_digest: selectionDigest,
      plan_digest: digestParts(parts),
      plan: gzipSync(JSON.stringify(parts)),
      conflict: null,
    };
    db.prepare(
      `INSERT INTO shard_sets (set_id, shards, selection_digest, plan_digest, plan, created_at, conflict)
       VALUES (@set_id, @shards, @selection_digest, @plan_digest, @plan, @created_at, NULL)`,
    ).run({ ...plan, created_at: new Date().toISOString() });
    return fromRow(plan);
  });
}

/**
 * `merge`: copies a source's shard-set rows into `db` (inside the merge's transaction). A set already there
 * with another partition is a conflict: recorded on the target's row, so `verify` fails on it.
 */
export function copyShardSets(db: Sql, source: Sql, sourcePath: string): void {
  const insert = db.prepare(
    `INSERT INTO shard_sets (set_id, shards, selection_digest, plan_digest, plan, created_at, conflict)
     VALUES (@set_id, @shards, @selection_digest, @plan_digest, @plan, @created_at, @conflict)`,
  );
  const conflict = db.prepare('UPDATE shard_sets SET conflict = ? WHERE set_id = ? AND conflict IS NULL');
  for (const r of source.prepare('SELECT * FROM shard_sets').iterate() as Iterable<
    Row & { created_at: string }
  >) {
    const there = rowOf(db, r.set_id);
    if (!there) insert.run(r);
    else if (there.plan_digest !== r.plan_digest || there.selection_digest !== r.selection_digest)
      conflict.run(
        `${sourcePath} planned shard set ${r.set_id} differently (plan ${r.plan_digest.slice(0, 12)} vs ${there.plan_digest.slice(0, 12)})`,
        r.set_id,
      );
  }
}

/** The runs of a shard set, oldest first. */
export function runsOfShardSet(src: ResultsSource, setId: string): StoredRun[] {
  const ids = src[SQL]
    .prepare('SELECT run_id FROM runs WHERE shard_set = ? ORDER BY run_id')
    .pluck()
    .all(setId) as number[];
  return ids.map((id) => runById(src, id)!);
}

/** The shard sets of the newest `commits` commits' runs (what `verify` checks by default). */
export function recentShardSets(src: ResultsSource, commits = 1): string[] {
  return src[SQL]
    .prepare(
      `SELECT DISTINCT shard_set FROM runs WHERE shard_set IS NOT NULL AND commit_sha IN (
         SELECT commit_sha FROM runs GROUP BY commit_sha ORDER BY MAX(run_id) DESC LIMIT ?)
       ORDER BY shard_set`,
    )
    .pluck()
    .all(commits) as string[];
}

export interface ShardSetVerdict {
  readonly setId: string;
  readonly shards: number;
  readonly instances: number;
  /** Empty when the set's runs are exactly its selection. */
  readonly problems: readonly string[];
}

/**
 * A shard set's runs against its plan: every shard has a complete run (its newest one counts), each holds
 * exactly its part (nothing missing, nothing extra, no id twice), and no shard database planned differently.
 */
export function verifyShardSet(src: ResultsSource, setId: string): ShardSetVerdict {
  const plan = shardSetPlan(src, setId);
  if (!plan) return { setId, shards: 0, instances: 0, problems: [`no stored plan for shard set ${setId}`] };
  const problems: string[] = [];
  if (plan.conflict) problems.push(`the shards planned different partitions: ${plan.conflict}`);
  const all = plan.parts.flat();
  if (new Set(all).size !== all.length) problems.push('the stored plan places an instance in two shards');
  const runs = runsOfShardSet(src, setId);
  const ids = src[SQL].prepare('SELECT id FROM results WHERE run_id = ?').pluck();
  plan.parts.forEach((part, k) => {
    const spec = `${k + 1}/${plan.shards}`;
    const run = runs.filter((r) => r.shard === spec).at(-1);
    if (!run) {
      problems.push(`shard ${spec}: no run`);
      return;
    }
    if (!isComplete(run.status)) problems.push(`shard ${spec}: run ${run.runId} is ${run.status}`);
    const got = ids.all(run.runId) as string[];
    const want = new Set(part);
    const have = new Set(got);
    const missing = part.filter((id) => !have.has(id));
    const extra = got.filter((id) => !want.has(id));
    if (missing.length)
      problems.push(
        `shard ${spec}: ${missing.length} planned instance(s) without a result (${missing[0]}, ...)`,
      );
    if (extra.length)
      problems.push(`shard ${spec}: ${extra.length} result(s) outside its part (${extra[0]}, ...)`);
  });
  return { setId, shards: plan.shards, instances: all.length, problems };
}
