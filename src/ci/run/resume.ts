/**
 * `opgate run --resume`: which earlier run to continue, and what it has left.
 *
 * A run matches when it was the same job on the same code: same commit, platform, tier, shard, kind (normal or
 * rerun-disabled) and filters (op, device, dtype, oracle, layout, mode, pattern, reruns; runs stored by older
 * versions also name temporary id/priority/disabled files, which are not part of the job). The newest matching run that
 * was aborted or interrupted is resumed. What it has left is its own plan (the ids it set out to run, stored
 * when it started) minus the ids it has results for: not a selection recomputed now, which could differ (a
 * shard plan reads the history, and the history now holds the partial run itself).
 */
import { CiError } from '../errors.ts';
import type { ResultRow, ResultsStore, RunInfo, StoredRun } from '../store/store.ts';

/** Filters keys naming temporary files (runs stored before the plan travelled in memory): not what it ran. */
const TEMP_KEYS = new Set(['idsFile', 'priorityFile', 'disabledFile']);

/** A canonical form of a run's filters: temporary paths dropped, keys and list values sorted. */
export function jobFilters(filters: string): string {
  const f = JSON.parse(filters) as Record<string, unknown>;
  const kept = Object.keys(f)
    .filter((k) => !TEMP_KEYS.has(k) && f[k] !== undefined && f[k] !== null)
    .sort()
    .map((k) => [k, Array.isArray(f[k]) ? [...(f[k] as unknown[])].map(String).sort() : f[k]]);
  return JSON.stringify(kept);
}

export interface ResumePoint {
  readonly run: StoredRun;
  /** The ids the run set out to run. */
  readonly planned: readonly string[];
  /** Planned ids without a result yet, in plan order. */
  readonly unfinished: readonly string[];
  /** The results it already has. */
  readonly done: readonly ResultRow[];
}

const describe = (r: Pick<RunInfo, 'commitSha' | 'tier' | 'shard' | 'kind'>) =>
  `commit ${r.commitSha.slice(0, 12)}, tier ${r.tier}, shard ${r.shard ?? '1/1'}, ${r.kind ?? 'normal'}`;

/** The run `--resume` continues (call `store.reapAborted()` first), or E_NOTHING_TO_RESUME. */
export function resumePoint(store: ResultsStore, info: RunInfo): ResumePoint {
  const job = jobFilters(info.filters ?? '{}');
  const candidates = store.resumableRuns();
  const run = candidates.find(
    (r) =>
      r.commitSha === info.commitSha &&
      r.platform === info.platform &&
      r.tier === info.tier &&
      r.shard === (info.shard ?? '1/1') &&
      r.kind === (info.kind ?? 'normal') &&
      jobFilters(r.filters) === job,
  );
  if (!run)
    throw new CiError(
      'E_NOTHING_TO_RESUME',
      `--resume: no aborted or interrupted run of ${describe(info)} with these filters on ${info.platform}` +
        ` (${candidates.length} resumable run(s) of other jobs)`,
    );
  const planned = store.plannedIds(run.runId) ?? [];
  const done = store.results(run.runId);
  const have = new Set(done.map((r) => r.id));
  return { run, planned, unfinished: planned.filter((id) => !have.has(id)), done };
}
