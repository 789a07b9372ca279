/**
 * Every CLI input error is a coded error: exit 2, one line on stderr naming the code, no stack trace, and no file
 * created or changed (bytes and mtimes compared). A typo must never run, pass or write.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { SCHEMA_VERSION } from '../../src/ci/store/migrations.ts';
import { ResultsStore } from '../../src/ci/store/store.ts';
import { garbageFile, sqliteFile } from './db_file_helpers.ts';
import { opgate, opgateBatch } from './run_helpers.ts';

/** Every file under `dir` with its bytes and mtime. */
function snapshot(dir: string): Map<string, { bytes: string; mtimeMs: number }> {
  const out = new Map<string, { bytes: string; mtimeMs: number }>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        out.set(`${p}/`, { bytes: '', mtimeMs: 0 });
        walk(p);
      } else out.set(p, { bytes: readFileSync(p).toString('base64'), mtimeMs: statSync(p).mtimeMs });
    }
  };
  walk(dir);
  return out;
}

let dir: string;
const f = (name: string) => join(dir, name);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'opgate-cli-errors-'));
  const good = new ResultsStore(f('good.db'));
  good.close();
  garbageFile(f('garbage.db'));
  sqliteFile(f('newer.db'), SCHEMA_VERSION + 1);
  mkdirSync(f('cwd'));
});

const ID = 'test_reference_add_cpu_float32_contiguous_eager';

/** [args, the code it must report, text the line must hold]. Paths are relative to the temp dir. */
const CASES: readonly [string[], string, RegExp][] = [
  [['run', '--retries', 'abc', '--db', 'x.db'], 'E_INVALID_ARGUMENT', /--retries: got 'abc'/],
  [['run', '--retries', '-1', '--db', 'x.db'], 'E_INVALID_ARGUMENT', /--retries: got '-1'/],
  [['run', '--reruns', '0', '--db', 'x.db'], 'E_INVALID_ARGUMENT', /--reruns/],
  [['run', '--op', 'nosuchop', '--db', 'x.db'], 'E_UNKNOWN_NAME', /unknown op 'nosuchop'; did you mean/],
  [['run', '--device', 'gpu', '--db', 'x.db'], 'E_UNKNOWN_NAME', /unknown device 'gpu'; expected one of cpu/],
  [['run', '--dtype', 'float128', '--db', 'x.db'], 'E_UNKNOWN_NAME', /unknown dtype 'float128'/],
  [['run', '--oracle', 'bogus', '--db', 'x.db'], 'E_UNKNOWN_NAME', /unknown oracle 'bogus'/],
  [['run', '--layout', 'diagonal', '--db', 'x.db'], 'E_UNKNOWN_NAME', /unknown layout/],
  [['run', '--mode', 'jit', '--db', 'x.db'], 'E_UNKNOWN_NAME', /unknown mode/],
  [
    ['run', '--op', 'add', '--device', 'meta', '--oracle', 'gradcheck', '--db', 'x.db'],
    'E_EMPTY_SELECTION',
    /0 instances/,
  ],
  [['run', '--pattern', 'no_such_instance_anywhere', '--db', 'x.db'], 'E_EMPTY_SELECTION', /--allow-empty/],
  [['run', '--pattern', '/(/', '--db', 'x.db'], 'E_INVALID_ARGUMENT', /--pattern/],
  [['run', '--shard', '5/4', '--db', 'x.db'], 'E_INVALID_ARGUMENT', /--shard: got '5\/4'/],
  [['run', '--shard', '0/4', '--db', 'x.db'], 'E_INVALID_ARGUMENT', /--shard: got '0\/4'/],
  [['run', '--shard', 'abc', '--db', 'x.db'], 'E_INVALID_ARGUMENT', /--shard: got 'abc'/],
  [['run', '--op', 'add', '--db', 'garbage.db'], 'E_DB_INVALID', /garbage\.db/],
  [['run', '--op', 'add', '--db', 'newer.db'], 'E_DB_SCHEMA_NEWER', /newer\.db|newer/],
  [['run', '--op', 'add', '--db', 'nonexistent/dir/x.db'], 'E_FILE_NOT_FOUND', /nonexistent/],
  [
    ['run', '--op', 'add', '--disabled-file', 'missing.json', '--db', 'x.db'],
    'E_FILE_NOT_FOUND',
    /missing\.json/,
  ],
  [['list', '--op', 'nosuchop'], 'E_UNKNOWN_NAME', /unknown op/],
  [['list', '--device', 'gpu'], 'E_UNKNOWN_NAME', /unknown device/],
  [['list', '--op', 'add', '--device', 'meta', '--oracle', 'gradcheck'], 'E_EMPTY_SELECTION', /0 instances/],
  [['shard', 'plan', '--shards', '0'], 'E_INVALID_ARGUMENT', /--shards: got '0'/],
  [['shard', 'plan', '--shards', '-1'], 'E_INVALID_ARGUMENT', /--shards: got '-1'/],
  [['shard', 'plan', '--shards', 'abc'], 'E_INVALID_ARGUMENT', /--shards: got 'abc'/],
  [['shard', 'plan', '--shards', '1.5'], 'E_INVALID_ARGUMENT', /--shards: got '1\.5'/],
  [['shard', 'plan', '--shards', '2', '--db', 'garbage.db'], 'E_DB_INVALID', /garbage\.db/],
  [['shard', 'plan', '--shards', '2', '--db', 'newer.db'], 'E_DB_SCHEMA_NEWER', /newer/],
  [['repro', ID, '--sample', '999'], 'E_INVALID_ARGUMENT', /--sample: got 999, expected 0\.\.\d+/],
  [['repro', ID, '--sample', 'abc'], 'E_INVALID_ARGUMENT', /--sample: got 'abc'/],
  [['repro', 'bogus'], 'E_UNKNOWN_NAME', /unknown instance id: bogus/],
  [
    ['td', 'HEAD...no_such_revision'],
    'E_INVALID_ARGUMENT',
    /changed files: got 'HEAD\.\.\.no_such_revision'/,
  ],
  [['merge', 'missing.db', '--into', 'm.db'], 'E_FILE_NOT_FOUND', /missing\.db/],
  [['merge', 'garbage.db', '--into', 'm.db'], 'E_DB_INVALID', /garbage\.db/],
  [['merge', 'newer.db', '--into', 'm.db'], 'E_DB_SCHEMA_NEWER', /newer/],
  [['merge', 'good.db', '--into', 'garbage.db'], 'E_DB_INVALID', /garbage\.db/],
  [['coverage', '--op', 'nosuchop'], 'E_UNKNOWN_NAME', /--op: unknown op\(s\): nosuchop/],
  [['coverage', '--schemas', 'missing.txt'], 'E_FILE_NOT_FOUND', /--schemas: missing\.txt does not exist/],
];

