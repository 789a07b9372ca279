/**
 * The store owns all SQL: every SQL statement and every call on a SQLite handle lives under src/ci/store/, and
 * everything else (the other ci commands, the dashboards, the demo seed, the tests' fixtures) goes through its
 * typed API. This scans every source file of the repository for SQL and lists each site outside the store.
 * The patterns are spelled out here, so this file is the one exception.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SELF = relative(ROOT, import.meta.filename);
const OWNER = 'src/ci/store/';
const DIRS = ['src', 'op_db', 'dashboards', 'tests', 'bench', 'bin', 'scripts'];
const SKIP = new Set(['node_modules', 'dist', '.git', 'coverage']);
const SOURCE = /\.(ts|mts|cts|mjs|cjs|js)$/;

/**
 * What counts as SQL. Statements are matched in upper case, the way they are written, so prose ("select the
 * rows from ...") and names like E_EMPTY_SELECTION do not count; handle calls whatever the receiver's name.
 */
const PATTERNS: readonly [string, RegExp][] = [
  ['SELECT … FROM', /\bSELECT\b[^;]{0,400}?\bFROM\b/g],
  ['INSERT INTO', /\bINSERT\s+(?:OR\s+[A-Z]+\s+)?INTO\b/g],
  ['UPDATE … SET', /\bUPDATE\s+[\w.]+\s+SET\b/g],
  ['DELETE FROM', /\bDELETE\s+FROM\b/g],
  ['CREATE/ALTER/DROP', /\b(?:CREATE(?:\s+UNIQUE)?|ALTER|DROP)\s+(?:TABLE|INDEX|VIEW|TRIGGER)\b/g],
  ['ATTACH/DETACH', /\b(?:ATTACH|DETACH)\s+DATABASE\b/g],
  ['PRAGMA', /\bPRAGMA\b|\bpragma\s+\w+\s*=/g],
  ['VACUUM', /['"`]\s*VACUUM\b/g],
  ['.prepare(', /\.prepare\s*\(/g],
  ['.pragma(', /\.pragma\s*\(/g],
  // A RegExp's .exec takes a string variable; a database's takes SQL, a literal or a variable named for it.
  ['.exec(sql)', /\.exec\s*\(\s*(?:['"`]|\w*(?:sql|SQL|query|QUERY|ddl|DDL|MIGRATIONS)\w*\b)/g],
  ['.function(', /\.(?:function|aggregate)\s*\(\s*['"`]/g],
  [
    'sqlite import',
    /\bfrom\s+['"](?:better-sqlite3|node:sqlite|sqlite3?)['"]|require\(\s*['"]better-sqlite3['"]\s*\)/g,
  ],
];

/** `file:line  what` for every SQL site in `text`. */
function sqlSites(file: string, text: string): string[] {
  const lineOf = (at: number) => text.slice(0, at).split('\n').length;
  const out: string[] = [];
  for (const [what, re] of PATTERNS)
    for (const m of text.matchAll(re)) out.push(`${file}:${lineOf(m.index ?? 0)}  ${what}`);
  return out.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
}

function sourceFiles(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(join(ROOT, dir));
  } catch {
    return [];
  }
  return entries.flatMap((e) => {
    if (SKIP.has(e)) return [];
    const rel = join(dir, e);
    if (statSync(join(ROOT, rel)).isDirectory()) return sourceFiles(rel);
    return SOURCE.test(e) ? [rel] : [];
  });
}

const rootFiles = readdirSync(ROOT).filter((e) => SOURCE.test(e) && statSync(join(ROOT, e)).isFile());
const files = [...DIRS.flatMap(sourceFiles), ...rootFiles];

describe('the store owns all SQL', () => {
  test('the scan sees the whole repository, the store included', () => {
    expect(files.length).toBeGreaterThan(200);
    for (const f of [
      'src/ci/store/store.ts',
      'dashboards/seed.ts',
      'tests/unit/run_helpers.ts',
      'bin/opgate.mjs',
    ])
      expect(files, f).toContain(f);
    const inStore = files
      .filter((f) => f.startsWith(OWNER))
      .flatMap((f) => sqlSites(f, readFileSync(join(ROOT, f), 'utf8')));
    expect(inStore.length, 'the store itself is full of SQL').toBeGreaterThan(40);
  });

  test('the scanner flags each kind of SQL site, and leaves regexes and prose alone', () => {
    // Joined at run time, so this file's own text holds none of them.
    const sql = (...parts: string[]) => parts.join('');
    const flagged = [
      sql('db.prep', "are('SEL", "ECT id FROM results WHERE run_id = ?')"),
      sql('const q = `\n  SEL', 'ECT r.id,\n    u.commit_sha\n  FR', 'OM runs u`;'),
      sql("x.run('INS", 'ERT OR REPLACE IN', "TO disabled_tests VALUES (?)')"),
      sql("'UPD", "ATE runs SET pid = ? WHERE run_id = ?'"),
      sql("'DEL", "ETE FROM perf'"),
      sql('d.ex', "ec('CRE", "ATE TABLE notes (body TEXT)')"),
      sql('d.prag', "ma('user_version = 2')"),
      sql("'PRAG", "MA integrity_check'"),
      sql("import Database from 'better", "-sqlite3';"),
      sql('db.ex', 'ec(MIGRAT', 'IONS[v])'),
      sql('db.func', "tion('opgate_run_status', f)"),
    ];
    for (const s of flagged) expect(sqlSites('x.ts', s), s).not.toEqual([]);
    expect(sqlSites('x.ts', flagged[1])).toEqual(['x.ts:2  SELECT … FROM']);
    const clean = [
      'const m = /^(\\d+)\\/(\\d+)$/.exec(spec.trim());',
      'const m = re.exec(text);',
      "throw new CiError('E_EMPTY_SELECTION', 'select at least one op from the list');",
      '// Updates the run and sets its status; deletes nothing from the plan.',
    ];
    for (const s of clean) expect(sqlSites('x.ts', s), s).toEqual([]);
  });

  test(`no SQL outside ${OWNER}`, () => {
    const outside = files
      .filter((f) => !f.startsWith(OWNER) && f !== SELF)
      .flatMap((f) => sqlSites(f, readFileSync(join(ROOT, f), 'utf8')));
    expect(outside).toEqual([]);
  });
});
