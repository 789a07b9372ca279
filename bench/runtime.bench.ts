/**
 * Runtime wall-clock benchmarks (tinybench; informational, never asserted in tests). Prints a table and, with
 * --json, the figures as JSON. PyTorch 1.13 (1 thread) on the same 2-core VM for comparison.
 *   npx tsx bench/runtime.bench.ts [--json] [--time ms]
 */
import { Bench } from 'tinybench';
import * as T from '../src/runtime/index.ts';

const args = process.argv.slice(2);
const json = args.includes('--json');
const time = Number(args[args.indexOf('--time') + 1]) || 500;

const one = T.tensor([1], { dtype: 'float32' });
const big = T.torch.ones([1 << 20]);
const big2 = T.torch.ones([1 << 20]);
const sq = T.torch.ones([1024, 1024]);
const sqT = T.torch.ones([1024, 1024]).t();
const sq2 = T.torch.ones([1024, 1024]);
const rnd = T.torch.linspace(-3, 3, 1024 * 1024).reshape(1024, 1024);
const m1 = T.torch.linspace(-1, 1, 256 * 256).reshape(256, 256);
const m2 = T.torch.linspace(1, -1, 256 * 256).reshape(256, 256);

interface Case {
  name: string;
  fn: () => unknown;
  /** Bytes moved per call (for GB/s) or flops per call (for GFLOP/s). */
  bytes?: number;
  flops?: number;
  unit: 'us' | 'ms';
  pytorch: string;
}

const cases: Case[] = [
  { name: 'add 1-element (eager)', fn: () => T.torch.add(one, one), unit: 'us', pytorch: '1.5 us' },
  {
    name: 'add 1M float32',
    fn: () => T.torch.add(big, big2),
    bytes: 3 * 4 * (1 << 20),
    unit: 'ms',
    pytorch: '0.124 ms',
  },
  {
    name: 'add 1024x1024 non-contiguous',
    fn: () => T.torch.add(sqT, sq2),
    bytes: 3 * 4 * (1 << 20),
    unit: 'ms',
    pytorch: '0.10 ms',
  },
  { name: 'sum 1024x1024', fn: () => T.torch.sum(rnd), bytes: 4 * (1 << 20), unit: 'ms', pytorch: '—' },
  {
    name: 'softmax 1024x1024 (dim -1)',
    fn: () => T.torch.softmax(rnd, -1),
    bytes: 2 * 4 * (1 << 20),
    unit: 'ms',
    pytorch: '0.77 ms',
  },
  {
    name: 'matmul 256x256 float32',
    fn: () => T.torch.matmul(m1, m2),
    flops: 2 * 256 ** 3,
    unit: 'ms',
    pytorch: '5.4 ms',
  },
];
void sq;

const bench = new Bench({ time, warmup: true });
for (const c of cases) bench.add(c.name, c.fn);
await bench.run();

const rows = bench.tasks.map((task, i) => {
  const c = cases[i];
  const r = task.result as { latency?: { mean: number }; state: string; error?: unknown };
  if (!r.latency) return { case: c.name, result: `error: ${String(r.error)}`, rate: '', pytorch: c.pytorch };
  const ms = r.latency.mean;
  const result = c.unit === 'us' ? `${(ms * 1000).toFixed(2)} us/op` : `${ms.toFixed(3)} ms`;
  const rate = c.bytes
    ? `${(c.bytes / (ms / 1000) / 1e9).toFixed(2)} GB/s`
    : c.flops
      ? `${(c.flops / (ms / 1000) / 1e9).toFixed(2)} GFLOP/s`
      : '';
  return { case: c.name, result, rate, pytorch: c.pytorch, meanMs: ms };
});

if (json) console.log(JSON.stringify(rows, null, 2));
else console.table(rows.map(({ meanMs: _m, ...r }) => r));
