/** `opgate run --shard i/N`: the instance ids of one shard of the (filtered) tier, planned from history. */
import { existsSync } from 'node:fs';
import { expandMatrix, type Filters, type MatrixInstance, type Tier } from '../matrix.ts';
import { estimator, sampleCounter } from './estimate.ts';
import { loadDurations } from './history.ts';
import { makeUnits, parseShard, planShards, type ShardPlan } from './plan.ts';

export function planFor(
  tier: Tier,
  filters: Filters,
  shards: number,
  db: string | null,
): { plan: ShardPlan; instances: MatrixInstance[] } {
  const instances = expandMatrix(tier, filters);
  const history = db && existsSync(db) ? loadDurations(db) : new Map<string, number>();
  const units = makeUnits(instances, history, { shards, estimate: estimator(sampleCounter()) });
  return { plan: planShards(units, shards), instances };
}

export function shardIds(tier: Tier, filters: Filters, spec: string, db: string | null): string[] {
  const { index, count } = parseShard(spec);
  const { plan } = planFor(tier, filters, count, db);
  return plan.shards[index - 1].units.flatMap((u) => u.ids);
}
