/**
 * Target determination: which instances a change can affect. Changed files map to ops (the op definitions in
 * src/runtime/ops, the kernels a backend file provides to them, op_db entries), to oracles (the sources and
 * template its record in src/oracles/registry.ts names), or to everything (shared infrastructure: core,
 * dispatcher, autograd, compile, the runner, configs).
 * Unrelated files (unit tests, docs, benches) select nothing.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { opDb, REACHED_THROUGH } from '../../../op_db/index.ts';
import { oracleRecords } from '../../oracles/index.ts';
import { operatorTable } from '../../runtime/dispatch/index.ts';
import type { MatrixInstance } from '../matrix.ts';
import { FAMILY_FACE, faceSources, relativeImports } from './imports.ts';

export interface Affected {
  /** Shared infrastructure changed: everything is affected. */
  readonly all: boolean;
  /** OpInfo names, with the devices they are affected on (null: every device). */
  readonly ops: ReadonlyMap<string, ReadonlySet<string> | null>;
  readonly oracles: ReadonlySet<string>;
  /** Why, per changed file. */
  readonly reasons: readonly string[];
}

/** The .ts files under `dir` (repository paths, '/'-separated, in a stable order). */
export function sourceFiles(root: string, dir: string): string[] {
  const abs = join(root, dir);
  if (!existsSync(abs)) return [];
  const out: string[] = [];
  for (const e of readdirSync(abs).sort()) {
    const p = join(abs, e);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(root, relative(root, p)));
    else if (e.endsWith('.ts')) out.push(relative(root, p).split('\\').join('/'));
  }
  return out;
}

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The names an OpInfo's op goes by in the runtime: its name, the op callOp resolves and, for torch.nn.functional's
 * ops, the aten op F.x calls ('nn.functional.multi_margin_loss' / '_functional_multi_margin_loss' call aten's
 * 'multi_margin_loss', whose kernel file names only that).
 */
export function runtimeNamesOf(info: { readonly name: string; readonly op: string }): string[] {
  const wrapped = [/^nn\.functional\.(\w+)$/.exec(info.name)?.[1], /^_functional_(\w+)$/.exec(info.op)?.[1]];
  return [...new Set([info.name, info.op, ...wrapped.filter((n): n is string => n !== undefined)])];
}

/** OpInfo names whose op name appears quoted in `text` ('exp', 'sum(Tensor ...', name: 'add', ...). */
function opsNamedIn(text: string): string[] {
  // 'exp', name: 'add', 'sum(Tensor self ...', 'add.Tensor', 'add_': but not a WGSL call like 'max(a, b)'.
  const named = (n: string) =>
    new RegExp(`(['"\`])${esc(n)}(\\1|[._]|\\((?:[A-Z]|int|float|bool|str|\\)))`).test(text);
  const own = opDb.filter((info) => runtimeNamesOf(info).some(named)).map((i) => i.name);
  // An op with no OpInfo of its own (aten convolution) is tested through the OpInfo whose samples reach it.
  const through = Object.entries(REACHED_THROUGH)
    .filter(([op]) => named(op))
    .map(([, r]) => r.info);
  return [...new Set([...own, ...through])];
}

/**
 * Names a file exports: its value declarations (functions, consts, classes); with `all`, also its types and the
 * names of its export lists (`export { a, b as c }`: a face's re-exports).
 */
export function exportedNames(text: string, all = false): string[] {
  const kinds = all ? 'function\\*?|const|class|let|type|interface|enum' : 'function\\*?|const|class|let';
  const names = [...text.matchAll(new RegExp(`^export (?:async )?(?:${kinds}) (\\w+)`, 'gm'))].map(
    (m) => m[1],
  );
  if (all)
    for (const m of text.matchAll(/^export (?:type )?\{([^}]*)\}/gm))
      for (const part of m[1].split(',')) {
        const name = part
          .trim()
          .split(/\s+as\s+/)
          .pop()
          ?.replace(/^type\s+/, '');
        if (name) names.push(name);
      }
  return names;
}

