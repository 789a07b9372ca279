/**
 * Eager vs compiled (fused) for a 5-op pointwise chain on 1M float32, on cpu and webgpu. The seed's argument:
 * eager moves ~5N reads + 5N writes through memory (every op materialises its result), the fused kernel 2N
 * (read the inputs once, write the output once), so it predicts >= 2x. Informational, never asserted.
 *   npx tsx bench/compile.bench.ts [--json] [--time ms]
 */
import { Bench } from 'tinybench';
import * as T from '../src/runtime/index.ts';

const args = process.argv.slice(2);
const json = args.includes('--json');
const time = Number(args[args.indexOf('--time') + 1]) || 1000;
process.env.EGL_PLATFORM ??= 'surfaceless';
const info = await T.initWebGPU();

const N = 1 << 20;
/** x -> exp(x * 0.5) + 1 -> tanh -> * 3 : five pointwise ops, two of them transcendental (compute-bound). */
const chain = (x: T.Tensor) => T.torch.mul(T.torch.tanh(T.torch.add(T.torch.exp(T.torch.mul(x, 0.5)), 1)), 3);
/** ((x * 0.5 + 1) - y) * 3 / 2 : five cheap ops (memory-bound), two inputs. */
const cheap = (x: T.Tensor, y: T.Tensor) =>
  T.torch.div(T.torch.mul(T.torch.sub(T.torch.add(T.torch.mul(x, 0.5), 1), y), 3), 2);
const fused = T.compile(chain, { backend: 'fused' });
const fusedCheap = T.compile(cheap, { backend: 'fused' });
const x = T.torch.linspace(-3, 3, N);
const y = T.torch.linspace(1, -1, N);
const gx = info ? T.uploadTensor(x) : null;
const gy = info ? T.uploadTensor(y) : null;

const sync = () => T.synchronizeWebGPU();
const bench = new Bench({ time, warmup: true });
bench.add('cpu eager', () => chain(x));
bench.add('cpu fused', () => fused(x));
bench.add('cpu eager (cheap)', () => cheap(x, y));
bench.add('cpu fused (cheap)', () => fusedCheap(x, y));
if (gx && gy) {
  bench.add('webgpu eager', async () => {
    chain(gx);
    await sync();
  });
  bench.add('webgpu fused', async () => {
    fused(gx);
    await sync();
  });
  bench.add('webgpu eager (cheap)', async () => {
    cheap(gx, gy);
    await sync();
  });
  bench.add('webgpu fused (cheap)', async () => {
    fusedCheap(gx, gy);
    await sync();
  });
}
await bench.run();

const ms = (name: string) =>
  (bench.getTask(name)?.result as { latency?: { mean: number } } | undefined)?.latency?.mean;
const rows = ['cpu', 'webgpu', 'cpu (cheap)', 'webgpu (cheap)']
  .filter((d) => d.startsWith('cpu') || gx)
  .map((d) => {
    const [dev, kind] = d.split(' ');
    const e = ms(`${dev} eager${kind ? ` ${kind}` : ''}`);
    const f = ms(`${dev} fused${kind ? ` ${kind}` : ''}`);
    return {
      case: d,
      eager: e === undefined ? 'error' : `${e.toFixed(2)} ms`,
      fused: f === undefined ? 'error' : `${f.toFixed(2)} ms`,
      speedup: e && f ? `${(e / f).toFixed(2)}x` : '',
    };
  });
if (json) console.log(JSON.stringify({ n: N, rows, compile: fused.stats }, null, 2));
else {
  console.log(`5-op pointwise chain on ${N} float32 (${info ? info.backend : 'no webgpu adapter'})`);
  console.table(rows);
  console.log(`compiles ${fused.stats.compiles}, cache hits ${fused.stats.cacheHits}`);
}
process.exit(0);
