/**
 * Test search: the instance ids the store knows, and their outcomes per commit over the shown commits, for every
 * id (the static site's document, bounded by the window) or for one page of ids (the live server's answer to a
 * pattern: point lookups of (run, instance) in the shown commits' runs, whatever the history's length).
 */
import { marks, SQL } from '../connection.ts';
import type { ResultsReader } from '../reader.ts';
import { STATUS_NAME_SQL } from '../result_columns.ts';
import { LATEST_RUNS } from './commits.ts';

/** Every instance id with a stored result, sorted. */
export function instanceIds(db: ResultsReader): string[] {
  return db[SQL].prepare('SELECT id FROM instances ORDER BY id').pluck().all() as string[];
}

/**
 * The instance table as it stands: its newest key. Instances are only added (a result's first sighting), never
 * changed or removed, so an equal stamp means the same ids (read with one index step).
 */
export function instancesStamp(db: ResultsReader): string {
  return String(db[SQL].prepare('SELECT MAX(inst) FROM instances').pluck().get() ?? 0);
}

/**
 * [id, sha, status] of the results of the runs that count for `shas`: every one, or only those of `ids`. Rows
 * come one at a time (every one is about 70k per commit): no other query may run on `db` until they are read.
 */
export function outcomesByCommit(
  db: ResultsReader,
  shas: readonly string[],
  ids?: readonly string[],
): Iterable<[string, string, string]> {
  if (shas.length === 0 || ids?.length === 0) return [];
  const runs = `u.run_id IN (${LATEST_RUNS}) AND u.commit_sha IN (${marks(shas.length)})`;
  const status = `${STATUS_NAME_SQL('r.status')} AS status`;
  // With ids: the runs first, then each id's row of each run by its key (CROSS JOIN fixes that order).
  const sql = ids
    ? `SELECT i.id, u.commit_sha AS sha, ${status}
       FROM runs u CROSS JOIN instances i CROSS JOIN result_rows r
       WHERE ${runs} AND i.id IN (SELECT value FROM json_each(?)) AND r.run_id = u.run_id AND r.inst = i.inst`
    : `SELECT i.id, u.commit_sha AS sha, ${status}
       FROM runs u JOIN result_rows r ON r.run_id = u.run_id JOIN instances i ON i.inst = r.inst WHERE ${runs}`;
  return db[SQL]
    .prepare(sql)
    .raw()
    .iterate(...shas, ...(ids ? [JSON.stringify(ids)] : [])) as Iterable<[string, string, string]>;
}
