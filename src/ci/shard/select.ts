/**
 * `opgate run --shard i/N`: one shard of a selection, planned from history. Both take instances the caller has
 * already expanded: a run plans from its one expansion.
 */
import { existsSync } from 'node:fs';
import type { MatrixInstance } from '../matrix.ts';
import { estimator, sampleCounter } from './estimate.ts';
import { loadDurations } from './history.ts';
import { makeUnits, parseShard, planShards, type ShardPlan } from './plan.ts';

export function planFor(instances: readonly MatrixInstance[], shards: number, db: string | null): ShardPlan {
  const history = db && existsSync(db) ? loadDurations(db) : new Map<string, number>();
  const units = makeUnits(instances, history, { shards, estimate: estimator(sampleCounter()) });
  return planShards(units, shards);
}

/** The instances of shard `spec` (`i/N`) of `instances`, in their given order. */
export function shardOf(
  instances: readonly MatrixInstance[],
  spec: string,
  db: string | null,
): MatrixInstance[] {
  const { index, count } = parseShard(spec);
  const ids = new Set(planFor(instances, count, db).shards[index - 1].units.flatMap((u) => u.ids));
  return instances.filter((i) => ids.has(i.id));
}
