/**
 * `opgate run --shard i/N`: one shard of a selection, planned from history. Both take instances the caller has
 * already expanded: a run plans from its one expansion.
 *
 * One plan per shard set: a sharded run that writes a results database claims its set's partition there
 * (store/shard_sets.ts): the first shard of the set to plan stores it, and every other shard of the set reads it
 * back, whatever the shards have written meanwhile. Shards writing separate files each plan from the same
 * history, which holds complete runs only (history.ts), so they compute the same partition too; `merge`
 * records a disagreement and `opgate verify` fails on it.
 */

import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { CiError } from '../errors.ts';
import type { MatrixInstance } from '../matrix.ts';
import { claimShardSet, digestIds } from '../store/shard_sets.ts';
import { ResultsStore } from '../store/store.ts';
import { estimator, sampleCounter } from './estimate.ts';
import { loadDurations } from './history.ts';
import { makeUnits, parseShard, planShards, type ShardPlan } from './plan.ts';

export function planFor(instances: readonly MatrixInstance[], shards: number, db: string | null): ShardPlan {
  const history = db && existsSync(db) ? loadDurations(db) : new Map<string, number>();
  const units = makeUnits(instances, history, { shards, estimate: estimator(sampleCounter()) });
  return planShards(units, shards);
}

/** Where a shard's plan comes from. */
export interface ShardRequest {
  /** `i/N`. */
  readonly spec: string;
  /** The results database with the duration history (null: none, every time estimated). */
  readonly history: string | null;
  /** The results database the run writes: the set's plan is claimed there (absent: planned, not stored). */
  readonly db?: string;
  /** The shard set's id (absent: `defaultShardSet`). */
  readonly setId?: string;
  /** The commit the run tests, part of the default set id. */
  readonly commit?: string;
}

/**
 * The default id of a shard set: the same for every shard of one sharded job and different for another job:
 * a digest of the commit, the shard count and the selection's digest (which holds the tier and filters), prefixed by
 * the GitHub Actions run when there is one (a re-run attempt of a shard job keeps it).
 */
export function defaultShardSet(count: number, selectionDigest: string, commit = ''): string {
  const gh = process.env.GITHUB_RUN_ID ? `gh${process.env.GITHUB_RUN_ID}-` : '';
  const digest = createHash('sha256').update(`${commit}\n${count}\n${selectionDigest}`).digest('hex');
  return `${gh}${digest.slice(0, 16)}`;
}

export interface Shard {
  readonly instances: MatrixInstance[];
  /** The shard set the run belongs to (null when the plan was not stored). */
  readonly setId: string | null;
}

/** The instances of shard `spec` of `instances`, in their given order, with its shard set. */
export function shardOf(instances: readonly MatrixInstance[], r: ShardRequest): Shard {
  const { index, count } = parseShard(r.spec);
  const ids = instances.map((i) => i.id);
  const selectionDigest = digestIds(ids);
  const compute = () => ({
    selectionDigest,
    parts: planFor(instances, count, r.history).shards.map((s) => s.units.flatMap((u) => u.ids)),
  });
  let parts: readonly (readonly string[])[];
  let setId: string | null = null;
  if (r.db) {
    setId = r.setId ?? defaultShardSet(count, selectionDigest, r.commit);
    const store = new ResultsStore(r.db);
    try {
      const plan = claimShardSet(store, setId, compute);
      if (plan.shards !== count || plan.selectionDigest !== selectionDigest)
        throw new CiError(
          'E_SHARD_SET_MISMATCH',
          `--shard-set ${setId}: ${r.db} holds its plan for ${plan.shards} shard(s) of another selection; this run has ${count} shard(s) of ${ids.length} instances (a shard set id names one sharded job)`,
        );
      parts = plan.parts;
    } finally {
      store.close();
    }
  } else parts = compute().parts;
  const mine = new Set(parts[index - 1]);
  return { instances: instances.filter((i) => mine.has(i.id)), setId };
}
