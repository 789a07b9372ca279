/**
 * opgate vs PyTorch 1.13 (one thread), side by side, wall-clock (informational, never asserted): the cases of the
 * issue "Runtime speed: within 2x of PyTorch". bench/torch_cases.py runs as a child process (Debian's
 * /usr/bin/python3 has torch); opgate rounds and torch rounds alternate. Without torch it prints opgate's
 * figures only. Methodology: see `methodology` in bench/torch_side.ts (also printed).
 *   npm run bench:torch -- [--rounds 3] [--samples 15] [--cases add_1m,sum_1024] [--json] [--record perf.db]
 *                          [--python /usr/bin/python3]
 */
import { execFileSync } from 'node:child_process';
import * as T from '../src/runtime/index.ts';
import { defaultPython, startTorch } from './torch_child.ts';
import {
  CASES,
  DEFAULTS,
  type Figures,
  methodology,
  recordFigures,
  renderTable,
  type Settings,
  toRow,
  torchLabel,
} from './torch_side.ts';

const args = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const usage = (msg: string): never => {
  process.stderr.write(`bench:torch: ${msg}\n`);
  process.exit(2);
};
const posInt = (name: string, dflt: number): number => {
  const v = opt(name);
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) usage(`${name}: expected a positive integer, got '${v}'`);
  return n;
};
const settings: Settings = {
  rounds: posInt('--rounds', DEFAULTS.rounds),
  samples: posInt('--samples', DEFAULTS.samples),
  minSampleMs: DEFAULTS.minSampleMs,
};
const ids = opt('--cases')?.split(',').filter(Boolean) ?? CASES.map((c) => c.id);
const known = new Set(CASES.map((c) => c.id));
for (const id of ids)
  if (!known.has(id)) usage(`--cases: unknown case '${id}' (known: ${[...known].join(', ')})`);
const json = args.includes('--json');
const record = opt('--record');
const log = json ? () => {} : (s: string) => process.stderr.write(`${s}\n`);

/** The runtime's cases: the same inputs as bench/torch_cases.py (and bench/runtime.bench.ts). */
function runtimeCases(): Record<string, () => unknown> {
  const one = T.tensor([1], { dtype: 'float32' });
  const big = T.torch.ones([1 << 20]);
  const big2 = T.torch.ones([1 << 20]);
  const sqT = T.torch.ones([1024, 1024]).t();
  const sq2 = T.torch.ones([1024, 1024]);
  const rnd = T.torch.linspace(-3, 3, 1024 * 1024).reshape(1024, 1024);
  const m1 = T.torch.linspace(-1, 1, 256 * 256).reshape(256, 256);
  const m2 = T.torch.linspace(1, -1, 256 * 256).reshape(256, 256);
  const x = T.tensor([1], { dtype: 'float32', requiresGrad: true });
  const y = T.tensor([3], { dtype: 'float32' });
  return {
    add_1elem: () => T.torch.add(one, one),
    add_1m: () => T.torch.add(big, big2),
    add_t_1024: () => T.torch.add(sqT, sq2),
    sum_1024: () => T.torch.sum(rnd),
    softmax_1024: () => T.torch.softmax(rnd, -1),
    matmul_256: () => T.torch.matmul(m1, m2),
    autograd_1elem: () => T.backward([T.torch.sum(T.torch.mul(x, y))]),
    sum_dim0_1024: () => T.torch.sum(rnd, 0),
    amax_dim0_1024: () => T.torch.amax(rnd, 0),
    argmax_1024: () => T.torch.argmax(rnd),
    argmax_dim1_1024: () => T.torch.argmax(rnd, 1),
  };
}

const WARMUP_MS = 300;
const runBatch = (fn: () => unknown, n: number): number => {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) fn();
  return performance.now() - t0;
};

/** As torch_cases.py's warm_up: at least WARMUP_MS and 3 calls. */
function warmUp(fn: () => unknown): void {
  const t0 = performance.now();
  for (let calls = 0; calls < 3 || performance.now() - t0 < WARMUP_MS; calls++) fn();
}

/**
 * One round, as torch_cases.py's run_round: untimed batches, doubling from the last round's size while one takes
 * under minSampleMs (so a sample stays >= minSampleMs as the JIT speeds the case up), then the samples.
 */
function runtimeRound(fn: () => unknown, n: number, s: Settings): { batch: number; samples: number[] } {
  while (runBatch(fn, n) < s.minSampleMs) n *= 2;
  return { batch: n, samples: Array.from({ length: s.samples }, () => (1000 * runBatch(fn, n)) / n) };
}

const commitSha = (): string => {
  try {
    return process.env.GITHUB_SHA ?? execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
};

const python = opt('--python') ?? defaultPython();
const started = await startTorch(python);
const torch = started.ok ? started.child : null;
if (!started.ok) log(`PyTorch not found (${started.reason}): opgate's figures only.`);
else log(`PyTorch ${started.child.version} via ${python}, ${started.child.threads} thread(s)`);

// torch runs with torch.set_num_threads(1): so does opgate (its pool would otherwise split the matmul).
T.setNumThreads(1);
const fns = runtimeCases();
const figures = new Map<string, { opgate: number[][]; torch: number[][]; batch: Figures['batch'] }>(
  ids.map((id) => [id, { opgate: [], torch: [], batch: { opgate: 0, torch: null } }]),
);
try {
  // Round-major: each case's rounds are spread over the whole run, so a burst of load spoils at most one.
  for (let r = 0; r < settings.rounds; r++) {
    for (const id of ids) {
      const f = figures.get(id)!;
      const fn = fns[id];
      if (r === 0) warmUp(fn);
      const o = runtimeRound(fn, Math.max(1, f.batch.opgate), settings);
      f.batch = { ...f.batch, opgate: o.batch };
      f.opgate.push(o.samples);
      if (torch) {
        const t = await torch.run(id, r, settings);
        f.batch = { ...f.batch, torch: t.batch };
        f.torch.push([...t.samples]);
      }
      log(`  round ${r + 1}/${settings.rounds} ${id}`);
    }
  }
} finally {
  await torch?.close();
}

const rows = ids.map((id) => {
  const f = figures.get(id)!;
  return toRow({ id, opgate: f.opgate, torch: torch ? f.torch : null, batch: f.batch });
});
const meta = {
  commitSha: commitSha(),
  platform: `${process.platform}-${process.arch} node${process.versions.node.split('.')[0]}`,
  nodeVersion: process.versions.node,
  settings,
};
if (record) log(`recorded ${recordFigures(record, rows, meta)} perf samples in ${record}`);

if (json) {
  const torchInfo = torch ? { version: torch.version, threads: torch.threads, python } : null;
  console.log(
    JSON.stringify({ methodology: methodology(settings, torch !== null), torch: torchInfo, ...meta, rows }),
  );
} else {
  const who = torch ? `${torchLabel(torch.version)} (${torch.version})` : 'PyTorch: not found';
  console.log(`opgate vs ${who}, node ${process.versions.node}, ${meta.platform.split(' ')[0]}`);
  console.log(`${methodology(settings, torch !== null)}\n`);
  console.log(renderTable(rows, torch?.version ?? null));
  if (!torch) console.log('\nPyTorch was not found, so only opgate ran (ratios need it).');
}
