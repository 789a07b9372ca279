/** Files for the store's refusal tests: foreign, newer-schema and garbage databases, and the untouched check. */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { expect } from 'vitest';
import { writeSqliteFile } from '../../src/ci/store/fixtures.ts';

/** A SQLite file with opgate's tables at `version`, in the given journal mode, closed. */
export function sqliteFile(path: string, version: number, journal: 'wal' | 'delete' = 'delete'): string {
  return writeSqliteFile(path, { version, journal, tables: 'opgate' });
}

export const garbageFile = (path: string): string => {
  writeFileSync(path, 'this is a results export, not a database\n'.repeat(8));
  return path;
};

/** Asserts `fn` throws a coded error and leaves `path` exactly as it was. */
export function refusesUntouched(path: string, code: string, fn: () => unknown): void {
  const bytes = readFileSync(path);
  const mtime = statSync(path).mtimeMs;
  let err: unknown = null;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  expect((err as { code?: string } | null)?.code, String(err)).toBe(code);
  expect((err as Error).message.split('\n')).toHaveLength(1);
  expect(readFileSync(path).equals(bytes), 'bytes unchanged').toBe(true);
  expect(statSync(path).mtimeMs, 'mtime unchanged').toBe(mtime);
  expect(existsSync(`${path}-wal`) || existsSync(`${path}-shm`), 'no -wal/-shm left').toBe(false);
}
