/**
 * Writing results as compact rows (migration 10, result_columns.ts): each row's instance and message are looked
 * up (added when new) and the rows of a batch go in by instance number, so a run's rows are appended in key order
 * and the pages they fill stay full. Inside the caller's write transaction; nothing is cached across
 * transactions (one rolled back must leave no instance number behind).
 */
import type { Sql } from './connection.ts';
import { statusCode, toMicros } from './result_columns.ts';

/** A result with the `results` view's column names (what a merge source reads). */
export interface ResultRecord {
  readonly id: string;
  readonly op: string;
  readonly oracle: string;
  readonly device: string;
  readonly dtype: string;
  readonly layout: string;
  readonly mode: string;
  readonly status: string;
  readonly duration_ms: number;
  readonly attempts: number;
  readonly message: string | null;
  readonly sample: number | null;
  readonly seed: number | null;
  readonly checks: number;
  readonly rerun_passes: number | null;
  readonly rerun_failures: number | null;
  readonly max_ulp: number | null;
}

/** The `results` columns a ResultRecord holds, in its order. */
export const RECORD_COLUMNS =
  'id, op, oracle, device, dtype, layout, mode, status, duration_ms, attempts, message, sample, seed, checks, rerun_passes, rerun_failures, max_ulp';

/** Returns `put(runId, records)`: inserts (or replaces) `records` as run `runId`'s rows. */
export function rowWriter(db: Sql): (runId: number, records: readonly ResultRecord[]) => void {
  const findInst = db.prepare('SELECT inst FROM instances WHERE id = ?').pluck();
  const addInst = db.prepare(
    'INSERT INTO instances (id, op, oracle, device, dtype, layout, mode) VALUES (@id, @op, @oracle, @device, @dtype, @layout, @mode)',
  );
  const findMsg = db.prepare('SELECT msg FROM messages WHERE text = ?').pluck();
  const addMsg = db.prepare('INSERT INTO messages (text) VALUES (?)');
  const put = db.prepare(
    `INSERT OR REPLACE INTO result_rows (run_id, inst, status, dur_us, attempts, msg, sample, seed, checks, rerun_passes, rerun_failures, max_ulp)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const inst = (r: ResultRecord): number =>
    (findInst.get(r.id) as number | undefined) ?? Number(addInst.run(r).lastInsertRowid);
  const msg = (text: string | null): number | null =>
    text === null
      ? null
      : ((findMsg.get(text) as number | undefined) ?? Number(addMsg.run(text).lastInsertRowid));
  return (runId, records) => {
    const keyed = records.map((r) => [inst(r), r] as const).sort((a, b) => a[0] - b[0]);
    for (const [k, r] of keyed)
      put.run(
        runId,
        k,
        statusCode(r.status),
        toMicros(r.duration_ms),
        r.attempts,
        msg(r.message),
        r.sample,
        r.seed,
        r.checks,
        r.rerun_passes,
        r.rerun_failures,
        r.max_ulp,
      );
  };
}
