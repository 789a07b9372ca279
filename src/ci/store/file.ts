/**
 * Checks a results database file before anything opens it for writing. Opening for writing switches a file to
 * WAL and migrates it, so a file that is not opgate's, or is from a newer opgate, must be refused first and
 * left exactly as it was (bytes, mtime, no -wal/-shm files).
 */
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  mkdirSync,
  openSync,
  readSync,
  statSync,
} from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { CiError } from '../errors.ts';
import { dbError, dbErrorCode } from './db_errors.ts';
import { SCHEMA_VERSION } from './migrations.ts';
import { describeWalDamage, walDamage } from './wal.ts';

export const DEFAULT_DB = '.opgate/opgate.db';

/** Blocks the thread for `ms` (the store is synchronous, as better-sqlite3 is). */
export const sleepMs = (ms: number): void => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
};

const MAGIC = Buffer.from('SQLite format 3\0', 'latin1');

export interface DbFileInfo {
  /** user_version: 0 for a new (empty) database. */
  readonly version: number;
}

export const schemaNewerError = (path: string, version: number) =>
  new CiError(
    'E_DB_SCHEMA_NEWER',
    `${path}: database schema version ${version} is newer than this opgate (${SCHEMA_VERSION}); upgrade opgate to read it`,
  );

const invalid = (path: string, why: string) =>
  new CiError('E_DB_INVALID', `${path}: not an opgate results database (${why})`);

/** The 100-byte header, or null for an empty file. */
function header(path: string): Buffer | null {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(100);
    const n = readSync(fd, buf, 0, 100, 0);
    if (n === 0) return null;
    if (n < 100 || !buf.subarray(0, 16).equals(MAGIC)) throw invalid(path, 'not a SQLite file');
    return buf;
  } finally {
    closeSync(fd);
  }
}

/**
 * An existing file's schema version, refusing what opgate cannot write. Throws E_FILE_NOT_FOUND, E_DB_INVALID or
 * E_DB_SCHEMA_NEWER (a CiError, one line) and touches nothing on the way.
 */
export function inspectDbFile(path: string): DbFileInfo {
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(path);
  } catch {
    throw new CiError('E_FILE_NOT_FOUND', `${path}: no such results database`);
  }
  if (!st.isFile()) throw invalid(path, 'not a file');
  const head = header(path);
  if (head === null) return { version: 0 };
  // user_version lives at offset 60 of the header. The header alone settles "newer" (versions only grow);
  // a lower value may be stale while newer pages sit in the -wal file, so SQLite has the last word.
  const headerVersion = head.readUInt32BE(60);
  if (headerVersion > SCHEMA_VERSION) throw schemaNewerError(path, headerVersion);
  // A read-only connection to a WAL file creates -wal/-shm and cannot remove them, so the probe reads through
  // a read-write connection, whose close removes what it created, and writes nothing. When a -wal is already
  // there (a writer is running, or was killed) the probe stays read-only: closing a read-write connection
  // would checkpoint that -wal into the file.
  let db: Database.Database | null = null;
  try {
    db = openForReading(path);
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION) throw schemaNewerError(path, version);
    const tables = new Set(
      // `results` is a table up to schema 9, a view over result_rows since 10.
      db.prepare(`SELECT name FROM sqlite_master WHERE type IN ('table', 'view')`).pluck().all() as string[],
    );
    if (version === 0 && tables.size > 0) throw invalid(path, 'a SQLite database with other tables');
    if (version > 0 && !(tables.has('runs') && tables.has('results')))
      throw invalid(path, `schema version ${version} without the runs and results tables`);
    return { version };
  } catch (e) {
    if (e instanceof CiError) throw e;
    // The header is SQLite's, so a file SQLite refuses past it is damaged, and a failure to open it for
    // reading and writing (a read-only file or folder, a full disk) is reported as what it is.
    if (dbErrorCode(e)) throw dbError(e, path, 'opening');
    throw invalid(path, (e as Error).message);
  } finally {
    db?.close();
  }
}

/** Throws E_DB_CORRUPT when SQLite would replay `path`'s -wal by silently dropping committed transactions. */
export function checkWal(path: string): void {
  const first = walDamage(`${path}-wal`);
  if (!first) return;
  // A writer still appending (a shard sharing the file) can be read mid-frame: damage is what stays put.
  sleepMs(200);
  const d = walDamage(`${path}-wal`);
  if (!d || d.firstBad !== first.firstBad || d.frames !== first.frames) return;
  throw new CiError(
    'E_DB_CORRUPT',
    `${path}-wal: ${describeWalDamage(d)} without a word; \`opgate db repair ${path}\` keeps what can be replayed (the damaged -wal is kept beside it), then \`opgate run --resume\` re-runs what was lost`,
  );
}

/**
 * A connection that only reads an existing file and leaves it as it was. Read-only when a -wal with frames is
 * there (a writer is running, or was killed: a read-write connection's close would checkpoint that -wal into the
 * file); otherwise read-write, whose close removes the -wal/-shm it created (a read-only one cannot, and would
 * leave them behind), while nothing is written. An empty -wal is another reader's: both read-write, the last to
 * close removes it. Errors are SQLite's: callers name the file (db_errors.ts).
 */
export function openForReading(path: string): Database.Database {
  const db = new Database(path, { fileMustExist: true, readonly: walBytes(path) > 0 });
  try {
    db.pragma('user_version');
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}

function walBytes(path: string): number {
  try {
    return statSync(`${path}-wal`).size;
  } catch {
    return 0;
  }
}

/**
 * Throws E_DB_READONLY unless this process may write `path` and what SQLite writes beside it (-wal, -shm, or the
 * folder they are created in). SQLite itself would open such a file read-only without a word and fail only at
 * the first write, after a run has started its instances.
 */
export function checkWritable(path: string): void {
  const denied = (what: string) =>
    new CiError(
      'E_DB_READONLY',
      `${path}: ${what} cannot be written (permissions or a read-only mount); make it writable, or pass another --db`,
    );
  const writable = (p: string) => {
    try {
      accessSync(p, constants.W_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (existsSync(path) && !writable(path)) throw denied('the file');
  const dir = dirname(resolve(path));
  for (const side of [`${path}-wal`, `${path}-shm`]) {
    // Absent, or just removed by another connection's close: SQLite will create it in the folder.
    if (writable(side) || (!existsSync(side) && writable(dir))) continue;
    throw denied(existsSync(side) ? side : `its folder (where SQLite creates ${side})`);
  }
}

/**
 * Before the store opens `path` for writing: an existing file must be opgate's; a new one needs an existing
 * directory (a typo in --db must not create paths), except the default database's `.opgate/`.
 */
export function prepareDbPath(path: string): void {
  if (existsSync(path)) {
    inspectDbFile(path);
    return;
  }
  const dir = dirname(path);
  if (existsSync(dir)) return;
  // The default location is opgate's own, created on first use.
  if (resolve(path) === resolve(DEFAULT_DB)) {
    mkdirSync(dir, { recursive: true });
    return;
  }
  throw new CiError('E_FILE_NOT_FOUND', `${path}: directory ${dir} does not exist (create it first)`);
}
