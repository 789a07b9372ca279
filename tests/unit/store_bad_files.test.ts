/**
 * Every command on a database it cannot use: damaged pages, a -wal whose replay would drop commits, a damaged
 * record (a commit sha turned to garbage), a disk that is full, a file or folder the user may not write. Each
 * time: one coded line, exit 2, and the file (with its -wal) exactly as it was; a command that only reads works on
 * a file it may not write. `db check` reports each damage (exit 1) and `db repair` keeps what can be kept.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { expandMatrix } from '../../src/ci/matrix.ts';
import { damagePage, damageWalFrame, garbleCommit } from '../../src/ci/store/fixtures.ts';
import { ResultsStore } from '../../src/ci/store/store.ts';
import { deadPid, opgateBatch } from './run_helpers.ts';
import { completeRunDb, rowOf } from './store_fault_helpers.ts';

const NOBODY = 65534;
const ROWS = expandMatrix('pull', { op: ['add', 'sub', 'mul'], device: ['cpu'] }).map((i) => rowOf(i, 3));
const RUN = ['run', '--op', 'add', '--device', 'cpu', '--dtype', 'float32', '--oracle', 'reference'];

let dir: string;
const f = (name: string) => join(dir, name);

/** A database with one complete run of `ROWS`. */
const goodDb = (path: string) => completeRunDb(path, { commitSha: 'c1', rows: ROWS });

/** What a killed writer leaves: a run whose results sit in an uncheckpointed -wal, damaged at frame 1. */
function crashedWithDamagedWal(path: string): void {
  const s = new ResultsStore(f('live.db'));
  const run = s.startRun(
    { commitSha: 'c1', branch: 'main', platform: 'p', tier: 'pull' },
    ROWS.map((r) => r.id),
  );
  // Its writer is gone (a kill), as the main file already says.
  s.patchRun(run, { pid: deadPid() });
  s.checkpoint();
  for (let k = 0; k < 4; k++) s.addResults(run, ROWS.slice(k * 10, k * 10 + 10));
  copyFileSync(f('live.db'), path);
  copyFileSync(f('live.db-wal'), `${path}-wal`);
  s.close();
  damageWalFrame(`${path}-wal`, 1);
}

/**
 * Bytes and mtimes of a database and its -wal. A reader may leave an empty -wal (and a -shm, SQLite's index of
 * the -wal, not data) where the folder lets it create them and the file does not let it remove them.
 */
const snapshot = (path: string) =>
  ['', '-wal'].map((ext) => {
    const p = path + ext;
    if (!existsSync(p) || (ext && statSync(p).size === 0)) return null;
    return `${readFileSync(p).toString('base64')}@${statSync(p).mtimeMs}`;
  });

/** The commands, each on database `db` (paths relative to the temp dir). */
const commands = (db: string): string[][] => [
  [...RUN, '--db', db],
  [...RUN, '--db', db, '--resume'],
  ['merge', db, '--into', `merged-from-${db}`],
  ['merge', 'good.db', '--into', db],
  ['shard', 'plan', '--shards', '2', '--db', db],
  ['verify', '--db', db],
  ['flaky', 'list', '--db', db],
  ['numerics', '--db', db],
  ['dashboard', 'build', '--db', db, '--out', `site-${db.replace('/', '-')}`],
  ['db', 'repair', db],
];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'opgate-bad-files-'));
  goodDb(f('good.db'));
  goodDb(f('pages.db'));
  damagePage(f('pages.db'), 0.5);
  goodDb(f('record.db'));
  garbleCommit(f('record.db'), 1);
  crashedWithDamagedWal(f('wal.db'));
});

