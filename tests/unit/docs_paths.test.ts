/**
 * README.md and docs/*.md point only at what exists: every repository path they name (`src/...`, `op_db/...`,
 * `tests/...`, `bench/...`, `dashboards/...`, `tools/...`, in code, links or prose; a `*` matches within a name)
 * is in the tree, every relative link resolves to a file inside the repository, and every `#anchor` names a
 * heading of its page. When a file moves, this names the page that still points at its old home.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const text = (page: string) => readFileSync(join(ROOT, page), 'utf8');

/**
 * Repository paths named in `md`: a top-level folder, then path characters, counted where it is clearly a path (a
 * file name with an extension, a folder ending in `/`, or a whole code span or link target), so prose such as
 * `dashboards/bench` (either folder) is not; placeholders (`<op>`) are left out.
 */
function mentionedPaths(md: string): string[] {
  const found = md.matchAll(
    /(?<![\w./-])(?:\.{1,2}\/)*((?:src|op_db|tests|bench|dashboards|tools|docs|bin|\.ci|\.github)\/[\w.*/<>-]*)/g,
  );
  const paths = [...found].flatMap((m) => {
    const path = m[1].replace(/[.]+$/, '');
    const [before, after] = [md[m.index - 1], md[m.index + m[0].length]];
    const whole =
      (before === '`' && after === '`') || (md[m.index - 2] === ']' && before === '(' && after === ')');
    return !/[<>]/.test(path) && (/\.[\w*]+$/.test(path) || path.endsWith('/') || whole) ? [path] : [];
  });
  return [...new Set(paths)];
}

/** Whether `path` (relative to the root; `*` within one name) names a file or folder of the tree. */
function exists(path: string): boolean {
  if (!path.includes('*')) return existsSync(join(ROOT, path));
  const parts = path.replace(/\/$/, '').split('/');
  const walk = (dir: string, i: number): boolean => {
    if (i === parts.length) return true;
    const re = new RegExp(`^${parts[i].replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
    const abs = join(ROOT, dir);
    if (!existsSync(abs) || !statSync(abs).isDirectory()) return false;
    return readdirSync(abs).some((e) => re.test(e) && walk(join(dir, e), i + 1));
  };
  return walk('', 0);
}

/** GitHub's anchors for the headings of a Markdown page (fenced code left out; repeats get -1, -2, ...). */
function anchors(md: string): Set<string> {
  const out = new Set<string>();
  let fenced = false;
  for (const line of md.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const m = fenced ? null : /^#{1,6}\s+(.*?)\s*#*$/.exec(line);
    if (!m) continue;
    const base = m[1]
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    let slug = base;
    for (let n = 1; out.has(slug); n++) slug = `${base}-${n}`;
    out.add(slug);
  }
  return out;
}

/** The relative links of a page: `[text](target)`, web and mail addresses left out. */
const links = (md: string) =>
  [...md.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((t) => !/^(https?:|mailto:)/.test(t));

describe('the docs point at what exists', () => {
  test('there are the front page and the topic pages', () => {
    expect(PAGES).toEqual(
      expect.arrayContaining(['README.md', 'docs/ARCHITECTURE.md', 'docs/deviations.md']),
    );
    expect(PAGES.length).toBeGreaterThan(10);
  });

  test('the path finder sees paths in code, links and prose, and leaves placeholders out', () => {
    expect(
      mentionedPaths('`src/ci/matrix.ts`, [x](../op_db/index.ts) and tests/unit/wasm_*.test.ts.'),
    ).toEqual(['src/ci/matrix.ts', 'op_db/index.ts', 'tests/unit/wasm_*.test.ts']);
    expect(mentionedPaths('`op_db/goldens/<name>.json.gz`, my_src/x, ./bench/a.ts')).toEqual(['bench/a.ts']);
    expect(mentionedPaths('`tests → dashboards/bench → src/ci`, `src/runtime/ops`, tools/golden/')).toEqual([
      'src/runtime/ops',
      'tools/golden/',
    ]);
    expect(exists('tests/unit/wasm_*.test.ts')).toBe(true);
    expect(exists('tests/unit/no_such_*.test.ts')).toBe(false);
  });

  test.each(PAGES)('every repository path %s names exists', (page) => {
    const missing = mentionedPaths(text(page)).filter((p) => !exists(p));
    expect(missing, `${page} names paths that are not in the tree (moved? \`git log --stat -M\`)`).toEqual(
      [],
    );
  });

  test.each(PAGES)('every relative link of %s resolves inside the repository, anchors included', (page) => {
    const bad: string[] = [];
    for (const target of links(text(page))) {
      const [file, anchor] = target.split('#');
      const abs = file ? resolve(ROOT, dirname(page), file) : join(ROOT, page);
      if (relative(ROOT, abs).startsWith('..')) bad.push(`${target}: outside the repository`);
      else if (!existsSync(abs)) bad.push(`${target}: no such file`);
      else if (anchor && abs.endsWith('.md') && !anchors(readFileSync(abs, 'utf8')).has(anchor))
        bad.push(`${target}: no heading with that anchor`);
    }
    expect(bad).toEqual([]);
  });

  test('nothing points outside the repository', () => {
    for (const page of PAGES) expect(text(page), page).not.toMatch(/\.\.\/shared|\/work\/|file:\/\//);
  });
});