/** `list` of an empty selection with --allow-empty: what the command reports, asked in the batch below. */
const EMPTY_LIST = ['list', '--op', 'add', '--device', 'meta', '--oracle', 'gradcheck', '--allow-empty'];

describe('CLI input errors: exit 2, one line, nothing written', () => {
  let beforeBatch: ReturnType<typeof snapshot>;
  let afterBatch: ReturnType<typeof snapshot>;
  let outcomes: Awaited<ReturnType<typeof opgateBatch>>;
  // One process for them all (bin/main.mjs, as bin/opgate.mjs runs it): the exit code and the stderr line are what
  // is checked of them; the process boundary itself is checked by the spawned cases below.
  beforeAll(async () => {
    beforeBatch = snapshot(dir);
    outcomes = await opgateBatch(
      [...CASES.map(([args]) => args), EMPTY_LIST].map((args) => ({ args, cwd: dir })),
    );
    afterBatch = snapshot(dir);
  }, 120_000);

  test('every listed error path', () => {
    const problems: string[] = [];
    CASES.forEach(([args, code, text], k) => {
      const o = outcomes[k];
      const lines = o.stderr.trim().split('\n');
      const line = lines[0] ?? '';
      const ok =
        o.code === 2 &&
        lines.length === 1 &&
        line.startsWith('opgate: ') &&
        line.includes(`[${code}]`) &&
        text.test(line) &&
        !/\n\s+at /.test(o.stderr);
      if (!ok) problems.push(`opgate ${args.join(' ')}: exit ${o.code}\n${o.stderr}${o.stdout}`);
    });
    expect(problems, problems.join('\n---\n')).toEqual([]);
    expect(afterBatch).toEqual(beforeBatch);
    for (const p of ['x.db', 'm.db', 'nonexistent', 'garbage.db-wal', 'newer.db-wal', 'newer.db-shm'])
      expect(existsSync(f(p)), p).toBe(false);
  });

  test('a usage error from commander (a bad choice) also exits 2 with one line', async () => {
    const o = await opgate(['run', '--tier', 'nonsense'], { cwd: dir });
    expect(o.code).toBe(2);
    expect(o.stderr.trim().split('\n')).toHaveLength(1);
    expect(o.stderr).toMatch(/Allowed choices are pull, full/);
  }, 60_000);

  test('OPGATE_DEBUG=1 shows the stack trace of a coded error', async () => {
    const o = await opgate(['run', '--retries', 'abc'], { cwd: dir, env: { OPGATE_DEBUG: '1' } });
    expect(o.code).not.toBe(0);
    expect(o.stderr).toMatch(/CiError/);
    expect(o.stderr).toMatch(/\n\s+at /);
  }, 60_000);

  test('--allow-empty: an empty selection runs nothing, stores nothing and exits 0', async () => {
    const before = snapshot(dir);
    const r = await opgate(
      ['run', '--op', 'add', '--device', 'meta', '--oracle', 'gradcheck', '--allow-empty', '--db', 'x.db'],
      { cwd: dir },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/0 instances selected \(--allow-empty\)/);
    expect(snapshot(dir)).toEqual(before);
    const l = outcomes[CASES.length];
    expect(l.code, l.stderr).toBe(0);
    expect(l.stdout).toBe('');
  }, 60_000);
});

describe('opgate run cleans up after itself', () => {
  test('no opgate-XXXXXX temp directory is left behind', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'opgate-tmp-'));
    const r = await opgate(
      [
        'run',
        '--op',
        'neg',
        '--oracle',
        'reference',
        '--dtype',
        'float32',
        '--layout',
        'contiguous',
        '--db',
        'clean.db',
      ],
      { cwd: f('cwd'), env: { TMPDIR: tmp } },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(tmp).filter((n) => n.startsWith('opgate-'))).toEqual([]);
  }, 120_000);
});
