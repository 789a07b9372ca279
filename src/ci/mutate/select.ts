/**
 * What a mutant runs: the matrix instances target determination maps to its file (those without a skip or
 * xfail rule, capped by a sample stratified over (oracle, op) so a shared file still reaches every oracle and
 * many ops), then the unit tests that import the file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { opDb } from '../../../op_db/index.ts';
import { REACHED_THROUGH } from '../../../op_db/reached.ts';
import { expandMatrix, type MatrixInstance, type Tier } from '../matrix.ts';
import { affectedBy, isAffected, sourceFiles } from '../td/index.ts';
import { shuffled } from './generate.ts';

export interface Selection {
  /** Instance ids in run order. */
  readonly ids: readonly string[];
  /** OpInfo names among them. */
  readonly ops: readonly string[];
  /** How many instances target determination selected before the cap. */
  readonly selected: number;
  readonly unitTests: readonly string[];
}

/** Round-robin over (oracle, op) groups, each group in a seeded order: the first k cover the most groups. */
function stratified(instances: readonly MatrixInstance[], seed: number): MatrixInstance[] {
  const groups = new Map<string, MatrixInstance[]>();
  for (const i of instances) {
    const key = `${i.oracle}\n${i.info.name}`;
    groups.set(key, [...(groups.get(key) ?? []), i]);
  }
  const lists = shuffled([...groups.values()], seed).map((g) => shuffled(g, seed));
  // Oracles take turns too, so a cap never leaves one oracle out while another has many ops.
  const byOracle = new Map<string, MatrixInstance[][]>();
  for (const l of lists) byOracle.set(l[0].oracle, [...(byOracle.get(l[0].oracle) ?? []), l]);
  const out: MatrixInstance[] = [];
  const oracles = [...byOracle.values()];
  for (let round = 0; out.length < instances.length; round++)
    for (const ls of oracles) for (const l of ls) if (round < l.length) out.push(l[round]);
  return interleaveOracles(out);
}

/** The same instances with oracles alternating (the cheapest way to meet any oracle that fails early). */
function interleaveOracles(list: readonly MatrixInstance[]): MatrixInstance[] {
  const by = new Map<string, MatrixInstance[]>();
  for (const i of list) by.set(i.oracle, [...(by.get(i.oracle) ?? []), i]);
  const queues = [...by.values()];
  const out: MatrixInstance[] = [];
  while (out.length < list.length) for (const q of queues) if (q.length) out.push(q.shift()!);
  return out;
}

/** How far from the mutated line an op's name may be to count as the op the line belongs to. */
const NEAR = 40;

/**
 * Op names a line defines (not calls): `name: 'exp'`, a schema string `'conv2d(Tensor input, ...'`, an alias,
 * a derivative table's row (`expand: {`), a name alone on its line or first to an op factory (`floatOp('exp2'`);
 * as OpInfo names (an OpInfo's name or op).
 */
function definedOn(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(
    /(?:name: |alias\(|declare\()'([\w.]+)'|'([\w.]+?)(?:\.\w+)?\((?:[A-Z]|int|float|bool|str|\))|^\s*'?([\w.]+)'?: \{|^\s*'([\w.]+)',?\s*$|\w+Op\(\s*'([\w.]+)'/g,
  ))
    out.push(...(OPINFO_OF.get(m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5]) ?? []));
  return out;
}

const OPINFO_OF = (() => {
  const map = new Map<string, string[]>();
  for (const o of opDb) for (const n of new Set([o.name, o.op])) map.set(n, [...(map.get(n) ?? []), o.name]);
  // An op with no OpInfo of its own (aten convolution, im2col) belongs to the OpInfo whose samples reach it.
  for (const [op, r] of Object.entries(REACHED_THROUGH)) if (!map.has(op)) map.set(op, [r.info]);
  return map;
})();

/** The top-level function (or const) whose body holds `line` (1-based), if any. */
function enclosingFunction(lines: readonly string[], line: number): string | undefined {
  for (let i = line - 1; i >= 0; i--) {
    const m = /^(?:export )?(?:async )?(?:function\*? (\w+)|const (\w+)\b)/.exec(lines[i]);
    if (m) return m[1] ?? m[2];
  }
  return undefined;
}

/**
 * The ops whose rows call the function holding `line` (a derivative helper such as matmulBackward, used by the
 * `matmul: {` row far below it): the nearest op named at or just above each call.
 */
