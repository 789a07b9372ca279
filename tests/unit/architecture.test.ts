/**
 * The house rules, checked on the source text: dependencies point downward only
 * (tests -> dashboards -> ci -> oracles -> op_db -> runtime), other folders import only a folder's index.ts face
 * (unit tests, which are white-box, excepted), no import cycles between files, and src/ci throws only coded
 * errors.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SOURCES = ['src', 'op_db', 'dashboards', 'bench', 'tests'];

function files(dir: string): string[] {
  const abs = join(ROOT, dir);
  let out: string[] = [];
  let entries: string[] = [];
  try {
    entries = readdirSync(abs);
  } catch {
    return [];
  }
  for (const e of entries) {
    const p = join(abs, e);
    if (statSync(p).isDirectory()) out = out.concat(files(relative(ROOT, p)));
    else if (e.endsWith('.ts')) out.push(relative(ROOT, p));
  }
  return out;
}

const all = SOURCES.flatMap(files);
const graph = new Map<string, string[]>(
  all.map((f) => {
    const text = readFileSync(join(ROOT, f), 'utf8');
    const deps = [...text.matchAll(/^(?:import|export)\s(?:[^;]*?from\s+)?'(\.[^']+)'/gms)].map((m) =>
      relative(ROOT, resolve(ROOT, dirname(f), m[1])),
    );
    return [f, deps];
  }),
);

/** The layer of a file, lowest first. */
function layer(f: string): number {
  if (f.startsWith('src/runtime/')) return 0;
  if (f.startsWith('op_db/')) return 1;
  // Foreign runtimes under test (src/targets): beside op_db, above the runtime, below the oracles that judge them.
  if (f.startsWith('src/targets/')) return 1;
  if (f.startsWith('src/oracles/')) return 2;
  if (f.startsWith('src/ci/')) return 3;
  if (f.startsWith('tests/')) return 5; // nothing imports the tests
  return 4; // dashboards, bench
}

/** The module a file belongs to (a runtime subfolder, or a top-level folder). */
function moduleOf(f: string): string {
  const m = /^src\/runtime\/(backends\/\w+|\w+)\//.exec(f);
  if (m) return `src/runtime/${m[1]}`;
  if (f.startsWith('src/runtime/')) return 'src/runtime';
  const parts = f.split('/');
  return parts[0] === 'src' ? `src/${parts[1]}` : parts[0];
}

describe('architecture', () => {
  test('dependencies point downward only', () => {
    const upward = [...graph].flatMap(([f, deps]) =>
      deps.filter((d) => layer(d) > layer(f)).map((d) => `${f} -> ${d}`),
    );
    expect(upward).toEqual([]);
  });

  test('other folders import only a folder face (index.ts)', () => {
    // src/runtime/index.ts is the face of the runtime's api/ files, which have no index of their own.
    // src/ci/perf/region.ts is a second face of src/ci: the measured program's, which must import the runtime
    // only (the ci face would bundle the results store, octokit and esbuild into every count); src/ci/testing.ts
    // is the package's testing face (`opgate/testing`), what a project outside the tree imports.
    const allowed = (f: string, d: string) =>
      f.startsWith('tests/unit/') ||
      moduleOf(f) === moduleOf(d) ||
      d === `${moduleOf(d)}/index.ts` ||
      d === 'src/ci/perf/region.ts' ||
      d === 'src/ci/testing.ts' ||
      (f === 'src/runtime/index.ts' && moduleOf(d) === 'src/runtime/api');
    const bad = [...graph].flatMap(([f, deps]) =>
      deps.filter((d) => !allowed(f, d)).map((d) => `${f} -> ${d}`),
    );
    expect(bad).toEqual([]);
  });

  test('an op family (src/runtime/ops/<family>/, op_db/ops/<family>/) is imported from outside only through its face', () => {
    const family = (f: string) =>
      /^(?:src\/runtime\/ops|op_db\/ops)\/(?:nn\/|pointwise\/)?[a-z_]+\//.exec(f)?.[0] ?? null;
    const bad = [...graph].flatMap(([f, deps]) =>
      f.startsWith('tests/unit/')
        ? []
        : deps
            .filter((d) => {
              const fam = family(d);
              return fam !== null && !f.startsWith(fam) && d !== `${fam}index.ts`;
            })
            .map((d) => `${f} -> ${d}`),
    );
    expect(bad).toEqual([]);
  });

  test('the rules see the whole source tree, tests and dashboards included', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('src/ci/matrix.ts')).toContain('op_db/index.ts');
    expect(graph.get('tests/templates/reference.test.ts')).toContain('src/ci/index.ts');
    expect(graph.get('dashboards/data/index.ts')?.length).toBeGreaterThan(0);
  });

  test('nothing outside tests/ imports from tests/', () => {
    const bad = [...graph].flatMap(([f, deps]) =>
      f.startsWith('tests/') ? [] : deps.filter((d) => d.startsWith('tests/')).map((d) => `${f} -> ${d}`),
    );
    expect(bad).toEqual([]);
  });

  test('src/ci throws coded errors only (CiError, or an error class with a code)', () => {
    const plain = all
      .filter((f) => f.startsWith('src/ci/'))
      .flatMap((f) =>
        readFileSync(join(ROOT, f), 'utf8')
          .split('\n')
          .map((line, i) => ({ line, at: `${f}:${i + 1}` }))
          .filter(({ line }) => /\bnew (Type|Range)?Error\(/.test(line))
          .map(({ at, line }) => `${at}: ${line.trim()}`),
      );
    expect(plain).toEqual([]);
  });

  test('no import cycles', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'visiting' | 'done'>();
    const stack: string[] = [];
    const visit = (f: string) => {
      state.set(f, 'visiting');
      stack.push(f);
      for (const d of graph.get(f) ?? []) {
        if (state.get(d) === 'visiting') cycles.push([...stack.slice(stack.indexOf(d)), d].join(' -> '));
        else if (!state.has(d)) visit(d);
      }
      stack.pop();
      state.set(f, 'done');
    };
    for (const f of graph.keys()) if (!state.has(f)) visit(f);
    expect(cycles).toEqual([]);
  });
});
