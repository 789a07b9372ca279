/**
 * The unit tests a mutated line runs beyond the matrix: the test files (tests/**, dashboards/**) importing its
 * file, and those calling the Tensor method it belongs to. Each test file is read once.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { exportedNames, relativeImports, sourceFiles } from '../td/index.ts';

export class UnitTests {
  private readonly texts: Map<string, string>;
  private readonly byImport: Map<string, string[]>;

  constructor(root: string) {
    this.texts = new Map(
      [...sourceFiles(root, 'tests'), ...sourceFiles(root, 'dashboards')]
        .filter((f) => f.endsWith('.test.ts'))
        .map((f) => [f, readFileSync(join(root, f), 'utf8')]),
    );
    this.byImport = testImportMap(root, this.texts);
  }

  /**
   * The test files importing `file`, directly or through a face by a name it exports, and those named after one of
   * its runtime directories (`tests/unit/autograd*.test.ts` for `src/runtime/autograd/record.ts`): a test calling
   * ops through the `torch` namespace (`T.torch.mul(c, 2)`) reaches the autograd recorder, the dispatcher or a
   * kernel family by no name it imports.
   */
  importing(file: string): readonly string[] {
    const named = namedAfterDirs(file, [...this.texts.keys()]);
    return [...new Set([...(this.byImport.get(file) ?? []), ...named])];
  }

  /** The test files calling Tensor method `name` (`.item(`): a face reaches it by no import name. */
  calling(name: string | null): string[] {
    if (!name) return [];
    const call = new RegExp(`\\.${name}\\(`);
    return [...this.texts].filter(([, text]) => call.test(text)).map(([f]) => f);
  }
}

/** Test files (tests/unit/<dir>.test.ts, <dir>_*.test.ts) named after a directory `file` sits in under src/runtime. */
export function namedAfterDirs(file: string, tests: readonly string[]): string[] {
  const m = /^src\/runtime\/(.+)\/[^/]+\.ts$/.exec(file);
  if (!m) return [];
  const dirs = m[1].split('/');
  return tests.filter((t) => {
    const base = /^tests\/unit\/([^/]+)\.test\.ts$/.exec(t)?.[1];
    return base !== undefined && dirs.some((d) => base === d || base.startsWith(`${d}_`));
  });
}

/**
 * The Tensor method whose body holds `line` (`proto.item = function ...` in readback.ts), if any: a test reaches
 * it through a face by calling it (`zeros(2).item()`), which no import names.
 */
export function enclosingMethod(lines: readonly string[], line: number): string | null {
  for (let i = Math.min(line, lines.length) - 1; i >= 0; i--) {
    const m = /^\s*proto\.(\w+) = function\b/.exec(lines[i]);
    if (m) return m[1];
    if (i < line - 1 && /^(?: {2})?\}/.test(lines[i])) return null;
  }
  return null;
}

/** The names a test imports from its relative imports: `import { a, b as c }` -> a, b; `import * as T` -> T.x. */
function importedNames(text: string): { spec: string; names: string[] }[] {
  const namespaces = [...text.matchAll(/^import\s+\*\s+as\s+(\w+)\s+from\s+'(\.[^']+)'/gm)].map((m) => ({
    spec: m[2],
    names: [
      ...new Set([
        ...[...text.matchAll(new RegExp(`\\b${m[1]}\\.(\\w+)`, 'g'))].map((u) => u[1]),
        // Destructured from the namespace, or from a spread of it: `const { zeros, empty } = { ...T, ...T.torch }`.
        ...[
          ...text.matchAll(
            new RegExp(`const\\s*\\{([^}]*)\\}\\s*=\\s*(?:${m[1]}\\b|\\{[^}]*\\.\\.\\.${m[1]}\\b)`, 'g'),
          ),
        ].flatMap((u) =>
          u[1]
            .split(',')
            .map((n) => n.trim().split(/\s*:\s*/)[0])
            .filter(Boolean),
        ),
      ]),
    ],
  }));
  const named = [...text.matchAll(/^import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'(\.[^']+)'/gms)].map((m) => ({
    spec: m[2],
    names: m[1]
      .split(',')
      .map(
        (p) =>
          p
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0],
      )
      .filter(Boolean),
  }));
  return [...namespaces, ...named];
}

/**
 * Source file -> the test files (tests/**, dashboards/**) that import it: directly, or through a face (an
 * index.ts) by a name the file exports.
 */
function testImportMap(root: string, tests: ReadonlyMap<string, string>): Map<string, string[]> {
  const map = new Map<string, string[]>();
  const add = (f: string, t: string) => {
    const l = map.get(f) ?? [];
    if (!l.includes(t)) map.set(f, [...l, t]);
  };
  const sources = ['src', 'op_db', 'dashboards']
    .flatMap((d) => sourceFiles(root, d))
    .filter((f) => !f.endsWith('.test.ts'));
  const byName = new Map<string, string[]>();
  for (const f of sources)
    if (!f.endsWith('index.ts'))
      for (const n of exportedNames(readFileSync(join(root, f), 'utf8'), true))
        byName.set(n, [...(byName.get(n) ?? []), f]);
  for (const [t, text] of tests) {
    for (const target of relativeImports(root, t, text)) if (existsSync(join(root, target))) add(target, t);
    for (const { spec, names } of importedNames(text)) {
      if (!spec.endsWith('index.ts')) continue;
      for (const n of names) for (const f of byName.get(n) ?? []) add(f, t);
    }
  }
  return map;
}
