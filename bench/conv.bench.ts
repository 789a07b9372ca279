/**
 * Convolution wall-clock (informational): conv2d of a [8, 64, 56, 56] float32 input by a [64, 64, 3, 3] weight,
 * padding 1, on cpu (im2col + gemm). `bench/torch_conv2d.py` times the same call in PyTorch 1.13 on one thread
 * (`/usr/bin/python3 bench/torch_conv2d.py`). Both print wall and process cpu time: on a shared machine the cpu
 * time is the comparable figure.
 *   npx tsx bench/conv.bench.ts [--json] [--time ms]
 */
import { Bench } from 'tinybench';
import * as T from '../src/runtime/index.ts';

const args = process.argv.slice(2);
const json = args.includes('--json');
const time = Number(args[args.indexOf('--time') + 1]) || 3000;

const [n, c, h, w, k] = [8, 64, 56, 56, 3];
const input = T.torch.linspace(-1, 1, n * c * h * w).reshape(n, c, h, w);
const weight = T.torch.linspace(1, -1, c * c * k * k).reshape(c, c, k, k);
const flops = 2 * n * c * h * w * c * k * k;
const call = () => T.callOp('nn.functional.conv2d', [input, weight], { padding: 1 });

let cpuMs = 0;
let calls = 0;
const bench = new Bench({ time, iterations: 3, warmup: true, warmupIterations: 1 });
bench.add('conv2d [8,64,56,56] x [64,64,3,3], padding 1', () => {
  const c0 = process.cpuUsage();
  call();
  const used = process.cpuUsage(c0);
  cpuMs += (used.user + used.system) / 1000;
  calls++;
});
await bench.run();

const rows = bench.tasks.map((task) => {
  const r = task.result as { latency?: { mean: number }; error?: unknown };
  if (!r.latency) return { case: task.name, result: `error: ${String(r.error)}` };
  const ms = r.latency.mean;
  const cpu = cpuMs / calls;
  return {
    case: task.name,
    wallMs: Number(ms.toFixed(1)),
    cpuMs: Number(cpu.toFixed(1)),
    gflopsCpu: Number((flops / (cpu / 1000) / 1e9).toFixed(2)),
  };
});
if (json) console.log(JSON.stringify(rows, null, 2));
else console.table(rows);
