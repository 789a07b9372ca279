/**
 * `opgate db check` and `opgate db repair`: what is damaged in a results database, and keeping what can be kept.
 *
 * check reads only: the -wal (would a replay drop commits?), every page (`PRAGMA integrity_check`, the thorough
 * one), and every runs, results and perf row against what opgate writes (validate.ts).
 * repair writes: it replays what the -wal can replay (a copy of the damaged -wal is kept beside the file first),
 * drops damaged rows (a damaged runs row with its results: nothing of it can be trusted), and checkpoints; a run
 * that lost results to the -wal keeps its row and plan (checkpointed at its start), so `opgate run --resume`
 * re-runs what is missing. Damaged pages are not repaired: the file must be restored from a copy.
 */
import { copyFileSync, existsSync } from 'node:fs';
import { CiError } from '../errors.ts';
import type { Sql } from './connection.ts';
import { dbError } from './db_errors.ts';
import { inspectDbFile, openForReading } from './file.ts';
import { oneLine, openWriter } from './open.ts';
import { rebuildRecent } from './recent.ts';
import { damagedRows, describeDamage } from './validate.ts';
import { describeWalDamage, walDamage } from './wal.ts';

export interface DbCheck {
  readonly path: string;
  /** The -wal's damage, in words, or null. */
  readonly wal: string | null;
  /** integrity_check's first complaints, or null for 'ok'. */
  readonly pages: string | null;
  /** `run 3: commit_sha`, `run 3 result <id>: status`, `perf sample 7`. */
  readonly rows: readonly string[];
  readonly ok: boolean;
}

const walWords = (path: string): string | null => {
  const d = walDamage(`${path}-wal`);
  return d ? describeWalDamage(d) : null;
};

/** Everything wrong with `path`, read-only (a leftover -wal is read, never checkpointed). */
export function checkDatabase(path: string): DbCheck {
  const wal = walWords(path);
  try {
    inspectDbFile(path);
  } catch (e) {
    // Damage SQLite meets before the pages can be walked (the schema's own page) is still a report, not a failure.
    if ((e as { code?: string }).code !== 'E_DB_CORRUPT') throw e;
    return { path, wal, pages: (e as Error).message, rows: [], ok: false };
  }
  let db: Sql | null = null;
  try {
    db = openForReading(path);
    const lines = (db.pragma('integrity_check(10)') as { integrity_check: string }[]).map(
      (r) => r.integrity_check,
    );
    const pages = lines.length === 1 && lines[0] === 'ok' ? null : oneLine(lines);
    // Rows are read only from a file whose pages hold: a damaged b-tree can make the walk itself fail.
    const rows = pages ? [] : [...damagedRows(db, { results: true })].map(describeDamage);
    return { path, wal, pages, rows, ok: !wal && !pages && rows.length === 0 };
  } catch (e) {
    const err = dbError(e, path, 'checking');
    if ((err as { code?: string }).code === 'E_DB_CORRUPT')
      return { path, wal, pages: err.message, rows: [], ok: false };
    throw err;
  } finally {
    db?.close();
  }
}

export interface DbRepair {
  /** Where the damaged -wal was copied, or null. */
  readonly walKept: string | null;
  readonly runsDropped: number;
  readonly resultsDropped: number;
}

/** Keeps what can be kept of a damaged `path` (see the top of this file). */
export function repairDatabase(path: string): DbRepair {
  const before = checkDatabase(path);
  if (before.pages)
    throw new CiError(
      'E_DB_CORRUPT',
      `${path}: damaged pages (${before.pages}) cannot be repaired here; restore the file from a copy (a CI artifact)`,
    );
  let walKept: string | null = null;
  if (before.wal && existsSync(`${path}-wal`)) {
    walKept = `${path}-wal.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    copyFileSync(`${path}-wal`, walKept);
  }
  const db = openWriter(path, { keepDamagedRuns: true, acceptWalLoss: true });
  try {
    // Collected first: better-sqlite3 runs no other statement while an iteration is open.
    const bad = [...damagedRows(db, { results: true })];
    const badRuns = bad.filter((d) => d.id === undefined).map((d) => d.runId);
    const badResults = bad.filter((d) => d.id !== undefined);
    const dropped = db
      .transaction(() => {
        let runs = 0;
        let results = 0;
        for (const id of badRuns) {
          results += db.prepare('DELETE FROM result_rows WHERE run_id = ?').run(id).changes;
          db.prepare('DELETE FROM run_plans WHERE run_id = ?').run(id);
          runs += db.prepare('DELETE FROM runs WHERE run_id = ?').run(id).changes;
        }
        const dropResult = db.prepare('DELETE FROM result_rows WHERE run_id = ? AND inst = ?');
        for (const d of badResults) results += dropResult.run(d.runId, d.inst).changes;
        // What was dropped leaves the derived tables too.
        if (runs + results > 0) rebuildRecent(db);
        return { runs, results };
      })
      .immediate();
    db.pragma('wal_checkpoint(TRUNCATE)');
    return { walKept, runsDropped: dropped.runs, resultsDropped: dropped.results };
  } catch (e) {
    throw dbError(e, path, 'repairing');
  } finally {
    db.close();
  }
}