/** Files among `files` that mention any of `names` (word match), i.e. use what the changed file provides. */
function users(files: readonly string[], names: readonly string[], text: (f: string) => string): string[] {
  if (names.length === 0) return [];
  const re = new RegExp(`\\b(${names.map(esc).join('|')})\\b`);
  return files.filter((f) => re.test(text(f)));
}

/** Repository paths that belong to oracles (their sources and templates) -> the oracles they re-run. */
function oracleFiles(): Map<string, string[]> {
  const files = new Map<string, string[]>();
  for (const r of oracleRecords())
    for (const f of [...r.sources, r.template]) files.set(f, [...(files.get(f) ?? []), r.name]);
  return files;
}
/** A quoted name, possibly with `${k}` placeholders inside it (`max_pool${nd}d_with_indices`). */
const NAME = String.raw`[A-Za-z_][\w.]*(?:\$\{\w+\}[\w.]*)*`;
const QUOTED = new RegExp(String.raw`['\x60](${NAME})`, 'g');
const CALLED = new RegExp(String.raw`\b(?:t|callOp|callTensor|callTensors)\(\s*['\x60](${NAME})`, 'g');

/** A name with its `${...}` placeholders expanded to the spatial ranks 1..3 (the only thing they spell in op names). */
function expand(name: string): string[] {
  const i = name.indexOf('${');
  if (i < 0) return [name];
  const j = name.indexOf('}', i);
  return ['1', '2', '3'].flatMap((d) => expand(name.slice(0, i) + d + name.slice(j + 1)));
}

/** Op names a file calls through the dispatcher (`t('max_unpool2d', ...)`, callOp(`adaptive_avg_pool${k}d`, ...)). */
function calledIn(text: string): Set<string> {
  return new Set([...text.matchAll(CALLED)].flatMap((m) => expand(m[1])));
}

/**
 * Names a file quotes but does not call: the ops it defines (a schema string, a `name:` in a table), plus stray
 * strings, which are harmless here since only names some other file calls are followed.
 */
function definedIn(text: string): Set<string> {
  const called = calledIn(text);
  return new Set([...text.matchAll(QUOTED)].flatMap((m) => expand(m[1])).filter((n) => !called.has(n)));
}

const SCHEMA = new RegExp(
  String.raw`['\x60](${NAME})(?:\.\w+)?\((?:[A-Z]|int|float|bool|str|\$|\))|name: ['\x60](${NAME})['\x60]`,
  'g',
);

/** The op names a file defines: in a schema string (`'max_unpool2d(Tensor self, ...'`) or a table's `name:`. */
function schemasIn(text: string): Set<string> {
  return new Set([...text.matchAll(SCHEMA)].flatMap((m) => expand(m[1] ?? m[2])));
}

/** Every name a file quotes, called or not, without its overload (`upsample_nearest2d.vec` -> upsample_nearest2d). */
function quotedIn(text: string): Set<string> {
  return new Set([...text.matchAll(QUOTED)].flatMap((m) => expand(m[1])).map((n) => n.replace(/\..*/, '')));
}

/**
 * The OpInfos a kernel or helper file of src/runtime/ops reaches through its users: the op files importing it
 * (transitively), then, through the dispatcher, the files calling an op those define that has no OpInfo of its
 * own (max_pool2d_with_indices is tested only through F.max_pool2d) — an op with its own OpInfo is tested
 * directly and is not followed, or a change to sum would select every op calling sum.
 */
