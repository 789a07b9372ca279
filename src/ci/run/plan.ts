/**
 * Planning a run, once, in the main process: the caller's one expansion of the filters is narrowed by the
 * run's steps (quarantine rerun, shard, target determination) and packed into the RunPlan the workers get.
 * Nothing here expands the matrix again or writes a file.
 */
import type { Oracle } from '../../../op_db/index.ts';
import { type DisabledEntry, disabledBy, disabledMessage } from '../flaky/index.ts';
import { expandMatrix, type MatrixInstance, type Tier } from '../matrix.ts';
import { shardOf } from '../shard/select.ts';
import { type Affected, isAffected } from '../td/index.ts';
import type { PlanEntry, RunPlan } from './channel.ts';

export interface Narrowing {
  /** The quarantine list. */
  readonly disabled: readonly DisabledEntry[];
  /** `--rerun-disabled`: only the disabled instances. */
  readonly rerunDisabled?: boolean;
  /** `--shard i/N`, planned from the durations in `history` (a results database). */
  readonly shard?: { readonly spec: string; readonly history: string | null };
  /** `--changed` with `--td select` (only the affected) or `--td order` (the affected first). */
  readonly affected?: { readonly by: Affected; readonly mode: 'order' | 'select' };
}

/** The instances a run runs, in run order. */
export function narrow(selection: readonly MatrixInstance[], n: Narrowing): MatrixInstance[] {
  let out = n.rerunDisabled ? selection.filter((i) => disabledBy(n.disabled, i)) : [...selection];
  if (n.shard) out = shardOf(out, n.shard.spec, n.shard.history);
  if (n.affected) {
    const by = n.affected.by;
    const hit = out.filter((i) => isAffected(i, by));
    out = n.affected.mode === 'select' ? hit : [...hit, ...out.filter((i) => !isAffected(i, by))];
  }
  return out;
}

/** Packs instances into the plan the workers get; `reruns` > 0 is rerun-disabled mode (no quarantine skips). */
export function toRunPlan(
  instances: readonly MatrixInstance[],
  disabled: readonly DisabledEntry[],
  reruns: number,
): RunPlan {
  const oracles: Partial<Record<Oracle, PlanEntry[]>> = {};
  const off: Record<string, string> = {};
  for (const i of instances) {
    oracles[i.oracle] ??= [];
    oracles[i.oracle]?.push([i.op, i.device, i.dtype, i.layout]);
    const entry = reruns ? null : disabledBy(disabled, i);
    if (entry) off[i.id] = disabledMessage(entry);
  }
  return { oracles, disabled: off, reruns };
}

/**
 * `npm test` (vitest without `opgate run`) provides no plan: each template file plans its oracle's slice of
 * the tier itself, with no quarantine, as it always has.
 */
export function oraclePlan(tier: Tier, oracle: Oracle): RunPlan {
  return toRunPlan(expandMatrix(tier, { oracle: [oracle] }), [], 0);
}
