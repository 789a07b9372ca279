/**
 * The store refuses what it cannot write without touching it: a file that is not a database, a database from
 * a newer opgate, a foreign SQLite database stay byte for byte as they were (same mtime, no -wal/-shm left), and
 * a --db whose directory does not exist creates nothing. Only the default `.opgate/` directory is created.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { openReadOnly } from '../../dashboards/data/db.ts';
import { writeSqliteFile } from '../../src/ci/store/fixtures.ts';
import { SCHEMA_VERSION } from '../../src/ci/store/migrations.ts';
import { ResultsStore } from '../../src/ci/store/store.ts';
import { garbageFile, refusesUntouched, sqliteFile } from './db_file_helpers.ts';
import { bin, opgate } from './run_helpers.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'opgate-files-'));

describe('ResultsStore refuses files it cannot write, untouched', () => {
  test('a database from a newer opgate (rollback journal or WAL): E_DB_SCHEMA_NEWER', () => {
    const dir = tmp();
    for (const mode of ['delete', 'wal'] as const) {
      const path = sqliteFile(join(dir, `newer-${mode}.db`), SCHEMA_VERSION + 1, mode);
      refusesUntouched(path, 'E_DB_SCHEMA_NEWER', () => new ResultsStore(path));
    }
  });

  test('a file that is not a database, and a SQLite database that is not opgate’s: E_DB_INVALID', () => {
    const dir = tmp();
    refusesUntouched(
      garbageFile(join(dir, 'garbage.db')),
      'E_DB_INVALID',
      () => new ResultsStore(join(dir, 'garbage.db')),
    );
    const foreign = writeSqliteFile(join(dir, 'foreign.db'), { version: 0, tables: 'foreign' });
    refusesUntouched(foreign, 'E_DB_INVALID', () => new ResultsStore(foreign));
  });

  test('a --db in a directory that does not exist: E_FILE_NOT_FOUND, and no directory is created', async () => {
    const dir = tmp();
    expect(() => new ResultsStore(join(dir, 'typo', 'deeper', 'r.db'))).toThrow(
      expect.objectContaining({ code: 'E_FILE_NOT_FOUND' }),
    );
    expect(existsSync(join(dir, 'typo'))).toBe(false);
    const r = await opgate(['run', '--op', 'add', '--device', 'cpu', '--db', join(dir, 'nope', 'r.db')]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('E_FILE_NOT_FOUND');
    expect(existsSync(join(dir, 'nope'))).toBe(false);
  }, 120_000);

  test('the default database’s .opgate/ directory is created on first use', () => {
    const dir = tmp();
    const r = spawnSync('node', [bin, 'flaky', 'list', '--json'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(existsSync(join(dir, '.opgate', 'opgate.db'))).toBe(true);
  }, 60_000);

  test('an empty file is a new database; a current one opens and keeps its runs', () => {
    const dir = tmp();
    const empty = join(dir, 'empty.db');
    writeFileSync(empty, '');
    const s = new ResultsStore(empty);
    expect(s.schemaVersion).toBe(SCHEMA_VERSION);
    s.startRun({ commitSha: 'a', branch: 'main', platform: 'linux', tier: 'pull' });
    s.close();
    const again = new ResultsStore(empty);
    expect(again.lastRunId()).toBe(1);
    again.close();
  });
});

describe('the dashboards on a newer database', () => {
  test('say to upgrade opgate, not to migrate it with the writer', () => {
    const path = sqliteFile(join(tmp(), 'newer.db'), SCHEMA_VERSION + 1);
    expect(() => openReadOnly(path)).toThrow(/upgrade opgate/);
    expect(() => openReadOnly(path)).not.toThrow(/migrates|writer/);
  });
});
