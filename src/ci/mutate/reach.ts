/**
 * The reach map: which matrix instances execute each mutable line, measured by running the matrix once under
 * V8's block coverage (reach_worker.ts). Target determination maps a file to the instances that can reach it; a
 * core file (the cpu iterator, the structured-op frame) maps to the whole matrix, and the cap on instances per
 * mutant then picks a few hundred of 31,000 at random, so a mutant on the tiled walk that only a 128 x 128
 * transposed add reaches was never run against it. With the map, the instances that execute the mutated line
 * run first; a line no instance executes is reported as unreached instead of burning the cap (its mutant cannot
 * change any instance's result: the matrix never runs it).
 *
 * Lines are keyed by text as well as number, so a map built a few commits ago still finds a line that moved; a
 * map is exact only for the tree it was built on (`fresh`), and only then does "no instance reaches it" skip.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expandMatrix, type MatrixInstance, type Tier } from '../matrix.ts';
import { sourceFiles } from '../td/index.ts';
import { MUTATED_ROOTS, type Mutant } from './generate.ts';
import { runProcess } from './process.ts';
import type { ReachJob } from './reach_worker.ts';

export interface ReachMapData {
  readonly version: 1;
  readonly tier: Tier;
  /** Hash of every file under the mutated roots when the map was built. */
  readonly tree: string;
  /** file -> line -> its trimmed text, for every watched line. */
  readonly texts: Record<string, Record<string, string>>;
  /** `file:line` keys that run while modules load: every instance reaches them. */
  readonly loadTime: readonly string[];
  /** `file:line` keys no compiled code maps to (source text inside a template): coverage cannot tell. */
  readonly unmapped: readonly string[];
  /** Instance ids; `hits` refers to them by index. */
  readonly ids: readonly string[];
  /** `file:line` -> indices into `ids` of the instances that executed it. */
  readonly hits: Record<string, readonly number[]>;
  readonly seconds: number;
  /** Built over some instances only (`only`): an ordering hint, never exact. */
  readonly partial?: boolean;
}

/** Hash of the sources the matrix runs (the runtime, the oracles, op_db): a map is exact for one value of it. */
export function treeHash(root: string): string {
  const h = createHash('sha1');
  for (const d of MUTATED_ROOTS)
    for (const f of sourceFiles(root, d))
      h.update(f)
        .update('\0')
        .update(readFileSync(join(root, f)));
  return h.digest('hex').slice(0, 16);
}

/** What the map says about one mutant's line. */
export type Reached =
  | { readonly kind: 'unknown' }
  | { readonly kind: 'load-time' }
  | {
      readonly kind: 'instances';
      readonly ids: ReadonlySet<string>;
      readonly exact: boolean;
      /** Whether the map ran this instance at all (one added since a stale map was built may reach the line). */
      readonly known: (id: string) => boolean;
    };

export class ReachMap {
  readonly fresh: boolean;
  private readonly loadTime: Set<string>;
  private readonly unmapped: Set<string>;
  private knownIds: Set<string> | null = null;

  constructor(
    readonly data: ReachMapData,
    root: string,
  ) {
    this.fresh = !data.partial && data.tree === treeHash(root);
    this.loadTime = new Set(data.loadTime);
    this.unmapped = new Set(data.unmapped ?? []);
  }

  static load(path: string, root: string): ReachMap {
    return new ReachMap(JSON.parse(readFileSync(path, 'utf8')) as ReachMapData, root);
  }

  /** The line the map knows as `m`'s: its own number when the text matches there, else the nearest such text. */
  private lineOf(m: Pick<Mutant, 'file' | 'line' | 'original'>): number | null {
    const texts = this.data.texts[m.file];
    if (!texts) return null;
    const want = m.original.trim();
    if (texts[m.line] === want) return m.line;
    let best: number | null = null;
    for (const [l, t] of Object.entries(texts))
      if (t === want && (best === null || Math.abs(Number(l) - m.line) < Math.abs(best - m.line)))
        best = Number(l);
    return best;
  }

  reached(m: Pick<Mutant, 'file' | 'line' | 'original'>): Reached {
    const line = this.lineOf(m);
    if (line === null) return { kind: 'unknown' };
    const key = `${m.file}:${line}`;
    if (this.unmapped.has(key)) return { kind: 'unknown' };
    const hits = this.data.hits[key] ?? [];
    // A line that also runs at load time (a helper a table calls) reaches every instance through what it built:
    // the instances that run it later still go first, but none is ever ruled out.
    const atLoad = this.loadTime.has(key);
    if (atLoad && hits.length === 0) return { kind: 'load-time' };
    const ids = new Set(hits.map((i) => this.data.ids[i]));
    this.knownIds ??= new Set(this.data.ids);
    const known = this.knownIds;
    return {
      kind: 'instances',
      ids,
      exact: this.fresh && line === m.line && !atLoad,
      // A partial map left the others out on purpose: they are known not to be among its hits.
      known: (id) => this.data.partial === true || known.has(id),
    };
  }
}

