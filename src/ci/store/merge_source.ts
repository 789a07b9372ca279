/**
 * A source of `opgate merge`, read without writing it: opened read-only (a leftover -wal is read, never
 * checkpointed into the file), an older schema migrated in a temporary copy, and checked before anything is
 * copied: SQLite's quick_check, a -wal whose replay would drop commits, and every row it holds against what
 * opgate writes (validate.ts). A damaged source is an error naming the file and row; nothing of it is copied.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { CiError } from '../errors.ts';
import type { Sql } from './connection.ts';
import { dbError } from './db_errors.ts';
import { checkWal, inspectDbFile, openForReading } from './file.ts';
import { SCHEMA_VERSION } from './migrations.ts';
import { quickCheck } from './open.ts';
import { ResultsStore } from './store.ts';
import { damagedRows, describeDamage, isToken } from './validate.ts';

export interface MergeSource {
  readonly path: string;
  readonly db: Sql;
  close(): void;
}

const damaged = (path: string, what: string) =>
  new CiError('E_DB_CORRUPT', `${path}: ${what}; nothing was merged from it (\`opgate db check ${path}\`)`);

/** A finite number, as perf values and times must be. */
const finite = (v: unknown) => typeof v === 'number' && Number.isFinite(v);

/** Opens `path` read-only at the current schema (a migrated temporary copy for an older one) and checks it. */
export function openSource(path: string): MergeSource {
  const { version } = inspectDbFile(path);
  if (version === 0) throw new CiError('E_DB_INVALID', `${path}: not an opgate results database (empty)`);
  checkWal(path);
  let file = path;
  let tmp: string | null = null;
  if (version < SCHEMA_VERSION) {
    tmp = mkdtempSync(join(tmpdir(), 'opgate-merge-'));
    file = join(tmp, basename(path));
    copyFileSync(path, file);
    if (existsSync(`${path}-wal`)) copyFileSync(`${path}-wal`, `${file}-wal`);
    new ResultsStore(file).close();
  }
  const cleanup = () => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  };
  let db: Sql | null = null;
  try {
    db = openForReading(file);
    const pages = quickCheck(db);
    if (pages) throw damaged(path, `damaged pages (quick_check: ${pages})`);
    validateRows(db, path);
    const open = db;
    return {
      path,
      db: open,
      close: () => {
        open.close();
        cleanup();
      },
    };
  } catch (e) {
    db?.close();
    cleanup();
    throw dbError(e, path, 'reading a merge source');
  }
}

/** Every runs, results and perf row of a source holds what opgate writes. */
function validateRows(db: Sql, path: string): void {
  for (const d of damagedRows(db, { results: true })) throw damaged(path, `damaged ${describeDamage(d)}`);
  for (const p of db.prepare('SELECT rowid, * FROM perf').iterate() as Iterable<Record<string, unknown>>)
    if (!finite(p.value) || !isToken(p.scenario) || !isToken(p.commit_sha))
      throw damaged(path, `perf sample ${p.rowid} is damaged`);
}
