/**
 * Reading runs and their results back, for the writer and the read-only reader alike: a run's status is the
 * one readers see (a run whose process died reads 'aborted', see liveness.ts).
 */
import { type ResultsSource, SQL } from './connection.ts';
import { effectiveStatus, type RunStatus } from './liveness.ts';

export type ResultStatus = 'pass' | 'fail' | 'skip' | 'xfail' | 'xpass' | 'flaky' | 'error';

export interface ResultRow {
  readonly id: string;
  readonly op: string;
  readonly oracle: string;
  readonly device: string;
  readonly dtype: string;
  readonly layout: string;
  readonly mode: string;
  readonly status: ResultStatus;
  readonly durationMs: number;
  readonly attempts: number;
  readonly message: string | null;
  readonly sample: number | null;
  readonly seed: number | null;
  readonly checks: number;
  /** rerun-disabled runs: how many of the reruns passed / failed. */
  readonly rerunPasses?: number | null;
  readonly rerunFailures?: number | null;
  /** The largest error of a floating output in ulps of its dtype (the golden oracle); null when not measured. */
  readonly maxUlp?: number | null;
}

/** A runs row; `status` as readers see it. */
export interface StoredRun {
  readonly runId: number;
  readonly commitSha: string;
  readonly branch: string;
  readonly platform: string;
  readonly shard: string;
  readonly tier: string;
  readonly filters: string;
  readonly kind: string;
  readonly status: RunStatus;
  readonly startedAt: string;
  readonly endedAt: string | null;
  readonly pid: number | null;
  readonly host: string | null;
  readonly heartbeatAt: string | null;
  /** The shard set of a sharded run (null for runs before sets, or unsharded). */
  readonly shardSet: string | null;
}

/** A runs row (SELECT *) as a StoredRun; columns added by later migrations read as their default in older files. */
function toRun(r: Record<string, unknown>): StoredRun {
  return {
    runId: r.run_id as number,
    commitSha: r.commit_sha as string,
    branch: r.branch as string,
    platform: r.platform as string,
    shard: r.shard as string,
    tier: r.tier as string,
    filters: r.filters as string,
    kind: (r.kind as string | undefined) ?? 'normal',
    status: r.status as RunStatus,
    startedAt: r.started_at as string,
    endedAt: (r.ended_at as string | null) ?? null,
    pid: (r.pid as number | null | undefined) ?? null,
    host: (r.host as string | null | undefined) ?? null,
    heartbeatAt: (r.heartbeat_at as string | null | undefined) ?? null,
    shardSet: (r.shard_set as string | null | undefined) ?? null,
  };
}

const RESULT_COLUMNS = `id, op, oracle, device, dtype, layout, mode, status, duration_ms AS durationMs, attempts, message,
  sample, seed, checks, max_ulp AS maxUlp`;

/** RESULT_COLUMNS and a rerun-disabled run's counts: every stored field of a ResultRow. */
export const STORED_RESULT_COLUMNS = `${RESULT_COLUMNS}, rerun_passes AS rerunPasses, rerun_failures AS rerunFailures`;

const seen = (r: StoredRun): StoredRun => ({ ...r, status: effectiveStatus(r) });

export function runById(src: ResultsSource, runId: number): StoredRun | null {
  const r = src[SQL].prepare('SELECT * FROM runs WHERE run_id = ?').get(runId) as
    | Record<string, unknown>
    | undefined;
  return r ? seen(toRun(r)) : null;
}

/** Every run, oldest first. */
export function allRuns(src: ResultsSource): StoredRun[] {
  return (src[SQL].prepare('SELECT * FROM runs ORDER BY run_id').all() as Record<string, unknown>[]).map(
    (r) => seen(toRun(r)),
  );
}

export function resultsOf(src: ResultsSource, runId: number): ResultRow[] {
  return src[SQL]
    .prepare(`SELECT ${RESULT_COLUMNS} FROM results WHERE run_id = ? ORDER BY id`)
    .all(runId) as ResultRow[];
}

/** An instance's result in the newest run that has one, with its rerun counts. */
export function latestResultOf(src: ResultsSource, id: string): (ResultRow & { runId: number }) | null {
  const r = src[SQL]
    .prepare(
      `SELECT run_id AS runId, ${STORED_RESULT_COLUMNS}
     FROM results WHERE id = @id AND run_id = (
       SELECT u.run_id FROM instances i CROSS JOIN runs u CROSS JOIN result_rows r
       WHERE i.id = @id AND r.run_id = u.run_id AND r.inst = i.inst ORDER BY u.run_id DESC LIMIT 1)`,
    )
    .get({ id }) as (ResultRow & { runId: number }) | undefined;
  return r ?? null;
}

export function lastRunIdOf(src: ResultsSource): number | null {
  return (src[SQL].prepare('SELECT MAX(run_id) FROM runs').pluck().get() as number | null) ?? null;
}

/** A run's wall time in seconds (null while it has no end). */
export function wallSeconds(src: ResultsSource, runId: number): number | null {
  return (
    (src[SQL]
      .prepare('SELECT (julianday(ended_at) - julianday(started_at)) * 86400 FROM runs WHERE run_id = ?')
      .pluck()
      .get(runId) as number | null | undefined) ?? null
  );
}