export function reachedThroughUsers(
  root: string,
  f: string,
  files: readonly string[],
  text: (f: string) => string,
) {
  const registered = new Set(operatorTable.names());
  const tested = new Set(opDb.flatMap((i) => [i.name, i.op]));
  const reached = new Set([f]);
  let frontier = [f];
  for (let depth = 0; depth < 4 && frontier.length; depth++) {
    const next = files.filter(
      (u) => !reached.has(u) && frontier.some((g) => relativeImports(root, u, text(u)).includes(g)),
    );
    for (const u of next) reached.add(u);
    frontier = next;
  }
  // Registered ops without an OpInfo that the reached files define (quote, not call); their users call them or
  // name them in a table (interpolate's mode -> op table).
  const follow = new Set<string>();
  const addDefined = (g: string) => {
    for (const n of definedIn(text(g))) {
      const base = n.replace(/\..*/, '');
      if (registered.has(base) && !tested.has(base)) follow.add(base);
    }
  };
  for (const g of reached) addDefined(g);
  for (let depth = 0; depth < 4; depth++) {
    const callers = files.filter((v) => !reached.has(v) && [...quotedIn(text(v))].some((n) => follow.has(n)));
    if (!callers.length) break;
    for (const v of callers) {
      reached.add(v);
      addDefined(v);
    }
  }
  // F's wrappers (`_functional_max_pool2d`) serve the aten op of the same name.
  const schemas = new Set([...reached].flatMap((g) => [...schemasIn(text(g))]));
  const defined = new Set([...reached].flatMap((g) => [...definedIn(text(g))]));
  const serves = (op: string) =>
    schemas.has(op) || (op.startsWith('_functional_') && defined.has(op.slice('_functional_'.length)));
  return { files: reached.size - 1, ops: opDb.filter((i) => serves(i.op)).map((i) => i.name) };
}

/** More user files than this: op machinery (op_helpers.ts), not one family's kernel. */
const SHARED_USERS = 20;
const IGNORED = /^(tests\/unit\/|bench\/|dashboards\/|docs\/|.*\.md$|\.github\/|LICENSE)/;

/** A memoized reader of repository files (empty text for a deleted one). */
function fileReader(root: string): (f: string) => string {
  const cache = new Map<string, string>();
  return (f) => {
    let t = cache.get(f);
    if (t === undefined) {
      t = existsSync(join(root, f)) ? readFileSync(join(root, f), 'utf8') : '';
      cache.set(f, t);
    }
    return t;
  };
}

