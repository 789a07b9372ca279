/**
 * Perf scenarios as data: each is a setup (outside the measured region) and one iteration of a statement,
 * repeated K times inside the region. Instruction counts (callgrind) and wall-clock (tinybench) both use them.
 */
import type { PerfScenario } from '../src/ci/perf/region.ts';
import * as T from '../src/runtime/index.ts';

/** A scenario (src/ci/perf/region.ts): the type a project's own perf scenarios file uses too. */
export type Scenario = PerfScenario;

const f32 = (shape: number[]) =>
  T.torch
    .linspace(
      -1,
      1,
      shape.reduce((a, b) => a * b, 1),
    )
    .reshape(shape);

export const SCENARIOS: readonly Scenario[] = [
  {
    name: 'add_1elem',
    description: 'eager add of two 1-element float32 tensors (per-op dispatch overhead)',
    k: 200,
    setup: () => {
      const a = T.tensor([1], { dtype: 'float32' });
      return () => T.torch.add(a, a);
    },
  },
  {
    name: 'mul_1elem',
    description: 'eager mul of two 1-element float32 tensors',
    k: 200,
    setup: () => {
      const a = T.tensor([2], { dtype: 'float32' });
      return () => T.torch.mul(a, a);
    },
  },
  {
    name: 'sum_1elem',
    description: 'sum of a 1-element tensor (reduction overhead)',
    k: 200,
    setup: () => {
      const a = T.tensor([2], { dtype: 'float32' });
      return () => T.torch.sum(a);
    },
  },
  {
    name: 'view_1elem',
    description: 'view of a 1-element tensor (metadata only)',
    k: 200,
    setup: () => {
      const a = T.tensor([2], { dtype: 'float32' });
      return () => T.callOp('view', [a, [1]]);
    },
  },
  {
    name: 'method_vs_callop',
    description: 'a.add(a) through the Tensor method (compare with add_1elem through the function)',
    k: 200,
    setup: () => {
      const a = T.tensor([1], { dtype: 'float32' });
      return () => (a as unknown as { add(b: T.Tensor): T.Tensor }).add(a);
    },
  },
  {
    name: 'callop_by_name',
    description: "callOp('add', [a, a]): name resolution + binding + dispatch",
    k: 200,
    setup: () => {
      const a = T.tensor([1], { dtype: 'float32' });
      return () => T.callOp('add', [a, a]);
    },
  },
  {
    name: 'autograd_tiny',
    description: 'forward + backward of sum(a * b) on 2-element tensors',
    k: 100,
    setup: () => {
      const a = T.tensor([1, 2], { dtype: 'float32', requiresGrad: true });
      const b = T.tensor([3, 4], { dtype: 'float32' });
      return () => T.backward([T.torch.sum(T.torch.mul(a, b))]);
    },
  },
  {
    name: 'redispatch_composite',
    description: 'expand_as: a CompositeImplicit op redispatching to expand',
    k: 200,
    setup: () => {
      const a = T.tensor([[1]], { dtype: 'float32' });
      const b = T.torch.zeros([2, 2]);
      return () => T.callOp('expand_as', [a, b]);
    },
  },
  {
    name: 'compile_cache_hit',
    description: 'a compiled exp(x) + 1 called again with the same metadata (guard check + replay)',
    k: 100,
    setup: () => {
      const f = T.compile((x: T.Tensor) => T.torch.add(T.torch.exp(x), 1), { backend: 'eager' });
      const x = T.tensor([1, 2], { dtype: 'float32' });
      f(x);
      return () => f(x);
    },
  },
  {
    name: 'iterator_noncontig_64x64',
    description: 'add of a transposed 64x64 float32 tensor to a contiguous one (TensorIterator tiles)',
    k: 20,
    warmup: 300,
    setup: () => {
      const a = T.torch.transpose(f32([64, 64]), 0, 1);
      const b = f32([64, 64]);
      return () => T.torch.add(a, b);
    },
  },
  {
    name: 'add_1M',
    description: 'add of two 1M-element float32 tensors',
    k: 2,
    warmup: 40,
    setup: () => {
      const a = f32([1 << 20]);
      return () => T.torch.add(a, a);
    },
  },
  {
    name: 'add_1M_out',
    description:
      'add of two 1M-element float32 tensors into a preallocated out= (the kernel alone, no allocation)',
    k: 2,
    warmup: 40,
    setup: () => {
      const a = f32([1 << 20]);
      const out = T.torch.empty([1 << 20]);
      return () => T.callOp('add', [a, a], { out });
    },
  },
  {
    name: 'softmax_1024x1024',
    description: 'softmax over the last dim of a 1024x1024 float32 tensor',
    k: 1,
    warmup: 30,
    setup: () => {
      const a = f32([1024, 1024]);
      return () => T.torch.softmax(a, -1);
    },
  },
  {
    name: 'softmax_1024x1024_out',
    description: 'softmax over the last dim of a 1024x1024 float32 tensor into a preallocated out=',
    k: 1,
    warmup: 30,
    setup: () => {
      const a = f32([1024, 1024]);
      const out = T.torch.empty([1024, 1024]);
      return () => T.callOp('softmax', [a, -1], { out });
    },
  },
  {
    name: 'sum_1024x1024',
    description: 'sum of a 1024x1024 float32 tensor (the float32 SIMD sum)',
    k: 2,
    warmup: 40,
    setup: () => {
      const a = f32([1024, 1024]);
      return () => T.torch.sum(a);
    },
  },
  {
    name: 'matmul_256',
    description: '256x256 float32 matmul',
    k: 1,
    warmup: 10,
    setup: () => {
      const a = f32([256, 256]);
      return () => T.torch.matmul(a, a);
    },
  },
];

export function scenario(name: string): Scenario {
  const s = SCENARIOS.find((x) => x.name === name);
  if (!s) throw new Error(`unknown scenario '${name}' (known: ${SCENARIOS.map((x) => x.name).join(', ')})`);
  return s;
}
