/**
 * Shard planning by historical duration: instances are grouped into units (one per op and device, split when a
 * unit alone would exceed `maxUnitMs`), each unit's time is the sum of its instances' median durations in the
 * results store (an estimate from samples × dtype cost when an instance has no history), and units are placed
 * longest first onto the least loaded shard (LPT, within 4/3 of optimal). Ties break by unit key, so every
 * shard job computes the same plan from the same database.
 */

import { CiError } from '../errors.ts';
import type { MatrixInstance } from '../matrix.ts';

export interface Unit {
  readonly key: string;
  readonly ids: readonly string[];
  readonly ms: number;
  /** Instances whose time is an estimate (no history). */
  readonly estimated: number;
}

export interface ShardPlan {
  readonly shards: readonly {
    readonly index: number;
    readonly ms: number;
    readonly units: readonly Unit[];
  }[];
  /** max / mean of the planned shard times (1 = perfectly balanced). */
  readonly imbalance: number;
  readonly totalMs: number;
  readonly estimated: number;
}

export type Durations = ReadonlyMap<string, number>;

export interface PlanOptions {
  readonly shards: number;
  /** Units larger than this are split (default: a quarter of a shard's fair share). */
  readonly maxUnitMs?: number;
  /** Time of an instance without history. */
  readonly estimate: (inst: MatrixInstance) => number;
}

export function makeUnits(instances: readonly MatrixInstance[], history: Durations, o: PlanOptions): Unit[] {
  const groups = new Map<string, MatrixInstance[]>();
  for (const i of instances) {
    const key = `${i.op}@${i.device}`;
    const g = groups.get(key);
    if (g) g.push(i);
    else groups.set(key, [i]);
  }
  const timeOf = (i: MatrixInstance) => history.get(i.id) ?? o.estimate(i);
  const total = instances.reduce((s, i) => s + timeOf(i), 0);
  const limit = o.maxUnitMs ?? Math.max(total / o.shards / 4, 1);
  const units: Unit[] = [];
  for (const [key, members] of groups) {
    let ids: string[] = [];
    let ms = 0;
    let estimated = 0;
    let part = 0;
    const close = () => {
      if (ids.length) units.push({ key: part ? `${key}#${part}` : key, ids, ms, estimated });
      part++;
      ids = [];
      ms = 0;
      estimated = 0;
    };
    for (const i of members) {
      const t = timeOf(i);
      if (ids.length && ms + t > limit) close();
      ids.push(i.id);
      ms += t;
      if (!history.has(i.id)) estimated++;
    }
    close();
  }
  return units;
}

/** Longest processing time first onto the least loaded shard. */
export function planShards(units: readonly Unit[], shards: number): ShardPlan {
  if (!Number.isInteger(shards) || shards < 1)
    throw new CiError('E_INVALID_ARGUMENT', `--shards must be a positive integer, got ${shards}`);
  const bins = Array.from({ length: shards }, (_, index) => ({
    index: index + 1,
    ms: 0,
    units: [] as Unit[],
  }));
  const sorted = [...units].sort((a, b) => b.ms - a.ms || (a.key < b.key ? -1 : 1));
  for (const u of sorted) {
    let best = bins[0];
    for (const b of bins) if (b.ms < best.ms) best = b;
    best.units.push(u);
    best.ms += u.ms;
  }
  const totalMs = bins.reduce((s, b) => s + b.ms, 0);
  const mean = totalMs / shards;
  return {
    shards: bins,
    imbalance: mean > 0 ? Math.max(...bins.map((b) => b.ms)) / mean : 1,
    totalMs,
    estimated: units.reduce((s, u) => s + u.estimated, 0),
  };
}

/** Parses `i/N` (1-based). */
export function parseShard(spec: string): { index: number; count: number } {
  const m = /^(\d+)\/(\d+)$/.exec(spec.trim());
  const index = m ? Number(m[1]) : Number.NaN;
  const count = m ? Number(m[2]) : Number.NaN;
  if (!m || count < 1 || index < 1 || index > count)
    throw new CiError('E_INVALID_ARGUMENT', `--shard: got '${spec}', expected i/N with 1 <= i <= N`);
  return { index, count };
}
