/**
 * `opgate merge` with inputs it cannot use: a missing file, a file that is not a database, a database from a
 * newer opgate. Each is one line on stderr and exit 2, and nothing is created or changed: not the input (a
 * missing one is not created empty), not the target (every input is checked before the target is opened).
 */
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { mergeDatabases } from '../../src/ci/store/merge.ts';
import { SCHEMA_VERSION } from '../../src/ci/store/migrations.ts';
import { ResultsStore } from '../../src/ci/store/store.ts';
import { garbageFile, refusesUntouched, sqliteFile } from './db_file_helpers.ts';
import { opgate } from './run_helpers.ts';

function goodDb(path: string): string {
  const s = new ResultsStore(path);
  const run = s.startRun({ commitSha: 'abc', branch: 'main', platform: 'linux', tier: 'pull' });
  s.endRun(run, 'passed');
  s.close();
  return path;
}

describe('opgate merge refuses inputs it cannot use', () => {
  test('missing, garbage and newer-schema inputs (CLI): one line, exit 2, nothing created or changed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opgate-merge-in-'));
    const p = (name: string) => join(dir, name);
    const garbage = garbageFile(p('garbage.db'));
    const newer = sqliteFile(p('newer.db'), SCHEMA_VERSION + 1, 'wal');
    const good = goodDb(p('good.db'));
    const snapshot = (f: string) => ({ bytes: readFileSync(f), mtime: statSync(f).mtimeMs });
    const was = { garbage: snapshot(garbage), newer: snapshot(newer), good: snapshot(good) };
    const cases = [
      { args: [p('missing.db')], into: 'm1.db', code: 'E_FILE_NOT_FOUND' },
      { args: [garbage], into: 'm2.db', code: 'E_DB_INVALID' },
      { args: [newer], into: 'm3.db', code: 'E_DB_SCHEMA_NEWER' },
      // A bad input after a good one: the good one must not have been merged into a new target yet.
      { args: [good, garbage], into: 'm4.db', code: 'E_DB_INVALID' },
      // A target that is not a database is refused too, and left as it was.
      { args: [good], into: 'garbage.db', code: 'E_DB_INVALID' },
    ];
    const results = await Promise.all(cases.map((c) => opgate(['merge', ...c.args, '--into', p(c.into)])));
    results.forEach((r, k) => {
      const c = cases[k];
      expect(r.code, `${c.args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
      expect(r.stderr).toContain(c.code);
      if (c.into !== 'garbage.db') expect(existsSync(p(c.into)), `${c.into} created`).toBe(false);
    });
    expect(existsSync(p('missing.db')), 'a missing input is not created').toBe(false);
    for (const [name, w] of Object.entries(was)) {
      const f = p(`${name}.db`);
      expect(readFileSync(f).equals(w.bytes), `${name} bytes`).toBe(true);
      expect(statSync(f).mtimeMs, `${name} mtime`).toBe(w.mtime);
      expect(existsSync(`${f}-wal`) || existsSync(`${f}-shm`), `${name} -wal/-shm`).toBe(false);
    }
  }, 120_000);

  test('mergeDatabases: the same refusals as coded errors, inputs untouched', () => {
    const dir = mkdtempSync(join(tmpdir(), 'opgate-merge-in-'));
    const into = join(dir, 'm.db');
    const garbage = garbageFile(join(dir, 'garbage.db'));
    refusesUntouched(garbage, 'E_DB_INVALID', () => mergeDatabases([garbage], into));
    const newer = sqliteFile(join(dir, 'newer.db'), SCHEMA_VERSION + 1);
    refusesUntouched(newer, 'E_DB_SCHEMA_NEWER', () => mergeDatabases([newer], into));
    expect(() => mergeDatabases([join(dir, 'missing.db')], into)).toThrow(
      expect.objectContaining({ code: 'E_FILE_NOT_FOUND' }),
    );
    expect(existsSync(join(dir, 'missing.db'))).toBe(false);
    expect(existsSync(into)).toBe(false);
  });
});