describe('a damaged database', () => {
  const DAMAGED = ['pages.db', 'wal.db', 'record.db'];
  // db repair fixes what it can (tested below): here only on damaged pages, which it refuses.
  const casesOf = (db: string) => commands(db).filter((c) => db === 'pages.db' || c[1] !== 'repair');
  let before: Map<string, (string | null)[]>;
  let after: Map<string, (string | null)[]>;
  let outcomes: Map<string, Awaited<ReturnType<typeof opgateBatch>>>;
  // Every command on every damaged file, in one process (what each reports, not the process boundary), before
  // db repair below changes two of them.
  beforeAll(async () => {
    before = new Map(DAMAGED.map((db) => [db, snapshot(f(db))]));
    const cases = DAMAGED.flatMap((db) => casesOf(db).map((args) => ({ db, args })));
    const out = await opgateBatch(cases.map(({ args }) => ({ args, cwd: dir })));
    outcomes = new Map(DAMAGED.map((db) => [db, out.filter((_, k) => cases[k].db === db)]));
    after = new Map(DAMAGED.map((db) => [db, snapshot(f(db))]));
  }, 120_000);

  for (const db of DAMAGED)
    test(`${db}: every command is E_DB_CORRUPT in one line, exit 2, the file untouched`, () => {
      const cases = casesOf(db);
      const out = outcomes.get(db)!;
      expect(out).toHaveLength(cases.length);
      out.forEach((o, k) => {
        const what = `${cases[k].join(' ')}: ${o.stderr}`;
        expect(o.code, what).toBe(2);
        expect(o.stderr, what).toMatch(/^(opgate: )?[^\n]*\[E_DB_CORRUPT\]\n$/);
      });
      expect(after.get(db), 'unchanged').toEqual(before.get(db));
      expect(existsSync(f(`merged-from-${db}`)), 'no target created from a damaged source').toBe(false);
    });

  test('db check reports each damage (exit 1); db repair keeps what can be kept, the lost run stays resumable', async () => {
    // In order, in one process: check the four files, repair the two that can be, check those again.
    const [good, pages, wal, record, walRepair, recordRepair, walAfter, recordAfter] = await opgateBatch(
      [
        ...['good.db', 'pages.db', 'wal.db', 'record.db'].map((db) => ['db', 'check', db]),
        ...['wal.db', 'record.db'].map((db) => ['db', 'repair', db]),
        ...['wal.db', 'record.db'].map((db) => ['db', 'check', db]),
      ].map((args) => ({ args, cwd: dir })),
    );
    expect([good, pages, wal, record].map((c) => c.code)).toEqual([0, 1, 1, 1]);
    expect(pages.stdout).toMatch(/damaged pages/);
    expect(wal.stdout).toMatch(/wal.db-wal: damaged at frame 1 of \d+: a replay would drop \d+ committed/);
    expect(record.stdout).toMatch(/damaged run 1: commit_sha/);
    expect(walRepair.code, walRepair.stderr).toBe(0);
    expect(walRepair.stdout).toMatch(/the damaged -wal is kept as .*wal\.db-wal\.damaged-/);
    expect(recordRepair.stdout).toMatch(/1 damaged run\(s\) and \d+ damaged result\(s\) dropped/);
    expect([walAfter, recordAfter].map((c) => c.code)).toEqual([0, 0]);
    // The run whose results the -wal lost is known (its start was checkpointed) and resumable.
    const s = new ResultsStore(f('wal.db'));
    expect(s.runs().map((r) => r.status)).toEqual(['aborted']);
    expect(s.plannedIds(1)).toHaveLength(ROWS.length);
    s.close();
  }, 120_000);
});

describe('a database that cannot be written', () => {
  test('a full disk: writing commands are E_DB_FULL, reading ones work, the file untouched', async () => {
    copyFileSync(f('good.db'), f('full.db'));
    const before = snapshot(f('full.db'));
    const cases = commands('full.db');
    // Every write fails as on a full disk (the real one is in store_full_disk.test.ts).
    const out = await opgateBatch(
      cases.map((args) => ({ args, cwd: dir })),
      { env: { OPGATE_DB_FAULT: 'SQLITE_FULL@1+' } },
    );
    // A new merge target is a write too: it cannot be created on a full disk.
    // (db repair of a healthy file has nothing to write.)
    const writes = new Set([0, 1, 2, 3]);
    out.forEach((o, k) => {
      const what = `${cases[k].join(' ')}: ${o.stderr}`;
      if (writes.has(k)) {
        expect(o.code, what).toBe(2);
        // A resume has nothing to resume in this file before it would write: that is its coded answer.
        expect(o.stderr, what).toMatch(/^(opgate: )?[^\n]*\[E_(DB_FULL|NOTHING_TO_RESUME)\]\n$/);
      } else expect([0, 1], what).toContain(o.code);
    });
    expect(snapshot(f('full.db')), 'unchanged').toEqual(before);
  }, 120_000);

  test('a file, or a folder, this user may not write: E_DB_READONLY; reading works; untouched', async () => {
    const ro = join(dir, 'ro');
    mkdirSync(ro);
    mkdirSync(join(ro, 'folder'));
    copyFileSync(f('good.db'), join(ro, 'file.db'));
    copyFileSync(f('good.db'), join(ro, 'folder', 'folder.db'));
    chmodSync(dir, 0o755);
    chmodSync(ro, 0o777);
    chmodSync(join(ro, 'file.db'), 0o444);
    chmodSync(join(ro, 'folder'), 0o555);
    copyFileSync(f('good.db'), join(ro, 'good.db'));
    const dbs = ['file.db', 'folder/folder.db'];
    const before = dbs.map((db) => snapshot(join(ro, db)));
    // Both files' commands in one process, run as that user.
    const cases = dbs.flatMap((db) => commands(db).map((args) => ({ db, args })));
    const out = await opgateBatch(
      cases.map(({ args }) => ({ args, cwd: ro })),
      { uid: NOBODY },
    );
    out.forEach((o, k) => {
      const { db } = cases[k];
      const [cmd, arg] = cases[k].args;
      const what = `${db}: ${cases[k].args.join(' ')}: ${o.stderr}`;
      const reads =
        cmd === 'shard' || cmd === 'verify' || cmd === 'dashboard' || (cmd === 'merge' && arg === db);
      // SQLite cannot open a WAL-mode file in a folder where it may not create the -shm, even to read it.
      if (!reads || db.startsWith('folder/')) {
        expect(o.code, what).toBe(2);
        expect(o.stderr, what).toMatch(/^(opgate: )?[^\n]*\[E_(DB_READONLY|NOTHING_TO_RESUME)\]\n$/);
      } else expect([0, 1], what).toContain(o.code);
    });
    dbs.forEach((db, k) => {
      expect(snapshot(join(ro, db)), `${db} unchanged`).toEqual(before[k]);
    });
  }, 120_000);
});
