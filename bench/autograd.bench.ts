/**
 * Autograd wall-clock figures (informational, never asserted): eager `mul + sum + backward` on a 1-element tensor
 * (PyTorch 1.13 on this VM: 22.2 µs), and fast-mode vs full gradcheck on an op with >= 1,000 input elements
 * (PyTorch reports ~25x from fast mode).
 *   npx tsx bench/autograd.bench.ts [--json]
 */
import { Bench } from 'tinybench';
import { gradcheck } from '../src/oracles/index.ts';
import * as T from '../src/runtime/index.ts';

const json = process.argv.includes('--json');
const x = T.tensor([1.5], { dtype: 'float32', requiresGrad: true });
const big = T.torch.linspace(-2, 2, 1200, { dtype: 'float64' }).reshape([30, 40]).requiresGrad_();
const w = T.torch.linspace(0.5, 1.5, 40, { dtype: 'float64' }).requiresGrad_();
const fn = (a: T.Tensor, b: T.Tensor) => T.torch.mul(T.torch.tanh(a), b);

const bench = new Bench({ time: 1000, warmup: true });
bench.add('mul + sum + backward (1 element)', () => {
  T.torch.sum(T.torch.mul(x, x)).backward();
});
bench.add('gradcheck fast mode, tanh(x) * w, 1,240 inputs', () =>
  gradcheck(fn, [big, w], { fastMode: true }),
);
bench.add('gradcheck full Jacobian, tanh(x) * w, 1,240 inputs', () => gradcheck(fn, [big, w]), {
  iterations: 3,
} as never);
await bench.run();

const ms = bench.tasks.map((t) => (t.result as { latency?: { mean: number } }).latency?.mean ?? Number.NaN);
const rows = [
  { case: 'mul + sum + backward (1 element)', result: `${(ms[0] * 1000).toFixed(1)} us`, pytorch: '22.2 us' },
  { case: 'gradcheck fast mode (1,240 inputs)', result: `${ms[1].toFixed(1)} ms`, pytorch: '' },
  { case: 'gradcheck full Jacobian (1,240 inputs)', result: `${ms[2].toFixed(0)} ms`, pytorch: '' },
  { case: 'fast-mode speed-up', result: `${(ms[2] / ms[1]).toFixed(0)}x`, pytorch: '~25x' },
];
if (json) console.log(JSON.stringify(rows, null, 2));
else console.table(rows);