export interface BuildReachOptions {
  readonly root: string;
  readonly tier: Tier;
  readonly jobs: number;
  /** An instance that makes no progress for this long is skipped. */
  readonly instanceTimeoutMs: number;
  /** Only these instances (a partial map, for tests); default every instance of the tier. */
  readonly only?: (i: MatrixInstance) => boolean;
  readonly onProgress?: (done: number, total: number) => void;
}

/**
 * Runs every instance of the tier once under coverage, `jobs` processes at a time, watching the lines of
 * `mutants` (the whole catalogue: one pass serves every later sample). A process that dies or hangs loses only
 * the instance it was on; the rest is restarted after it.
 */
export async function buildReachMap(mutants: readonly Mutant[], o: BuildReachOptions): Promise<ReachMapData> {
  const t0 = Date.now();
  const tree = treeHash(o.root);
  const lines: Record<string, number[]> = {};
  const texts: Record<string, Record<string, string>> = {};
  for (const m of mutants) {
    lines[m.file] = [...new Set([...(lines[m.file] ?? []), m.line])];
    texts[m.file] = { ...texts[m.file], [m.line]: m.original.trim() };
  }
  const instances = expandMatrix(o.tier).filter((i) => i.rule === null && (o.only?.(i) ?? true));
  const ids = instances.map((i) => i.id);
  const index = new Map(ids.map((id, i) => [id, i]));
  const opOf = new Map(instances.map((i) => [i.id, i.info.name]));
  const hits = new Map<string, number[]>();
  const loadTime = new Set<string>();
  const unmapped = new Set<string>();
  const scratch = mkdtempSync(join(tmpdir(), 'opgate-reach-'));
  let done = 0;
  const runChunk = async (chunk: string[], n: number) => {
    let left = chunk;
    while (left.length) {
      const job: ReachJob = {
        tier: o.tier,
        ops: [...new Set(left.map((id) => opOf.get(id)!))],
        ids: left,
        lines,
      };
      const jobFile = join(scratch, `job${n}.json`);
      writeFileSync(jobFile, JSON.stringify(job));
      const r = await runProcess(
        process.execPath,
        ['--import', 'tsx', 'src/ci/mutate/reach_worker.ts', jobFile],
        o.root,
        o.instanceTimeoutMs,
        2 ** 31 - 1,
        (l) => {
          if (l.startsWith('R ')) o.onProgress?.(++done, ids.length);
        },
      );
      const seen = new Set<string>();
      for (const l of r.lines) {
        if (l.startsWith('L ')) for (const k of JSON.parse(l.slice(2)) as string[]) loadTime.add(k);
        if (l.startsWith('U ')) for (const k of JSON.parse(l.slice(2)) as string[]) unmapped.add(k);
        if (!l.startsWith('R ')) continue;
        const { id, lines: hit } = JSON.parse(l.slice(2)) as { id: string; lines: string[] };
        seen.add(id);
        for (const k of hit) {
          const list = hits.get(k) ?? [];
          list.push(index.get(id)!);
          hits.set(k, list);
        }
      }
      const at = left.findIndex((id) => !seen.has(id));
      if (at < 0 || r.lines.some((l) => l.startsWith('D '))) break;
      // The process died or hung on left[at]: skip it, go on with the rest.
      left = left.slice(at + 1);
      o.onProgress?.(++done, ids.length);
    }
  };
  try {
    // Interleaved chunks: each process gets every op's instances in turn, so chunks take about as long.
    const chunks = Array.from({ length: Math.max(1, o.jobs) }, (_, k) =>
      ids.filter((_, i) => i % o.jobs === k),
    );
    await Promise.all(chunks.map((c, k) => runChunk(c, k)));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return {
    version: 1,
    tier: o.tier,
    tree,
    texts,
    loadTime: [...loadTime].sort(),
    unmapped: [...unmapped].sort(),
    ids,
    hits: Object.fromEntries([...hits].map(([k, v]) => [k, v.sort((a, b) => a - b)])),
    seconds: Math.round((Date.now() - t0) / 1000),
    ...(o.only && { partial: true }),
  };
}

export function saveReachMap(path: string, data: ReachMapData): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(data));
}
