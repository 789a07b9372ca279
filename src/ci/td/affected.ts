/**
 * Target determination: which instances a change can affect. Changed files map to ops (the op definitions in
 * src/runtime/ops, the kernels a backend file provides to them, op_db entries), to oracles (the sources and
 * template its record in src/oracles/registry.ts names), or to everything (shared infrastructure: core,
 * dispatcher, autograd, compile, the runner, configs).
 * Unrelated files (unit tests, docs, benches) select nothing.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { opDb } from '../../../op_db/index.ts';
import { REACHED_THROUGH } from '../../../op_db/reached.ts';
import { oracleRecords } from '../../oracles/index.ts';
import type { MatrixInstance } from '../matrix.ts';

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

/** OpInfo names whose op name appears quoted in `text` ('exp', 'sum(Tensor ...', name: 'add', ...). */
function opsNamedIn(text: string): string[] {
  // 'exp', name: 'add', 'sum(Tensor self ...', 'add.Tensor', 'add_': but not a WGSL call like 'max(a, b)'.
  const named = (n: string) =>
    new RegExp(`(['"\`])${esc(n)}(\\1|[._]|\\((?:[A-Z]|int|float|bool|str|\\)))`).test(text);
  const own = opDb.filter((info) => [...new Set([info.name, info.op])].some(named)).map((i) => i.name);
  // An op with no OpInfo of its own (aten convolution) is tested through the OpInfo whose samples reach it.
  const through = Object.entries(REACHED_THROUGH)
    .filter(([op]) => named(op))
    .map(([, r]) => r.info);
  return [...new Set([...own, ...through])];
}

/** Names a file exports (functions, consts, classes). */
function exportsOf(text: string): string[] {
  return [...text.matchAll(/^export (?:async )?(?:function|const|class|let) (\w+)/gm)].map((m) => m[1]);
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
const IGNORED = /^(tests\/unit\/|bench\/|dashboards\/|docs\/|.*\.md$|\.github\/|LICENSE)/;

export function affectedBy(changed: readonly string[], root: string): Affected {
  const cache = new Map<string, string>();
  const text = (f: string) => {
    let t = cache.get(f);
    if (t === undefined) {
      t = existsSync(join(root, f)) ? readFileSync(join(root, f), 'utf8') : '';
      cache.set(f, t);
    }
    return t;
  };
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

  for (const f of changed) {
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
      if (names.length) {
        addOps(names, null);
        reasons.push(`${f}: defines ${names.length} op(s) -> ${names.join(', ')}`);
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
      let names = exportsOf(text(f));
      const seen = new Set([f]);
      for (let changedSet = true; changedSet; ) {
        changedSet = false;
        for (const u of users(backendFiles, names, text)) {
          if (seen.has(u)) continue;
          seen.add(u);
          names = [...names, ...exportsOf(text(u))];
          changedSet = true;
        }
      }
      const defining = users(opsFiles, names, text);
      const found = defining.map((d) => [d, opsNamedIn(text(d))] as const);
      if (defining.length === 0 || found.some(([, n]) => n.length === 0)) {
        everything(f, `${dev} kernels used by shared op machinery`);
        continue;
      }
      const opNames = [...new Set(found.flatMap(([, n]) => n))];
      // A cpu kernel is also the baseline the webgpu cross-backend oracle compares with: every device.
      addOps(opNames, dev === 'webgpu' ? 'webgpu' : null);
      reasons.push(`${f}: ${dev} kernels of ${defining.join(', ')} -> ${opNames.join(', ')}`);
      continue;
    }
    if (f.startsWith('op_db/ops/')) {
      const names = opsNamedIn(text(f));
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
      const defining = users(opDbFiles, exportsOf(text(f)), text);
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
