/**
 * The reach pass's process: runs matrix instances one by one under V8's precise block coverage and reports, for
 * each, which of the watched source lines it executed. Lines are the TypeScript lines, found through the inline
 * source map tsx gives every module it compiles. stdout, one line each: `R <json>` per instance (its id and the
 * watched lines it ran, as `file:line`), `D <json>` at the end. A line that runs while its module loads (a table
 * at the top level) is reported as `L <json>`: every instance reaches it.
 */
import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import type { Tier } from '../matrix.ts';
import { generatedOffsetsOf } from './source_map.ts';

export interface ReachJob {
  readonly tier: Tier;
  readonly ops: readonly string[];
  readonly ids: readonly string[];
  /** Repository-relative file -> the lines to watch in it. */
  readonly lines: Readonly<Record<string, readonly number[]>>;
}

interface Range {
  readonly startOffset: number;
  readonly endOffset: number;
  readonly count: number;
}
interface FunctionCoverage {
  readonly functionName: string;
  readonly ranges: readonly Range[];
}
interface ScriptCoverage {
  readonly scriptId: string;
  readonly url: string;
  readonly functions: readonly FunctionCoverage[];
}

const say = (tag: string, body: unknown) => process.stdout.write(`${tag} ${JSON.stringify(body)}\n`);

/**
 * Which of `offsets` (sorted) ran: each takes the count of the innermost range holding it, over every function
 * of the script (a closure's range lies inside its parent's, and did not run just because the parent did).
 */
function ranOffsets(functions: readonly FunctionCoverage[], offsets: readonly number[]): Set<number> {
  const best = new Map<number, Range>();
  for (const f of functions)
    for (const r of f.ranges) {
      let lo = 0;
      let hi = offsets.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (offsets[mid] < r.startOffset) lo = mid + 1;
        else hi = mid;
      }
      for (let i = lo; i < offsets.length && offsets[i] < r.endOffset; i++) {
        const b = best.get(offsets[i]);
        if (!b || r.endOffset - r.startOffset <= b.endOffset - b.startOffset) best.set(offsets[i], r);
      }
    }
  return new Set([...best].filter(([, r]) => r.count > 0).map(([o]) => o));
}

interface Watched {
  readonly file: string;
  /** line -> its generated offsets */
  readonly lines: Map<number, number[]>;
  readonly sorted: number[];
}

async function main(jobFile: string): Promise<void> {
  const job = JSON.parse(readFileSync(jobFile, 'utf8')) as ReachJob;
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Debugger.enable');
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  // Loaded under coverage, so the first take holds what runs at load time (tables built at the top level).
  const { runOracle } = await import('../../oracles/index.ts');
  const { instancesById } = await import('../matrix.ts');
  const byId = instancesById(job.tier, job.ops);
  const root = process.cwd();
  const scripts = new Map<string, Watched | null>();
  const watchedOf = async (s: ScriptCoverage): Promise<Watched | null> => {
    if (scripts.has(s.url)) return scripts.get(s.url)!;
    const path = s.url.startsWith('file://') ? decodeURIComponent(s.url.slice(7)) : '';
    const rel = path.startsWith(`${root}/`) ? path.slice(root.length + 1) : '';
    const want = job.lines[rel];
    let w: Watched | null = null;
    if (want) {
      const { scriptSource } = (await session.post('Debugger.getScriptSource', { scriptId: s.scriptId })) as {
        scriptSource: string;
      };
      const lines = generatedOffsetsOf(scriptSource, want);
      w = { file: rel, lines, sorted: [...new Set([...lines.values()].flat())].sort((a, b) => a - b) };
      // Lines with no code of their own in the compiled module (inside a multi-line template: a kernel's source
      // text compiled later by new Function): coverage cannot see them run.
      const unmapped = want.filter((l) => !lines.has(l)).map((l) => `${rel}:${l}`);
      if (unmapped.length) say('U', unmapped);
    }
    scripts.set(s.url, w);
    return w;
  };
  /** The watched lines that ran since the last take. */
  const take = async (): Promise<string[]> => {
    const { result } = (await session.post('Profiler.takePreciseCoverage')) as { result: ScriptCoverage[] };
    const hit: string[] = [];
    for (const s of result) {
      if (!s.url.startsWith('file://') || s.url.includes('/node_modules/')) continue;
      const w = await watchedOf(s);
      if (!w) continue;
      const ran = ranOffsets(s.functions, w.sorted);
      for (const [line, offs] of w.lines) if (offs.some((o) => ran.has(o))) hit.push(`${w.file}:${line}`);
    }
    return hit;
  };
  say('L', await take());
  let ran = 0;
  for (const id of job.ids) {
    const inst = byId.get(id);
    if (!inst) continue;
    try {
      await runOracle(inst);
    } catch {
      // A failing instance still reached what it reached.
    }
    ran++;
    say('R', { id, lines: await take() });
  }
  say('D', { ran });
}

main(process.argv[2]).then(
  () => process.exit(0),
  (e) => {
    process.stderr.write(String((e as Error)?.stack ?? e));
    process.exit(1);
  },
);