function callerOps(lines: readonly string[], line: number): string[] {
  const fn = enclosingFunction(lines, line);
  if (!fn) return [];
  const use = new RegExp(`\\b${fn}\\b`);
  const out: string[] = [];
  lines.forEach((l, i) => {
    if (!use.test(l) || /^(?:export )?(?:async )?(?:function|const) /.test(l)) return;
    // Used inside a definition named as an op (`const prod: Derivative = { ... prodBackward(...) }`).
    out.push(...(OPINFO_OF.get(enclosingFunction(lines, i + 1) ?? '') ?? []));
    for (let j = i; j >= Math.max(0, i - 6); j--) {
      // A row's key (`max: maxMin(...)`, `clamp: { ..., formula: clampBackward }`) or a definition above.
      const key = /^\s*'?([\w.]+)'?: /.exec(lines[j]);
      const names = [...(key ? (OPINFO_OF.get(key[1]) ?? []) : []), ...definedOn(lines[j])];
      if (names.length) {
        out.push(...names);
        return;
      }
    }
  });
  return out;
}

/** OpInfo names (of `candidates`) defined within NEAR lines of `line` in `text`, nearest above first. */
function nearOps(text: string, line: number, candidates: ReadonlySet<string>): string[] {
  if (line <= 0) return [];
  const lines = text.split('\n');
  const dist = new Map<string, number>();
  for (const name of callerOps(lines, line)) if (candidates.has(name)) dist.set(name, -1);
  for (let i = Math.max(0, line - 1 - NEAR); i < Math.min(lines.length, line + NEAR); i++)
    for (const name of definedOn(lines[i])) {
      if (!candidates.has(name)) continue;
      // A definition names its op above its body: names below the line (the next definition) come after.
      const d = i + 1 <= line ? line - (i + 1) : NEAR + (i + 1 - line);
      dist.set(name, Math.min(dist.get(name) ?? Infinity, d));
    }
  return [...dist.keys()].sort((a, b) => dist.get(a)! - dist.get(b)!);
}

const seedOf = (s: string) => Number.parseInt(s.slice(0, 8), 16) || 1;

export class Selector {
  private readonly instances: MatrixInstance[];
  private readonly byFile = new Map<string, MatrixInstance[]>();
  private readonly testImports: Map<string, string[]>;
  private readonly importers: Importers;

  constructor(
    private readonly root: string,
    tier: Tier,
    private readonly maxInstances: number,
  ) {
    this.instances = expandMatrix(tier).filter((i) => i.rule === null);
    this.testImports = testImportMap(root);
    this.importers = new Importers(root);
  }

  /** The matrix instances TD maps to `file`, before any cap. */
  affected(file: string): MatrixInstance[] {
    let list = this.byFile.get(file);
    if (!list) {
      const a = affectedBy([file], this.root);
      list = this.instances.filter((i) => isAffected(i, a));
      this.byFile.set(file, list);
    }
    return list;
  }

  /**
   * Instances for a mutant at `line` of `file`: first those of the ops named within NEAR lines of it (the op a
   * kernel or derivative line belongs to, nearest first), then a stratified sample of the rest, up to the cap.
   */
  select(
    file: string,
    mutantId: string,
    extraTests: readonly string[] = [],
    line = 0,
    only?: readonly string[],
  ): Selection {
    const all = only ? this.instances.filter((i) => only.includes(i.id)) : this.affected(file);
    const candidates = new Set(all.map((i) => i.info.name));
    const near = nearOps(readFileSync(join(this.root, file), 'utf8'), line, candidates);
    const first = near.flatMap((op) => interleaveOracles(all.filter((i) => i.info.name === op)));
    // Then the ops of the op files that import this one (a kernel or helper file names no op itself).
    const users = new Set(
      this.importers.opsUsing(file).filter((op) => candidates.has(op) && !near.includes(op)),
    );
    const second = stratified(
      all.filter((i) => users.has(i.info.name)),
      seedOf(mutantId),
    );
    const rest = stratified(
      all.filter((i) => !near.includes(i.info.name) && !users.has(i.info.name)),
      seedOf(mutantId),
    );
    const run = [...first, ...second, ...rest].slice(0, this.maxInstances);
    return {
      ids: run.map((i) => i.id),
      ops: [...new Set(run.map((i) => i.info.name))],
      selected: all.length,
      // A named mutant (`only`) runs exactly its own tests.
      unitTests: [...new Set([...(only ? [] : (this.testImports.get(file) ?? [])), ...extraTests])].sort(),
    };
  }
}

