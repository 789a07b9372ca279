/**
 * What a mutant runs: the matrix instances target determination maps to its file (those without a skip or
 * xfail rule, capped by a sample stratified over (oracle, op) so a shared file still reaches every oracle and
 * many ops), then the unit tests that import the file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { opDb, REACHED_THROUGH } from '../../../op_db/index.ts';
import { expandMatrix, type MatrixInstance, type Tier } from '../matrix.ts';
import {
  affectedBy,
  isAffected,
  opsServedBy,
  relativeImports,
  runtimeNamesOf,
  sourceFiles,
} from '../td/index.ts';
import { type Mutant, shuffled } from './generate.ts';
import type { ReachMap } from './reach.ts';
import { enclosingMethod, UnitTests } from './unit_tests.ts';

export interface Selection {
  /** Instance ids in run order. */
  readonly ids: readonly string[];
  /** OpInfo names among them. */
  readonly ops: readonly string[];
  /** How many instances target determination selected before the cap. */
  readonly selected: number;
  readonly unitTests: readonly string[];
  /** How many of the instances run are ones the reach map saw execute the mutated line (0 without a map). */
  readonly reached: number;
  /** The reach map, built on this tree, saw no instance execute the line: no instance can tell the mutant. */
  readonly unreached: boolean;
}

/** What selection needs of a mutant. */
export type SelectTarget = Pick<Mutant, 'file' | 'id' | 'line' | 'operator'> &
  Partial<Pick<Mutant, 'tests' | 'instances' | 'original'>>;

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

const VALUE_ORACLES = new Set(['reference', 'golden', 'crossbackend']);
const GRADIENT_ORACLES = new Set(['gradcheck', 'gradgradcheck', 'backward']);
const HALF = new Set(['float16', 'bfloat16']);

/**
 * The instances a mutant can show on, when its file serves far more than the cap (core/ and the cpu iterator
 * map to the whole matrix): per mutation operator (and the mutated line), the dtype / layout / oracle the
 * mutated code serves. Those run first, the others after; a predicate only reorders, it never drops.
 */
