/**
 * The dashboards read the results store and never write it: the file is opened read-only (a running
 * `opgate run` can keep writing to it in WAL mode), and must already exist at the current schema version.
 * A reader cannot write 'aborted' into a run whose process died, so the connection gets ci's
 * `opgate_run_status(...)` function and every query that asks whether a run is going reads RUN_STATUS.
 */
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { defineRunStatusFunction, runStatusSql, SCHEMA_VERSION } from '../../src/ci/index.ts';
import { DashboardError } from '../errors.ts';

export type ReadDb = Database.Database;

export function openReadOnly(path: string): ReadDb {
  if (!existsSync(path))
    throw new DashboardError(
      'E_DB_NOT_FOUND',
      `--db: no results database at ${path} (expected a file written by \`opgate run\` or \`opgate merge\`)`,
    );
  const db = new Database(path, { readonly: true, fileMustExist: true });
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    db.close();
    throw new DashboardError(
      'E_DB_SCHEMA',
      `--db: ${path} is at schema version ${version}, newer than this opgate's ${SCHEMA_VERSION} (it was written by a newer opgate: upgrade opgate to read it)`,
    );
  }
  if (version !== SCHEMA_VERSION) {
    db.close();
    throw new DashboardError(
      'E_DB_SCHEMA',
      `--db: ${path} is at schema version ${version}, expected ${SCHEMA_VERSION} (open it once with this opgate's writer, e.g. \`npx opgate flaky list --db ${path}\`, which migrates it in place)`,
    );
  }
  defineRunStatusFunction(db);
  return db;
}

/** A run's status as readers see it (`u` is the runs table): a run whose process died reads 'aborted'. */
export const RUN_STATUS = runStatusSql('u');

/** `?, ?, ?` for an IN list. */
export const marks = (n: number): string => Array.from({ length: n }, () => '?').join(', ');

/**
 * A run's job: what it was asked to run (shard, tier, platform and its filters, e.g. CI's `--device cpu`), not
 * where its temporary id files lived.
 */
export const JOB_OF_RUN = `shard, tier, platform, json_remove(filters, '$.idsFile', '$.priorityFile', '$.disabledFile', '$.reruns')`;

/**
 * The runs that count for a commit: normal (not rerun-disabled) runs, the latest one per job, so a re-run of a
 * job replaces its earlier attempt while the other devices' runs of the same shard number stay.
 */
export const LATEST_RUNS = `SELECT MAX(run_id) AS run_id FROM runs WHERE kind = 'normal' GROUP BY commit_sha, ${JOB_OF_RUN}`;

/** The newest `limit` commits with normal runs, newest first. */
export function recentCommits(
  db: ReadDb,
  limit: number,
): { sha: string; branch: string; startedAt: string }[] {
  return db
    .prepare(
      `SELECT commit_sha AS sha, MAX(branch) AS branch, MIN(started_at) AS startedAt FROM runs
       WHERE kind = 'normal' GROUP BY commit_sha ORDER BY MAX(started_at) DESC, MAX(run_id) DESC LIMIT ?`,
    )
    .all(limit) as { sha: string; branch: string; startedAt: string }[];
}