/** The repository paths `file`'s relative imports and re-exports name. */
function relativeImports(root: string, file: string, text: string): string[] {
  return [...text.matchAll(/^(?:import|export)\s(?:[^;]*?from\s+)?'(\.[^']+)'/gms)].map((m) =>
    relative(root, resolve(root, dirname(file), m[1]))
      .split('\\')
      .join('/'),
  );
}

/** The runtime's import graph, reversed: which files import a file. */
class Importers {
  private readonly by = new Map<string, string[]>();
  private readonly texts = new Map<string, string>();

  constructor(root: string) {
    for (const f of sourceFiles(root, 'src/runtime')) {
      const text = readFileSync(join(root, f), 'utf8');
      this.texts.set(f, text);
      for (const target of relativeImports(root, f, text))
        this.by.set(target, [...(this.by.get(target) ?? []), f]);
    }
  }

  /**
   * OpInfo names of the op files that use `file`: its importers that name ops, reached through importers that
   * name none (helpers of helpers, faces), a few levels up at most.
   */
  opsUsing(file: string): string[] {
    const ops = new Set<string>();
    const seen = new Set([file]);
    let frontier = [file];
    for (let depth = 0; depth < 3 && frontier.length; depth++) {
      const next: string[] = [];
      for (const f of frontier)
        for (const u of this.by.get(f) ?? []) {
          if (seen.has(u)) continue;
          seen.add(u);
          const named = u.startsWith('src/runtime/ops/')
            ? (this.texts.get(u) ?? '').split('\n').flatMap(definedOn)
            : [];
          if (named.length) for (const n of named) ops.add(n);
          else next.push(u);
        }
      frontier = next;
    }
    return [...ops];
  }
}

/** Names a file exports (declarations and export lists). */
function exportsOf(text: string): Set<string> {
  const names = new Set<string>();
  for (const m of text.matchAll(
    /^export (?:async )?(?:function\*?|const|class|let|type|interface|enum) (\w+)/gm,
  ))
    names.add(m[1]);
  for (const m of text.matchAll(/^export (?:type )?\{([^}]*)\}/gm))
    for (const part of m[1].split(',')) {
      const name = part
        .trim()
        .split(/\s+as\s+/)
        .pop()
        ?.replace(/^type\s+/, '');
      if (name) names.add(name);
    }
  return names;
}

/** The names a test imports from its relative imports: `import { a, b as c }` -> a, b; `import * as T` -> T.x. */
function importedNames(text: string): { spec: string; names: string[] }[] {
  const namespaces = [...text.matchAll(/^import\s+\*\s+as\s+(\w+)\s+from\s+'(\.[^']+)'/gm)].map((m) => ({
    spec: m[2],
    names: [...new Set([...text.matchAll(new RegExp(`\\b${m[1]}\\.(\\w+)`, 'g'))].map((u) => u[1]))],
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
function testImportMap(root: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  const add = (f: string, t: string) => {
    const l = map.get(f) ?? [];
    if (!l.includes(t)) map.set(f, [...l, t]);
  };
  const tests = [...sourceFiles(root, 'tests'), ...sourceFiles(root, 'dashboards')].filter((f) =>
    f.endsWith('.test.ts'),
  );
  const sources = ['src', 'op_db', 'dashboards']
    .flatMap((d) => sourceFiles(root, d))
    .filter((f) => !f.endsWith('.test.ts'));
  const byName = new Map<string, string[]>();
  for (const f of sources)
    if (!f.endsWith('index.ts'))
      for (const n of exportsOf(readFileSync(join(root, f), 'utf8')))
        byName.set(n, [...(byName.get(n) ?? []), f]);
  for (const t of tests) {
    const text = readFileSync(join(root, t), 'utf8');
    for (const target of relativeImports(root, t, text)) if (existsSync(join(root, target))) add(target, t);
    for (const { spec, names } of importedNames(text)) {
      if (!spec.endsWith('index.ts')) continue;
      for (const n of names) for (const f of byName.get(n) ?? []) add(f, t);
    }
  }
  return map;
}
