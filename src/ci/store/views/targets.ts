/**
 * What `opgate report --target` and the dashboards' target page read: a target's newest run (target runs are kept
 * apart from the project's own, kind 'target') and that run's results on the target. Read from the newest target
 * run back until one ran the target (runs_by_start), then one run's results: the cost is the window, not the
 * history.
 */
import { type ResultsSource, SQL } from '../connection.ts';

export interface TargetRun {
  readonly runId: number;
  readonly commitSha: string;
  readonly startedAt: string;
  readonly tier: string;
}

export function latestTargetRun(db: ResultsSource, target: string): TargetRun | null {
  for (const r of db[SQL]
    .prepare(
      `SELECT run_id AS runId, commit_sha AS commitSha, started_at AS startedAt, tier, filters FROM runs
       WHERE kind = 'target' ORDER BY started_at DESC, run_id DESC`,
    )
    .iterate() as Iterable<TargetRun & { filters: string }>) {
    const devices = (JSON.parse(r.filters) as { device?: string[] }).device ?? [];
    if (devices.includes(target))
      return { runId: r.runId, commitSha: r.commitSha, startedAt: r.startedAt, tier: r.tier };
  }
  return null;
}

export interface TargetResultRow {
  readonly id: string;
  readonly op: string;
  readonly dtype: string;
  readonly status: string;
  readonly message: string | null;
  readonly sample: number | null;
}

/** One run's results on one target. */
export function targetResults(db: ResultsSource, runId: number, target: string): TargetResultRow[] {
  return db[SQL]
    .prepare(
      `SELECT id, op, dtype, status, message, sample FROM results WHERE run_id = ? AND device = ? ORDER BY op, dtype`,
    )
    .all(runId, target) as TargetResultRow[];
}
