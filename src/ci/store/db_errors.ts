/**
 * SQLite's failures as opgate's coded errors. better-sqlite3 throws `SqliteError` with SQLite's extended result
 * code (`SQLITE_FULL`, `SQLITE_IOERR_WRITE`, `SQLITE_READONLY_DBMOVED`, ...); a user needs to know what to do
 * about it (free space, fix permissions, repair a damaged file), never a stack trace. Every command goes through
 * `dbError` (the store's openers and writers, and bin/main.mjs for anything that still escapes).
 */
import { CiError, type CiErrorCode } from '../errors.ts';

/** SQLite's primary result codes that opgate reports, and what each one means for the user. */
const BY_PRIMARY: Record<string, { code: CiErrorCode; what: string }> = {
  SQLITE_FULL: { code: 'E_DB_FULL', what: 'the disk (or the database size limit) is full' },
  SQLITE_READONLY: { code: 'E_DB_READONLY', what: 'the file or its folder cannot be written' },
  SQLITE_PERM: { code: 'E_DB_READONLY', what: 'permission denied' },
  SQLITE_CANTOPEN: { code: 'E_DB_READONLY', what: 'the file or its -wal/-shm cannot be opened for writing' },
  SQLITE_CORRUPT: { code: 'E_DB_CORRUPT', what: 'the file is damaged' },
  SQLITE_NOTADB: { code: 'E_DB_CORRUPT', what: 'the file is damaged (its header is not a database header)' },
  SQLITE_IOERR: { code: 'E_DB_IO', what: 'the operating system failed a read or write' },
  SQLITE_BUSY: { code: 'E_DB_BUSY', what: 'another process held the write lock past the busy timeout' },
  SQLITE_LOCKED: { code: 'E_DB_BUSY', what: 'the database is locked' },
};

/** What the user does next, per code. */
const REMEDY: Record<string, string> = {
  E_DB_FULL: 'free space, then run the command again',
  E_DB_READONLY: 'make the file and its folder writable, or pass another --db',
  E_DB_CORRUPT: '`opgate db check` says what is damaged',
  E_DB_IO: 'check the disk, then run the command again',
  E_DB_BUSY: 'wait for the other writer, then run the command again',
};

/** A SQLite failure as a coded error: `fact` says what failed, the message adds what to do about it. */
export class DbError extends CiError {
  constructor(
    code: CiErrorCode,
    readonly fact: string,
    remedy: string,
  ) {
    super(code, `${fact}; ${remedy}`);
  }
}

/** SQLite's result code of an error, or null for anything that is not from SQLite. */
export function sqliteCode(e: unknown): string | null {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : null;
}

/** The primary code of an extended one: SQLITE_IOERR_WRITE -> SQLITE_IOERR. */
const primary = (code: string) =>
  Object.keys(BY_PRIMARY).find((p) => code === p || code.startsWith(`${p}_`)) ?? null;

/** The coded error for a SQLite failure, or null when `e` is not one opgate reports. */
export function dbErrorCode(e: unknown): CiErrorCode | null {
  const code = sqliteCode(e);
  const p = code && primary(code);
  return p ? BY_PRIMARY[p].code : null;
}

/**
 * `e` as a one-line coded error naming the file and what was being done; a CiError passes through, and an error
 * that is not SQLite's is returned as it is (a bug, shown with its stack).
 */
export function dbError(e: unknown, path: string, doing: string, remedy?: string): Error {
  if (e instanceof CiError) return e;
  const code = sqliteCode(e);
  const p = code && primary(code);
  if (!code || !p) return e as Error;
  const { code: coded, what } = BY_PRIMARY[p];
  const detail = (e as Error).message.split('\n')[0];
  return new DbError(coded, `${path}: ${doing}: ${what} (${code}: ${detail})`, remedy ?? REMEDY[coded]!);
}

/** Runs `fn`, turning a SQLite failure into its coded error. */
export function withDbErrors<T>(path: string, doing: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw dbError(e, path, doing);
  }
}
