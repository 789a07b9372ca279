/**
 * Writing results as compact rows (migration 10, result_columns.ts): each row's instance and message are looked
 * up (added when new) and the rows of a batch go in by instance number, so a run's rows are appended in key order
 * and the pages they fill stay full. Inside the caller's write transaction; nothing is cached across
 * transactions (one rolled back must leave no instance number behind).
 */
import type { Sql } from './connection.ts';
import { statusCode, toMicros } from './result_columns.ts';
import type { ResultRow } from './runs.ts';

/** Returns `put(runId, rows)`: inserts (or replaces) `rows` as run `runId`'s results. */
export function rowWriter(db: Sql): (runId: number, rows: readonly ResultRow[]) => void {
  const findInst = db.prepare('SELECT inst FROM instances WHERE id = ?').pluck();
  const addInst = db.prepare(
    'INSERT INTO instances (id, op, oracle, device, dtype, layout, mode) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const findMsg = db.prepare('SELECT msg FROM messages WHERE text = ?').pluck();
  const addMsg = db.prepare('INSERT INTO messages (text) VALUES (?)');
  const put = db.prepare(
    `INSERT OR REPLACE INTO result_rows (run_id, inst, status, dur_us, attempts, msg, sample, seed, checks, rerun_passes, rerun_failures, max_ulp)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const inst = (r: ResultRow): number =>
    (findInst.get(r.id) as number | undefined) ??
    Number(addInst.run(r.id, r.op, r.oracle, r.device, r.dtype, r.layout, r.mode).lastInsertRowid);
  const msg = (text: string | null): number | null =>
    text === null
      ? null
      : ((findMsg.get(text) as number | undefined) ?? Number(addMsg.run(text).lastInsertRowid));
  return (runId, rows) => {
    const keyed = rows.map((r) => [inst(r), r] as const).sort((a, b) => a[0] - b[0]);
    for (const [k, r] of keyed)
      put.run(
        runId,
        k,
        statusCode(r.status),
        toMicros(r.durationMs),
        r.attempts,
        msg(r.message),
        r.sample,
        r.seed,
        r.checks,
        r.rerunPasses ?? null,
        r.rerunFailures ?? null,
        r.maxUlp ?? null,
      );
  };
}
