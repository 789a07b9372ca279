/**
 * History at scale: a synthetic CI history (bench/history_synth.ts: one full-tier run per commit, failures,
 * flakes, perf samples, numerics) built up to each N of `--runs`, and at each N the cost of every dashboard
 * view's data (first request and warm, response size) and of the CI steps that read or change the history
 * (`flaky list`, `flaky file-issues` against a stand-in GitHub, `shard plan`, `merge` of one new run, retention
 * of one commit, `dashboard build`), each in its own process with its peak RSS; the file size and bytes per
 * result; and, from the second N on, each figure's growth exponent (log t2/t1 / log N2/N1: 0 is flat, 1 linear).
 * A benchmark, not a test: figures go into docs/store.md ("History at scale").
 * Each N's history is kept as `history-<N>.db` in `--dir` before it is measured; `--reuse` measures a kept file
 * again instead of synthesizing it (the 1,000-run history takes about an hour to synthesize).
 *   npm run bench:history -- --runs 1,30,300,1000 [--tier full|pull] [--dir <folder>] [--reuse] [--json]
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ResultsReader, recentCommits, type Tier } from '../src/ci/index.ts';
import { synthesizer } from './history_synth.ts';

const args = process.argv.slice(2);
const opt = (name: string, d: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : d);
const json = args.includes('--json');
const tier = opt('--tier', 'full') as Tier;
const targets = opt('--runs', '1,30').split(',').map(Number);
const dir = resolve(opt('--dir', mkdtempSync(join(tmpdir(), 'opgate-history-'))));
mkdirSync(dir, { recursive: true });
const ROOT = resolve(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin/opgate.mjs');
const reuse = args.includes('--reuse');
const growing = join(dir, 'history.db');
let db = growing;

interface Figure {
  ms: number;
  warmMs?: number;
  rssMB: number | null;
  bytes?: number;
  ok: boolean;
}

/** `opgate <args>` under /usr/bin/time: wall ms and peak RSS. */
function cli(cmd: string[], env: NodeJS.ProcessEnv = {}): Figure {
  const t = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', 'opgate-bench %M', process.execPath, BIN, ...cmd], {
    cwd: dir,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  const ms = performance.now() - t;
  const rss = /opgate-bench (\d+)/.exec(r.stderr ?? '');
  if (r.status !== 0 && r.status !== 1)
    process.stderr.write(`${cmd.join(' ')}: exit ${r.status}: ${r.stderr}\n`);
  return { ms, rssMB: rss ? Number(rss[1]) / 1024 : null, ok: r.status === 0 || r.status === 1 };
}

/** Runs `fn` with the test suite's stand-in GitHub serving in a child process (its URL). */
async function withStandInGitHub<T>(fn: (url: string) => T): Promise<T> {
  const server = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'tests/unit/fake_github_server.ts')],
    {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise<string>((ok) => {
    let out = '';
    server.stdout.setEncoding('utf8').on('data', (c: string) => {
      out += c;
      if (out.includes('\n')) ok(out.split('\n')[0]);
    });
  });
  try {
    return fn(url);
  } finally {
    server.stdin.end();
  }
}

function view(name: string, sha?: string): Figure {
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'bench/history_view.ts'), db, name, ...(sha ? [sha] : [])],
    {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 1 << 30,
    },
  );
  if (r.status !== 0) {
    process.stderr.write(`view ${name}: ${r.stderr}\n`);
    return { ms: Number.NaN, rssMB: null, ok: false };
  }
  const o = JSON.parse(r.stdout) as { firstMs: number; warmMs: number; bytes: number; rssMB: number };
  return { ms: o.firstMs, warmMs: o.warmMs, bytes: o.bytes, rssMB: o.rssMB, ok: true };
}