export const PREFERRED: readonly {
  readonly why: string;
  readonly applies: (operator: string, line: string, file: string) => boolean;
  readonly prefers: (i: MatrixInstance, line: string) => boolean;
}[] = [
  {
    why: 'a derivative formula (or its sum-to-size) shows only in a gradient',
    applies: (_o, l) => /\bc\.grad\b|\bGrads\b|\bsumToSize\(|\bgrad\w*\b/.test(l),
    prefers: (i) => GRADIENT_ORACLES.has(i.oracle),
  },
  {
    why: 'a dropped guard shows as a missing error: the errors and dtypes oracles call what must raise',
    applies: (o, l) =>
      o === 'drop-guard' || (o === 'swap-comparison' && /\bthrow\b|^function (?:assert|check)[A-Z]/m.test(l)),
    prefers: (i) => i.oracle === 'errors' || i.oracle === 'dtypes',
  },
  {
    // exactRounding ops compare 16-bit results bit for bit: PyTorch's half tolerance is wider than an ulp.
    why: 'a 16-bit rounding bug shows only in float16 / bfloat16 values, bit for bit',
    applies: (o) => o === 'round-toward-zero',
    prefers: (i) => HALF.has(i.dtype) && VALUE_ORACLES.has(i.oracle) && i.info.flags.exactRounding,
  },
  {
    // codegen's F2I / N2L and the element writers map to the whole matrix; `to` has the float64 edge samples.
    why: "a float -> int cast's range bound shows only on a value at that bound: `to`'s float64 cast samples",
    applies: (_o, l) => /2147483648|2 \*\* 63/.test(l),
    prefers: (i) => i.info.name === 'to' && i.dtype === 'float64' && VALUE_ORACLES.has(i.oracle),
  },
  {
    why: 'a dropped storage offset shows only on a tensor that starts inside its storage',
    applies: (o) => o === 'drop-offset',
    prefers: (i) => i.layout === 'offset' && VALUE_ORACLES.has(i.oracle),
  },
  {
    why: 'a dropped stride term shows only on a non-contiguous operand',
    applies: (o) => o === 'drop-stride-term',
    prefers: (i) => i.layout !== 'contiguous' && VALUE_ORACLES.has(i.oracle),
  },
  {
    // The earned-tolerance check runs in the reference oracle on cpu, for the dtype the override names.
    why: "a loosened tolerance shows in the earned check: the reference oracle on cpu, of the line's dtype",
    applies: (o) => o === 'scale-tolerance',
    prefers: (i, l) => i.oracle === 'reference' && i.device === 'cpu' && new RegExp(`\\b${i.dtype}:`).test(l),
  },
  {
    // Every pointwise op runs it, so target determination maps it to the whole matrix; add carries the samples.
    why: "TensorIterator's dim order shows in the strides of a pointwise output: golden add's tied-stride samples",
    applies: (_o, _l, f) => f === 'src/runtime/core/layout.ts',
    prefers: (i) => i.oracle === 'golden' && i.info.name === 'add' && i.device === 'cpu',
  },
  {
    why: 'a narrowed accumulator shows only where float32 rounding is wider than the tolerance',
    applies: (o) => o === 'narrow-accumulator',
    prefers: (i) => (i.dtype === 'float64' || i.dtype === 'int64') && VALUE_ORACLES.has(i.oracle),
  },
];

/** `list` split into the instances some applicable preference picks and the others (each keeps its order). */
export function splitPreferred<T extends MatrixInstance>(
  list: readonly T[],
  operator: string,
  lineText: string,
  file = '',
): [T[], T[]] {
  const rules = PREFERRED.filter((p) => p.applies(operator, lineText, file));
  const hit = (i: T) => rules.some((r) => r.prefers(i, lineText));
  return [list.filter(hit), list.filter((i) => !hit(i))];
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

/**
 * Op names an op file serves, more loosely than definedOn: also any quoted op name (a list of kinds a template
 * schema takes, `for (const kind of ['cumsum', 'cumprod'])`), as OpInfo names.
 */
function servedBy(text: string): string[] {
  const out = text.split('\n').flatMap(definedOn);
  for (const m of text.matchAll(/'([\w.]+)'/g)) out.push(...(OPINFO_OF.get(m[1]) ?? []));
  return [...new Set(out)];
}

const OPINFO_OF = (() => {
  const map = new Map<string, string[]>();
  for (const o of opDb) for (const n of runtimeNamesOf(o)) map.set(n, [...(map.get(n) ?? []), o.name]);
  // An op with no OpInfo of its own (aten convolution, im2col) belongs to the OpInfo whose samples reach it.
  for (const [op, r] of Object.entries(REACHED_THROUGH)) if (!map.has(op)) map.set(op, [r.info]);
  return map;
})();

/**
 * The ops whose rows call the function holding `line` (a derivative helper such as matmulBackward, used by the
 * `matmul: {` row far below it): the nearest op named at or just above each call.
 */
function callerOps(lines: readonly string[], line: number): string[] {
  const text = lines.join('\n');
  const fn = enclosingFunction(text, line);
  if (!fn) return [];
  const use = new RegExp(`\\b${fn}\\b`);
  const out: string[] = [];
  lines.forEach((l, i) => {
    if (!use.test(l) || /^(?:export )?(?:async )?(?:function|const) /.test(l)) return;
    // Used inside a definition named as an op (`const prod: Derivative = { ... prodBackward(...) }`).
    out.push(...(OPINFO_OF.get(enclosingFunction(text, i + 1) ?? '') ?? []));
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

/** The name of the top-level function (or const) whose body holds `line`, if any. */
export function enclosingFunction(text: string, line: number): string | null {
  const lines = text.split('\n');
  for (let i = Math.min(line, lines.length) - 1; i >= 0; i--) {
    const m = /^(?:export )?(?:async )?(?:function\*? |const |let )(\w+)/.exec(lines[i]);
    if (m) return m[1];
    if (i < line - 1 && /^\}/.test(lines[i])) return null;
  }
  return null;
}

const seedOf = (s: string) => Number.parseInt(s.slice(0, 8), 16) || 1;

export class Selector {
  private readonly instances: MatrixInstance[];
  private readonly byFile = new Map<string, MatrixInstance[]>();
  private readonly tests: UnitTests;
  private readonly importers: Importers;
  private readonly byId: Map<string, MatrixInstance>;

  constructor(
    private readonly root: string,
    tier: Tier,
    private readonly maxInstances: number,
    private readonly reach: ReachMap | null = null,
  ) {
    this.instances = expandMatrix(tier).filter((i) => i.rule === null);
    this.byId = new Map(this.instances.map((i) => [i.id, i]));
    this.tests = new UnitTests(root);
    this.importers = new Importers(root);
  }

  /**
   * TD's instances for `file`, plus those of the ops whose op files import it: TD maps a helper by the op names
   * it mentions (pointwise/define.ts names only `add.Tensor`, in a comment), while every op built on it can
   * show its mutant.
   */
  private withUsers(file: string): MatrixInstance[] {
    const a = this.affected(file);
    if (a.length === this.instances.length) return a;
    const users = new Set(this.importers.opsUsing(file));
    if (users.size === 0) for (const op of this.importers.opsBeside(file)) users.add(op);
    const have = new Set(a.map((i) => i.id));
    return [...a, ...this.instances.filter((i) => users.has(i.info.name) && !have.has(i.id))];
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
   * With a reach map, the instances that execute the line go first, whether TD mapped them or not.
   */
  select(m: SelectTarget): Selection {
    const { file, line, operator } = m;
    const only = m.instances;
    const text = readFileSync(join(this.root, file), 'utf8');
    const all = only ? this.instances.filter((i) => only.includes(i.id)) : this.withUsers(file);
    const candidates = new Set(all.map((i) => i.info.name));
    const near = [...nearOps(text, line, candidates)];
    // A helper's line (binary_math's floorDivFloat): the ops defined where its function is used.
    for (const op of this.importers.opsNearUses(file, enclosingFunction(text, line), candidates))
      if (!near.includes(op)) near.push(op);
    const lines = text.split('\n');
    // A guard `if (...)` whose throw is its next line: the preferences see both (a swapped bound is a guard).
    const lineText =
      (lines[line - 1] ?? '') +
      (/^\s*if \(.*\)\s*$/.test(lines[line - 1] ?? '') ? `\n${lines[line] ?? ''}` : '') +
      // A line of an assert / check function (assertNoPartialOverlap's stride test) is a guard too.
      (/^(?:assert|check)[A-Z]/.test(enclosingFunction(text, line) ?? '')
        ? `\nfunction ${enclosingFunction(text, line)}`
        : '');
    const seed = seedOf(m.id);
    const first = near.flatMap((op) => interleaveOracles(all.filter((i) => i.info.name === op)));
    // Then TD's own instances, when TD maps the file to fewer than the whole matrix (a webgpu kernel file ->
    // sort and topk on webgpu): withUsers adds thousands through the backend's face, and a stratified 400 of
    // those rarely holds the one instance that runs the mutated kernel.
    const own = this.affected(file);
    const direct = new Set(own.length < this.instances.length ? own.map((i) => i.id) : []);
    const firstIds = new Set(first.map((i) => i.id));
    const tdOwn = stratified(
      all.filter((i) => direct.has(i.id) && !firstIds.has(i.id)),
      seed,
    );
    // Then the ops of the op files that import this one (a kernel or helper file names no op itself).
    // ... and the ops reaching it through the dispatcher (F.max_pool2d -> max_pool2d_with_indices -> nn/pool/windows.ts).
    const users = new Set(
      [...this.importers.opsUsing(file), ...opsServedBy(file, this.root)].filter(
        (op) => candidates.has(op) && !near.includes(op),
      ),
    );
    const second = stratified(
      all.filter((i) => users.has(i.info.name) && !direct.has(i.id)),
      seed,
    );
    const rest = stratified(
      all.filter((i) => !near.includes(i.info.name) && !users.has(i.info.name) && !direct.has(i.id)),
      seed,
    );
    // A webgpu kernel runs only on webgpu: its instances (and crossbackend's, which run both) come first.
    const onDevice = (l: MatrixInstance[]) =>
      file.startsWith('src/runtime/backends/webgpu/')
        ? [...l.filter((i) => i.device === 'webgpu'), ...l.filter((i) => i.device !== 'webgpu')]
        : l;
    // The instances the mutated code serves (PREFERRED) before all others, each part in the order above.
    const ordered = splitPreferred(
      onDevice([...first, ...tdOwn, ...second, ...rest]),
      operator,
      lineText,
      file,
    ).flat();
    const reach =
      this.reach && !only && m.original !== undefined
        ? this.reach.reached({ ...m, original: m.original })
        : null;
    let run = ordered;
    let reached = 0;
    let unreached = false;
    if (reach?.kind === 'instances') {
      const inTd = new Set(ordered.map((i) => i.id));
      const beyondTd = stratified(
        [...reach.ids].filter((id) => !inTd.has(id)).flatMap((id) => this.byId.get(id) ?? []),
        seed,
      );
      // Instances the map never ran (new since a stale map was built) may reach the line too: they go with the hits.
      const maybe = (i: MatrixInstance) => reach.ids.has(i.id) || (!reach.exact && !reach.known(i.id));
      const hit = [...ordered.filter(maybe), ...beyondTd];
      reached = Math.min(hit.length, this.maxInstances);
      unreached = hit.length === 0 && reach.exact;
      run = unreached ? [] : [...hit, ...ordered.filter((i) => !maybe(i))];
    }
    run = run.slice(0, this.maxInstances);
    return {
      ids: run.map((i) => i.id),
      ops: [...new Set(run.map((i) => i.info.name))],
      selected: all.length,
      // A named mutant (`only`) runs exactly its own tests.
      unitTests: [
        ...new Set([
          ...(only
            ? []
            : [...this.tests.importing(file), ...this.tests.calling(enclosingMethod(lines, line))]),
          ...(m.tests ?? []),
        ]),
      ].sort(),
      reached,
      unreached,
    };
  }
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

  /** The files importing `file`, directly or through folder faces (index.ts) that re-export it. */
  private importersOf(file: string): Set<string> {
    const out = new Set<string>();
    const todo = [file];
    for (let f = todo.pop(); f !== undefined; f = todo.pop())
      for (const u of this.by.get(f) ?? [])
        if (!out.has(u)) {
          out.add(u);
          if (u.endsWith('index.ts')) todo.push(u);
        }
    return out;
  }

  /**
   * The ops defined near (NEAR lines) each use of function `name` of `file` in the files that import it (a
   * common name, `fill` or `check`, also appears in files that never call this one).
   */
  opsNearUses(file: string, name: string | null, candidates: ReadonlySet<string>): string[] {
    if (!name) return [];
    const re = new RegExp(`\\b${name}\\b`);
    const ops: string[] = [];
    const importers = this.importersOf(file);
    for (const [f, text] of this.texts) {
      if (!importers.has(f) || !re.test(text)) continue;
      text.split('\n').forEach((l, i) => {
        if (!re.test(l) || /^\s*import\b|^\s*\w+,$/.test(l)) return;
        for (const op of nearOps(text, i + 1, candidates)) if (!ops.includes(op)) ops.push(op);
      });
    }
    return ops;
  }

  /**
   * For an op helper no op file imports by name (pointwise/define.ts: ops/index.ts hands it every row), that
   * defines no op itself: the ops its family defines, in its folder and the sub-family folders below it
   * (pointwise/define.ts: the rows of pointwise/arith/, trig/, ...). At the ops root only the files beside it.
   */
  opsBeside(file: string): string[] {
    if (
      !file.startsWith('src/runtime/ops/') ||
      (this.texts.get(file) ?? '').split('\n').some((l) => definedOn(l).length)
    )
      return [];
    const dir = file.slice(0, file.lastIndexOf('/') + 1);
    const deep = dir !== 'src/runtime/ops/';
    const ops = new Set<string>();
    for (const [f, text] of this.texts)
      if (f !== file && f.startsWith(dir) && (deep || !f.slice(dir.length).includes('/')))
        for (const n of servedBy(text)) ops.add(n);
    return [...ops];
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
          const named = u.startsWith('src/runtime/ops/') ? servedBy(this.texts.get(u) ?? '') : [];
          if (named.length) for (const n of named) ops.add(n);
          else next.push(u);
        }
      frontier = next;
    }
    return [...ops];
  }
}
