/**
 * SQLite files that opgate did not write, for the tests that check how the store and the dashboards treat
 * them (refused untouched, or read as they are), and the integrity check of a file a killed writer left. They
 * live in the store because every SQL statement does (tests/unit/sql_owner.test.ts).
 */
import Database from 'better-sqlite3';

export interface SqliteFileOptions {
  /** Its user_version (opgate's schema version). */
  readonly version: number;
  readonly journal?: 'wal' | 'delete';
  /**
   * 'opgate': empty `runs` and `results` tables, as a database of some opgate version has; 'foreign': a table
   * of another application's; 'none': no tables.
   */
  readonly tables?: 'opgate' | 'foreign' | 'none';
}

const TABLES = {
  opgate: 'CREATE TABLE runs (run_id INTEGER PRIMARY KEY); CREATE TABLE results (run_id INTEGER, id TEXT)',
  foreign: 'CREATE TABLE notes (body TEXT)',
  none: '',
} as const;

/** Writes a closed SQLite file at `path` and returns `path`. */
export function writeSqliteFile(path: string, o: SqliteFileOptions): string {
  const d = new Database(path);
  try {
    d.pragma(`journal_mode = ${o.journal ?? 'delete'}`);
    const tables = TABLES[o.tables ?? 'opgate'];
    if (tables) d.exec(tables);
    d.pragma(`user_version = ${Math.trunc(o.version)}`);
  } finally {
    d.close();
  }
  return path;
}

/** SQLite's integrity check of an existing file: 'ok', or what is wrong. */
export function integrityCheck(path: string): string {
  const d = new Database(path, { fileMustExist: true });
  try {
    return String(d.pragma('integrity_check', { simple: true }));
  } finally {
    d.close();
  }
}