const synth = synthesizer(tier);
const results: {
  runs: number;
  fileMB: number;
  bytesPerResult: number;
  buildS: number;
  figures: Record<string, Figure>;
}[] = [];
let built = 0;
for (const n of targets) {
  const t = performance.now();
  const kept = join(dir, `history-${n}.db`);
  if (reuse && existsSync(kept)) db = kept;
  else {
    db = growing;
    // A history left by an earlier, stopped bench in --dir: go on after its newest run.
    if (existsSync(growing)) built = Math.max(built, lastRunOf(growing));
    synth.write(db, built, n);
    copyFileSync(db, kept);
  }
  const buildS = (performance.now() - t) / 1000;
  const reader = new ResultsReader(db);
  const newest = recentCommits(reader, 1)[0]?.sha;
  // The next run to synthesize continues after the newest one in the file (a kept file has had merged runs).
  built = Math.max(built, reader.lastRunId() ?? 0);
  reader.close();
  const figures: Record<string, Figure> = {};
  for (const doc of ['grid', 'coverage', 'flaky', 'tests', 'shards', 'numerics', 'perf', 'targets'])
    figures[`view ${doc}`] = view(doc);
  if (newest) figures['view coverage@commit'] = view('coverage', newest);
  // Test search on the live server: a narrow pattern and one that matches a quarter of the ids.
  figures['view search add_cpu'] = view('search:add_cpu');
  figures['view search *float32*'] = view('search:*float32*');
  figures['flaky list'] = cli(['flaky', 'list', '--db', db, '--json']);
  figures['flaky file-issues'] = await withStandInGitHub((url) =>
    cli(['flaky', 'file-issues', '--db', db, '--repo', 'bench/history'], {
      GITHUB_API_URL: url,
      GITHUB_TOKEN: 'bench',
    }),
  );
  figures['shard plan'] = cli(['shard', 'plan', '--tier', tier, '--shards', '4', '--db', db, '--json']);
  figures['dashboard build'] = cli(['dashboard', 'build', '--db', db, '--out', join(dir, 'site')]);
  const fileMB = statSync(db).size / 1e6;
  const reader2 = new ResultsReader(db);
  const commits = recentCommits(reader2, 100_000).length;
  reader2.close();
  // One new run merged in, then one commit dropped: the history grows by one run and shrinks back.
  const fresh = join(dir, `new-${n}.db`);
  synth.write(fresh, built, built + 1);
  figures['merge one run'] = cli(['merge', fresh, '--into', db]);
  figures['retention of one commit'] = cli(['merge', fresh, '--into', db, '--keep-commits', String(commits)]);
  rmSync(fresh, { force: true });
  // The merged run was synthesized as run `built` (its sha is new): the next N continues after it.
  built++;
  results.push({
    runs: n,
    fileMB,
    bytesPerResult: (fileMB * 1e6) / (n * synth.instances.length),
    buildS,
    figures,
  });
  if (!json) report(results.at(-1)!);
}

function lastRunOf(path: string): number {
  const r = new ResultsReader(path);
  try {
    return r.lastRunId() ?? 0;
  } finally {
    r.close();
  }
}

function report(r: (typeof results)[number]): void {
  console.log(
    `\nN = ${r.runs} runs (${r.runs * synth.instances.length} results, synthesized in ${r.buildS.toFixed(0)} s): file ${r.fileMB.toFixed(1)} MB, ${r.bytesPerResult.toFixed(0)} bytes per result`,
  );
  for (const [k, f] of Object.entries(r.figures))
    console.log(
      `  ${k.padEnd(26)} ${(f.ms / 1000).toFixed(2).padStart(7)} s${f.warmMs !== undefined ? ` (warm ${f.warmMs.toFixed(1)} ms)` : ''}${f.rssMB !== null ? `  ${f.rssMB.toFixed(0)} MB RSS` : ''}${f.bytes !== undefined ? `  ${(f.bytes / 1e6).toFixed(2)} MB response` : ''}${f.ok ? '' : '  FAILED'}`,
    );
}

// Growth exponents to the last N: from the first N of at least 30 (what the issue asks), and from the first of at
// least 300, where every view's window (the grid's 50 commits, perf's 100) is full at both ends: from 30, part of
// a view's growth is its window filling up (30 of the grid's 50 commits), not the history.
const to = results.at(-1);
const growthFrom = (min: number): { runs: number; exponents: Record<string, number> } | null => {
  const from = results.find((r) => r.runs >= min);
  if (!from || !to || to.runs <= from.runs) return null;
  const e = (a: number, b: number) => Math.log(b / a) / Math.log(to.runs / from.runs);
  const exponents: Record<string, number> = { 'file size': e(from.fileMB, to.fileMB) };
  for (const k of Object.keys(to.figures))
    exponents[k] = e(from.figures[k].warmMs ?? from.figures[k].ms, to.figures[k].warmMs ?? to.figures[k].ms);
  return { runs: from.runs, exponents };
};
const growthFrom30 = growthFrom(30);
const growthFull = growthFrom(300);
const growth = growthFrom30?.exponents ?? {};
if (!json && growthFrom30 && to) {
  const full = growthFull && growthFull.runs !== growthFrom30.runs ? growthFull : null;
  console.log(
    `\ngrowth exponent to N = ${to.runs} (0: flat, 1: linear; warm time for views): from N = ${growthFrom30.runs}${full ? `, from N = ${full.runs} (every window full)` : ''}`,
  );
  for (const [k, v] of Object.entries(growthFrom30.exponents))
    console.log(
      `  ${k.padEnd(26)} ${v.toFixed(2).padStart(6)}${full ? `  ${full.exponents[k].toFixed(2).padStart(6)}` : ''}`,
    );
}
if (json)
  console.log(
    JSON.stringify(
      {
        tier,
        instances: synth.instances.length,
        dir,
        results,
        growth,
        growthFull: growthFull?.exponents ?? null,
      },
      null,
      2,
    ),
  );
