/**
 * Opening a results database for writing, safely on first use and under faults:
 * - the file is checked before anything writes it: a foreign or newer file (file.ts), a -wal whose replay would
 *   drop committed transactions (wal.ts), damaged pages (`PRAGMA quick_check`), damaged runs rows (validate.ts);
 * - any number of processes may open a new or an old file at once: the switch to WAL retries while another
 *   opener holds the lock, and the migrations run in one exclusive transaction that re-reads the version inside
 *   it, so exactly one process creates the tables and the others see them;
 * - every SQLite failure becomes a coded error (db_errors.ts).
 *
 * Durability (docs/store.md): WAL with synchronous=NORMAL. A commit is durable against a crash of
 * the process (kill -9) at once, and against a power loss from the next checkpoint on; a power loss can drop the
 * last commits, never damage the file. A run's start (its row and plan) is checkpointed into the main file at
 * once (store.ts), so a -wal lost later still leaves the run known and resumable.
 */
import { statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { CiError } from '../errors.ts';
import type { Sql } from './connection.ts';
import { dbError, sqliteCode } from './db_errors.ts';
import { writePoint } from './faults.ts';
import { checkWal, checkWritable, prepareDbPath, schemaNewerError, sleepMs } from './file.ts';
import { MIGRATIONS, RECENT_SINCE, SCHEMA_VERSION } from './migrations.ts';
import { rebuildRecent } from './recent.ts';
import { damagedRows, describeDamage } from './validate.ts';

/** How long a statement waits for another process's write lock before failing with E_DB_BUSY. */
export const BUSY_TIMEOUT_MS = 15_000;

/** Runs `fn`, retrying while SQLite answers SQLITE_BUSY without waiting (the journal-mode switch does). */
function retryBusy<T>(fn: () => T, deadline = Date.now() + BUSY_TIMEOUT_MS): T {
  for (;;) {
    try {
      return fn();
    } catch (e) {
      if (!sqliteCode(e)?.startsWith('SQLITE_BUSY') || Date.now() > deadline) throw e;
      sleepMs(5 + Math.random() * 20);
    }
  }
}

/** SQLite's check output as one line (its lines may hold newlines themselves). */
export const oneLine = (lines: readonly string[]): string =>
  lines
    .join('; ')
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\*\*\* in database main \*\*\* ?/g, '');

/** The first lines of `PRAGMA quick_check`'s answer, or null for 'ok'. */
export function quickCheck(db: Sql): string | null {
  const rows = db.pragma('quick_check(5)', { simple: false }) as { quick_check: string }[];
  const lines = rows.map((r) => r.quick_check);
  return lines.length === 1 && lines[0] === 'ok' ? null : oneLine(lines);
}

function migrate(db: Sql, path: string): void {
  // Versions only grow: a current file needs no lock. Otherwise read it again under the exclusive lock.
  if ((db.pragma('user_version', { simple: true }) as number) === SCHEMA_VERSION) return;
  retryBusy(() =>
    db
      .transaction(() => {
        const from = db.pragma('user_version', { simple: true }) as number;
        if (from > SCHEMA_VERSION) throw schemaNewerError(path, from);
        if (from < SCHEMA_VERSION) writePoint('migrate');
        for (let v = from; v < SCHEMA_VERSION; v++) db.exec(MIGRATIONS[v]);
        // Derived data of an older file, computed once from its results (a new file has none to fold).
        if (from > 0 && from < RECENT_SINCE) rebuildRecent(db);
        if (from < SCHEMA_VERSION) db.pragma(`user_version = ${SCHEMA_VERSION}`);
      })
      .exclusive(),
  );
}

/**
 * Files up to this size get `quick_check` every time they are opened (about 5 ms per MB on this project's VM);
 * a larger history is checked by `opgate db check` (nightly), not by every command that opens it.
 */
export const QUICK_CHECK_MAX_BYTES = 128 * 2 ** 20;

/**
 * The checks every opener makes before using a file (open.ts for writers, reader.ts for readers): its pages
 * (`quick_check`, for a file up to QUICK_CHECK_MAX_BYTES) and its runs rows. Throws E_DB_CORRUPT.
 */
export function checkOpened(db: Sql, path: string, o: { pages: boolean; runs: boolean }): void {
  const size = path === ':memory:' ? 0 : statSync(path).size;
  const damage = o.pages && size <= QUICK_CHECK_MAX_BYTES ? quickCheck(db) : null;
  if (damage)
    throw new CiError(
      'E_DB_CORRUPT',
      `${path}: damaged pages (quick_check: ${damage}); nothing was written to it: restore it from a copy (a CI artifact), or start a new database`,
    );
  const tables = db
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'runs'`)
    .pluck()
    .get();
  const bad = o.runs && tables ? [...damagedRows(db, { results: false })].map(describeDamage) : [];
  if (bad.length)
    throw new CiError(
      'E_DB_CORRUPT',
      `${path}: ${bad.length} damaged runs row(s) (${bad.slice(0, 3).join(', ')}); \`opgate db repair ${path}\` drops them with their results`,
    );
}

export interface WriterOptions {
  /** Open a file with damaged runs rows (`opgate db repair`, which drops them). */
  readonly keepDamagedRuns?: boolean;
  /** Let SQLite replay a damaged -wal as far as it can (`opgate db repair`, after keeping a copy of it). */
  readonly acceptWalLoss?: boolean;
}

/** Opens `path` for writing, checked, in WAL mode and at the current schema; throws coded errors only. */
export function openWriter(path: string, o: WriterOptions = {}): Sql {
  if (path !== ':memory:') {
    prepareDbPath(path);
    checkWritable(path);
    if (!o.acceptWalLoss) checkWal(path);
  }
  let db: Sql | null = null;
  try {
    db = new Database(path, { timeout: BUSY_TIMEOUT_MS });
    // Pages before the switch to WAL and the migration, which would write to a damaged file.
    checkOpened(db, path, { pages: true, runs: false });
    const d = db;
    // A new file frees pages incrementally (retention gives space back in proportion to what it drops, never by
    // rewriting the file); the setting only takes before the first page is written, which the switch to WAL does.
    if ((db.pragma('page_count', { simple: true }) as number) === 0) db.pragma('auto_vacuum = INCREMENTAL');
    retryBusy(() => d.pragma('journal_mode = WAL'));
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrate(db, path);
    checkOpened(db, path, { pages: false, runs: !o.keepDamagedRuns });
    return db;
  } catch (e) {
    db?.close();
    throw dbError(e, path, 'opening for writing');
  }
}
