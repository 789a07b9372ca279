/**
 * Planning a run, once, in the main process: `planRun` validates the filters and expands them (the run's one
 * expansion), then narrows that selection by the run's steps (quarantine rerun, shard, target determination);
 * `toRunPlan` packs the result into the RunPlan the workers get. Nothing here writes a file.
 */
import type { Oracle } from '../../../op_db/index.ts';
import { type DisabledEntry, disabledBy, disabledMessage } from '../flaky/index.ts';
import { expandMatrix, type Filters, type MatrixInstance, type Tier } from '../matrix.ts';
import { emptySelection, selectInstances } from '../selection.ts';
import { type ShardRequest, shardOf } from '../shard/select.ts';
import { type Affected, affectedBy, changedFiles, isAffected } from '../td/index.ts';
import type { PlanEntry, RunPlan } from './channel.ts';
import { PACKAGE_ROOT } from './root.ts';
import { sliceOf, type TemplateSlice } from './slice.ts';

/** What a caller asks a run to run (the CLI's `opgate run` flags, already parsed). */
export interface RunRequest {
  readonly tier: Tier;
  readonly filters: Filters;
  /** A selection of 0 instances is returned instead of raising E_EMPTY_SELECTION. */
  readonly allowEmpty?: boolean;
  /** The quarantine list. */
  readonly disabled: readonly DisabledEntry[];
  /** Only the disabled instances (rerun-disabled mode). */
  readonly rerunDisabled?: boolean;
  /**
   * `i/N`, planned by the durations recorded in `history` (a results database; null: none); with `db`, the
   * shard set's one plan is claimed in the run's database (shard/select.ts).
   */
  readonly shard?: ShardRequest;
  /** Changed files (comma-separated) or a git range, and whether the affected run first or alone. */
  readonly changed?: { readonly spec: string; readonly mode: 'order' | 'select' };
  /** A resume runs what its stored run has left: the selection is not narrowed again. */
  readonly resume?: boolean;
}

export interface PlannedRun {
  /** The one expansion of the filters (where a resumed run finds what it has left). */
  readonly selection: readonly MatrixInstance[];
  /** What a new run runs, in run order. */
  readonly instances: readonly MatrixInstance[];
  /** Target determination's verdict, when `changed` was given. */
  readonly affected?: Affected;
  /** The shard set of a sharded run whose plan was stored. */
  readonly shardSet?: string | null;
}

/** Plans a run: validate and expand once, then narrow. An empty plan is E_EMPTY_SELECTION unless allowed. */
export function planRun(r: RunRequest): PlannedRun {
  const selection = selectInstances(r.tier, r.filters, { allowEmpty: r.allowEmpty === true });
  if (r.resume) return { selection, instances: selection };
  const affected = r.changed
    ? affectedBy(changedFiles(r.changed.spec, PACKAGE_ROOT), PACKAGE_ROOT)
    : undefined;
  const { instances, shardSet } = narrow(selection, {
    disabled: r.disabled,
    rerunDisabled: r.rerunDisabled,
    shard: r.shard,
    affected: affected && r.changed ? { by: affected, mode: r.changed.mode } : undefined,
  });
  // A shard, a TD selection or a quarantine rerun can leave nothing to run: never a stored pass.
  if (instances.length === 0 && !r.allowEmpty) throw emptySelection(r.tier, r.filters, narrowedBy(r));
  return { selection, instances, affected, shardSet };
}

/** What narrowed a run's selection beyond its filters, for the empty-selection message. */
function narrowedBy(r: RunRequest): string {
  const by = [
    r.shard ? `shard ${r.shard.spec}` : null,
    r.changed ? `the instances --changed affects` : null,
    r.rerunDisabled ? 'the disabled instances' : null,
  ].filter(Boolean);
  return by.length ? `the selection (${by.join(', ')})` : 'the selection';
}

export interface Narrowing {
  /** The quarantine list. */
  readonly disabled: readonly DisabledEntry[];
  /** `--rerun-disabled`: only the disabled instances. */
  readonly rerunDisabled?: boolean;
  /** `--shard i/N`, planned from the durations in `history` (a results database). */
  readonly shard?: ShardRequest;
  /** `--changed` with `--td select` (only the affected) or `--td order` (the affected first). */
  readonly affected?: { readonly by: Affected; readonly mode: 'order' | 'select' };
}

/** The instances a run runs, in run order, and the shard set it belongs to. */
export function narrow(
  selection: readonly MatrixInstance[],
  n: Narrowing,
): { instances: MatrixInstance[]; shardSet: string | null } {
  let out = n.rerunDisabled ? selection.filter((i) => disabledBy(n.disabled, i)) : [...selection];
  let shardSet: string | null = null;
  if (n.shard) ({ instances: out, setId: shardSet } = shardOf(out, n.shard));
  if (n.affected) {
    const by = n.affected.by;
    const hit = out.filter((i) => isAffected(i, by));
    out = n.affected.mode === 'select' ? hit : [...hit, ...out.filter((i) => !isAffected(i, by))];
  }
  return { instances: out, shardSet };
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
 * `npm test` (vitest without `opgate run`) provides no plan: each template file plans its oracle's instances of
 * the tier itself, with no quarantine: the stratified slice (slice.ts) unless `slice` is full.
 */
export function oraclePlan(tier: Tier, oracle: Oracle, slice: TemplateSlice = 'full'): RunPlan {
  return toRunPlan(sliceOf(expandMatrix(tier, { oracle: [oracle] }), slice), [], 0);
}