export function affectedBy(changed: readonly string[], root: string): Affected {
  const text = fileReader(root);
  const byOracleFile = oracleFiles();
  const opsFiles = sourceFiles(root, 'src/runtime/ops');
  const opDbFiles = sourceFiles(root, 'op_db/ops');
  const ops = new Map<string, Set<string> | null>();
  const oracles = new Set<string>();
  const reasons: string[] = [];
  let all = false;
  const addOps = (names: readonly string[], device: string | null) => {
    for (const n of names) {
      const prev = ops.get(n);
      if (device === null || prev === null) ops.set(n, null);
      else ops.set(n, new Set([...(prev ?? []), device]));
    }
  };
  const everything = (f: string, why: string) => {
    all = true;
    reasons.push(`${f}: ${why} -> everything`);
  };

  // A family face only re-exports: a change to it is a change to the files it re-exports from.
  const files = changed.flatMap((f) =>
    FAMILY_FACE.test(f) && existsSync(join(root, f)) ? [f, ...faceSources(root, f)] : [f],
  );
  for (const f of files) {
    if (FAMILY_FACE.test(f)) {
      reasons.push(`${f}: an op family's face -> the files it re-exports`);
      continue;
    }
    if (IGNORED.test(f)) {
      reasons.push(`${f}: not part of the matrix -> nothing`);
      continue;
    }
    const ofOracles = byOracleFile.get(f);
    if (ofOracles) {
      for (const o of ofOracles) oracles.add(o);
      const what = f.startsWith('tests/')
        ? `the ${ofOracles.join('/')} template`
        : `oracle ${ofOracles.join('/')}`;
      reasons.push(`${f}: ${what} -> that oracle`);
      continue;
    }
    if (f.startsWith('src/runtime/ops/')) {
      const names = opsNamedIn(text(f));
      // A kernel or helper file's ops are those of its users, which may name none of it (dispatch by name).
      const users = reachedThroughUsers(root, f, opsFiles, text);
      const shared = users.files > SHARED_USERS;
      const all = [...new Set([...names, ...(shared ? [] : users.ops)])];
      if (all.length && (names.length || !shared)) {
        addOps(all, null);
        reasons.push(`${f}: defines or serves ${all.length} op(s) -> ${all.join(', ')}`);
      } else everything(f, 'op machinery shared by many ops');
      continue;
    }
    const backend = /^src\/runtime\/backends\/(\w+)\//.exec(f);
    if (backend) {
      // The ops whose definitions use what this kernel file exports (directly or through its backend's files).
      const dev = backend[1];
      const backendFiles = sourceFiles(root, `src/runtime/backends/${dev}`).filter(
        (x) => !x.endsWith('index.ts'),
      );
      let names = exportedNames(text(f));
      const seen = new Set([f]);
      for (let changedSet = true; changedSet; ) {
        changedSet = false;
        for (const u of users(backendFiles, names, text)) {
          if (seen.has(u)) continue;
          seen.add(u);
          names = [...names, ...exportedNames(text(u))];
          changedSet = true;
        }
      }
      const defining = users(opsFiles, names, text);
      const found = defining.map((d) => [d, opsNamedIn(text(d))] as const);
      if (defining.length === 0 || found.some(([, n]) => n.length === 0)) {
        everything(f, `${dev} kernels used by shared op machinery`);
        continue;
      }
      // ... and the ops reaching those definitions by name (F.interpolate -> upsample_nearest2d in upsample.ts).
      const served = defining.flatMap((d) => {
        const u = reachedThroughUsers(root, d, opsFiles, text);
        return u.files > SHARED_USERS ? [] : u.ops;
      });
      const opNames = [...new Set([...found.flatMap(([, n]) => n), ...served])];
      // A cpu kernel is also the baseline the webgpu cross-backend oracle compares with: every device.
      addOps(opNames, dev === 'webgpu' ? 'webgpu' : null);
      reasons.push(`${f}: ${dev} kernels of ${defining.join(', ')} -> ${opNames.join(', ')}`);
      continue;
    }
    if (f.startsWith('op_db/ops/')) {
      // The OpInfos built by that file's declarations (through any helper), else the ones its text names.
      const declared = opDb.filter((o) => o.declaredIn === f).map((o) => o.name);
      const names = declared.length ? declared : opsNamedIn(text(f));
      addOps(names, null);
      reasons.push(`${f}: OpInfos ${names.join(', ') || '(none found)'}`);
      if (!names.length) everything(f, 'no OpInfo recognised');
      continue;
    }
    const golden = /^op_db\/goldens\/(.+)\.json\.gz$/.exec(f);
    if (golden && opDb.some((o) => o.name === golden[1])) {
      // An op's recorded PyTorch results: every oracle of it still runs (the golden one compares with them).
      addOps([golden[1]], null);
      reasons.push(`${f}: the goldens of ${golden[1]}`);
      continue;
    }
    if (f.startsWith('op_db/') && f.endsWith('.ts')) {
      const defining = users(opDbFiles, exportedNames(text(f)), text);
      const names = [...new Set(defining.flatMap((d) => opsNamedIn(text(d))))];
      if (names.length && !f.endsWith('index.ts')) {
        addOps(names, null);
        reasons.push(`${f}: used by ${defining.join(', ')} -> ${names.length} op(s)`);
      } else everything(f, 'op_db infrastructure');
      continue;
    }
    everything(f, 'shared infrastructure');
  }
  return { all, ops, oracles, reasons };
}

export function isAffected(i: MatrixInstance, a: Affected): boolean {
  if (a.all || a.oracles.has(i.oracle)) return true;
  if (!a.ops.has(i.info.name)) return false;
  const devices = a.ops.get(i.info.name);
  return devices === null || devices === undefined || devices.has(i.device);
}

/** The OpInfos a file under src/runtime/ops serves through its users (mutate runs them first). */
export function opsServedBy(file: string, root: string): string[] {
  const text = fileReader(root);
  if (!file.startsWith('src/runtime/ops/')) return [];
  const served = reachedThroughUsers(root, file, sourceFiles(root, 'src/runtime/ops'), text);
  return served.files > SHARED_USERS ? [] : served.ops;
}
