/**
 * WebGPU wall-clock benchmarks on whatever adapter Dawn finds (in CI: the software adapter, OpenGL ES on Mesa's
 * llvmpipe), with the same cases on cpu beside them. Informational, never asserted in tests.
 *   npx tsx bench/webgpu.bench.ts [--json] [--time ms]
 * "enqueue" is the host cost of issuing one op (kernel queued, not waited for); "enqueue + await" waits for
 * the GPU to finish it (synchronizeWebGPU, like torch.cuda.synchronize()).
 */
import { Bench } from 'tinybench';
import * as T from '../src/runtime/index.ts';

const args = process.argv.slice(2);
const json = args.includes('--json');
const time = Number(args[args.indexOf('--time') + 1]) || 1000;

process.env.EGL_PLATFORM ??= 'surfaceless';
const info = await T.initWebGPU();
if (!info) {
  console.error(T.webgpuUnavailableReason());
  process.exit(1);
}

const on = (t: T.Tensor, device: 'cpu' | 'webgpu') => (device === 'cpu' ? t : T.uploadTensor(t));
const inputs = (device: 'cpu' | 'webgpu') => ({
  one: on(T.tensor([1], { dtype: 'float32' }), device),
  big: on(T.torch.ones([1 << 20]), device),
  big2: on(T.torch.ones([1 << 20]), device),
  rnd: on(T.torch.linspace(-3, 3, 1024 * 1024).reshape(1024, 1024), device),
  m1: on(T.torch.linspace(-1, 1, 512 * 512).reshape(512, 512), device),
  m2: on(T.torch.linspace(1, -1, 512 * 512).reshape(512, 512), device),
});
const cpu = inputs('cpu');
const gpu = inputs('webgpu');
const BATCH = 100;

interface Case {
  readonly name: string;
  readonly cpu: () => unknown;
  readonly gpu: () => unknown;
  /** Calls per task iteration (the figure is per call). */
  readonly per?: number;
  readonly unit: 'us' | 'ms';
}

const sync = () => T.synchronizeWebGPU();
const cases: Case[] = [
  {
    name: `add 1-element, enqueue (x${BATCH})`,
    cpu: () => {
      for (let i = 0; i < BATCH; i++) T.torch.add(cpu.one, cpu.one);
    },
    gpu: () => {
      for (let i = 0; i < BATCH; i++) T.torch.add(gpu.one, gpu.one);
    },
    per: BATCH,
    unit: 'us',
  },
  {
    name: 'add 1-element, enqueue + await',
    cpu: () => T.torch.add(cpu.one, cpu.one),
    gpu: async () => {
      T.torch.add(gpu.one, gpu.one);
      await sync();
    },
    unit: 'us',
  },
  {
    name: 'add 1M float32',
    cpu: () => T.torch.add(cpu.big, cpu.big2),
    gpu: async () => {
      T.torch.add(gpu.big, gpu.big2);
      await sync();
    },
    unit: 'ms',
  },
  {
    name: 'softmax 1024x1024 (dim -1)',
    cpu: () => T.torch.softmax(cpu.rnd, -1),
    gpu: async () => {
      T.torch.softmax(gpu.rnd, -1);
      await sync();
    },
    unit: 'ms',
  },
  {
    name: 'matmul 512x512 float32',
    cpu: () => T.torch.matmul(cpu.m1, cpu.m2),
    gpu: async () => {
      T.torch.matmul(gpu.m1, gpu.m2);
      await sync();
    },
    unit: 'ms',
  },
];

const bench = new Bench({ time, warmup: true });
for (const c of cases) {
  bench.add(`${c.name} [cpu]`, c.cpu);
  bench.add(`${c.name} [webgpu]`, c.gpu, { afterEach: sync });
}
await bench.run();
await sync();

const fmt = (c: Case, ms: number | undefined) => {
  if (ms === undefined) return 'error';
  const per = ms / (c.per ?? 1);
  return c.unit === 'us' ? `${(per * 1000).toFixed(2)} us` : `${per.toFixed(3)} ms`;
};
const mean = (i: number) => (bench.tasks[i].result as { latency?: { mean: number } }).latency?.mean;
const errorOf = (i: number) => (bench.tasks[i].result as { error?: unknown }).error;
const rows = cases.map((c, i) => ({
  case: c.name,
  cpu: fmt(c, mean(2 * i)),
  webgpu: errorOf(2 * i + 1) ? `error: ${String(errorOf(2 * i + 1))}` : fmt(c, mean(2 * i + 1)),
}));
const stats = T.webgpuAllocator.stats;
if (json) console.log(JSON.stringify({ adapter: info, rows, allocator: stats }, null, 2));
else {
  console.log(`adapter: ${info.backend} — ${info.description}`);
  console.table(rows);
  console.log(
    `allocator: ${(stats.reservedBytes / 2 ** 20).toFixed(1)} MiB reserved, peak ${(stats.peakAllocatedBytes / 2 ** 20).toFixed(1)} MiB allocated, ${stats.cacheHits} cache hits / ${stats.cacheMisses} misses`,
  );
}
process.exit(0);
