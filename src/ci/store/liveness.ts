/**
 * Which runs are still going. A run's row says 'running' from its start until it ends, and a process killed
 * with SIGKILL (or a machine that died) never ends it: left alone, such a run would read as running for ever
 * and its dashboard cell would never turn red or green. The row carries its writer's pid and host and a
 * heartbeat, and this is the one place that turns them into the status every reader uses.
 */
import { hostname } from 'node:os';
import type Database from 'better-sqlite3';

/** A run's status. passed/failed: it ran to the end. interrupted: SIGINT/SIGTERM, ended by its process.
 * aborted: its process died without ending it (read so; `reapAborted` writes it). */
export type RunStatus = 'running' | 'passed' | 'failed' | 'interrupted' | 'aborted';

export const RUN_STATUSES: readonly RunStatus[] = ['running', 'passed', 'failed', 'interrupted', 'aborted'];

/** Ran to the end: the run's results are the whole selection. */
export const isComplete = (s: string): boolean => s === 'passed' || s === 'failed';

/** How often a running run's reporter writes its heartbeat, results or not (see OpgateReporter). */
export const HEARTBEAT_MS = 10_000;

/**
 * A running run on another host whose heartbeat is older than this has lost its process. Twelve heartbeats:
 * a busy event loop or a slow disk does not turn a live run into an aborted one.
 */
export const STALE_MS = 120_000;

export const THIS_HOST = hostname();

export interface RunLiveness {
  readonly status: string;
  readonly host: string | null;
  readonly pid: number | null;
  readonly heartbeatAt: string | null;
  readonly startedAt: string;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to another user.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The status a reader should show. On the writer's host the pid decides (a dead process ends its run at once);
 * elsewhere, or for rows written before runs recorded a pid, only the heartbeat (or the start) can.
 */
export function effectiveStatus(run: RunLiveness, now: number = Date.now()): RunStatus {
  if (run.status !== 'running') return run.status as RunStatus;
  if (run.host === THIS_HOST && run.pid !== null && Number.isInteger(run.pid) && run.pid > 0)
    return processAlive(run.pid) ? 'running' : 'aborted';
  const beat = Date.parse(run.heartbeatAt ?? run.startedAt);
  return now - beat > STALE_MS ? 'aborted' : 'running';
}

/**
 * Read-only readers (the dashboards) cannot reap, so they ask SQL: `opgate_run_status(status, host, pid,
 * heartbeat_at, started_at)` is `effectiveStatus` as an SQL function on that connection.
 */
export function defineRunStatusFunction(db: Database.Database): void {
  db.function(
    'opgate_run_status',
    { deterministic: false },
    (status: unknown, host: unknown, pid: unknown, heartbeatAt: unknown, startedAt: unknown) =>
      effectiveStatus({
        status: String(status),
        host: host === null ? null : String(host),
        pid: pid === null ? null : Number(pid),
        heartbeatAt: heartbeatAt === null ? null : String(heartbeatAt),
        startedAt: String(startedAt),
      }),
  );
}

/** The SQL call of `opgate_run_status` for the runs table under `alias`. */
export const runStatusSql = (alias: string): string =>
  `opgate_run_status(${alias}.status, ${alias}.host, ${alias}.pid, ${alias}.heartbeat_at, ${alias}.started_at)`;
