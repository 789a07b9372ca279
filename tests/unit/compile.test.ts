/** compile(): guards, cache, recompiles with dynamic dims, graph breaks, autograd, fused kernels (cpu + webgpu). */
import { afterEach, describe, expect, test, vi } from 'vitest';
import * as T from '../../src/runtime/index.ts';
import { describeWebGPU, onWebGPU } from './webgpu_helpers.ts';

const values = (t: unknown) => (t as T.Tensor).tolist();
const x2 = (n: number, m = 3) => T.torch.linspace(-2, 2, n * m).reshape(n, m);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('compile', () => {
  test("the seed's example: relu or tanh by batch size -> 3 compiles, guards reported, 3 cache entries", () => {
    const f = (x: T.Tensor) => (x.shape[0] > 64 ? T.torch.relu(x) : T.torch.tanh(x));
    const cf = T.compile(f);
    for (const n of [128, 200, 64]) expect(values(cf(x2(n)))).toEqual(values(f(x2(n))));
    expect(cf.stats).toMatchObject({ compiles: 3, cacheHits: 0, recompiles: 2 });
    const entries = cf.entries();
    expect(entries).toHaveLength(3);
    expect(entries.map((e) => e.guards[0])).toEqual([
      'input 0: float32 cpu [128, 3] strides C:0.1',
      'input 0: float32 cpu [200, 3] strides C:0.1',
      'input 0: float32 cpu [64, 3] strides C:0.1',
    ]);
    // After the size change the recompile tried dim 0 dynamic, but the function branches on it.
    expect(entries[1].notes[0]).toMatch(/specialised: the function reads the sizes of a dynamic input/);
    expect(entries[0].graphs[0]).toMatch(/= relu\(self=%in0\)/);
    expect(entries[2].graphs[0]).toMatch(/= tanh\(self=%in0\)/);
    // The same metadata again is a cache hit, no compile.
    cf(x2(200));
    expect(cf.stats).toMatchObject({ compiles: 3, cacheHits: 1 });
  });

  test('with dynamic off a 9th distinct shape falls back to eager, with one warning', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const f = (x: T.Tensor) => T.torch.exp(x);
    const cf = T.compile(f, { dynamic: false });
    for (let n = 1; n <= 10; n++) expect(values(cf(T.torch.ones([n])))).toEqual(values(f(T.torch.ones([n]))));
    expect(cf.stats).toMatchObject({ compiles: 8, eagerFallbacks: 2 });
    expect(cf.entries()).toHaveLength(8);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][0])).toMatch(/cache size limit \(8\)/);
  });

  test('a size change recompiles once with the dim dynamic; later sizes hit the cache', () => {
    const g = (x: T.Tensor, y: T.Tensor) => T.torch.sum(T.torch.mul(T.torch.add(T.torch.exp(x), y), 2));
    const cg = T.compile(g);
    const y = T.torch.linspace(0, 1, 4);
    for (const n of [10, 20, 30, 41]) expect(values(cg(x2(n, 4), y))).toEqual(values(g(x2(n, 4), y)));
    expect(cg.stats).toMatchObject({ compiles: 2, cacheHits: 2, recompiles: 1 });
    const dyn = cg.entries()[1];
    expect(dyn.dynamic).toEqual(['input 0 dim 0']);
    expect(dyn.guards[0]).toBe('input 0: float32 cpu [s0_0, 4] strides C:0.1');
    // Sizes 0 and 1 stay specialised, as in Dynamo.
    cg(x2(1, 4), y);
    expect(cg.stats.compiles).toBe(3);
  });

  test('a dim whose size is baked into the graph is not made dynamic', () => {
    const f = (x: T.Tensor) => T.torch.reshape(x, [x.shape[0] * 3]);
    const cf = T.compile(f);
    cf(x2(4));
    cf(x2(5));
    expect(cf.entries()[1].dynamic).toEqual([]);
    expect(cf.entries()[1].notes[0]).toMatch(/specialised/);
    expect(values(cf(x2(5)))).toEqual(values(f(x2(5))));
  });

  test('guards: dtype, stride pattern, requires_grad and grad mode each select another entry', () => {
    const cf = T.compile((x: T.Tensor) => T.torch.mul(x, 2));
    const x = x2(4);
    cf(x);
    cf(T.torch.linspace(-2, 2, 12, { dtype: 'float64' }).reshape(4, 3));
    cf(T.torch.transpose(x2(3, 4), 0, 1));
    cf(T.tensor([[1, 2]], { dtype: 'float32', requiresGrad: true }));
    T.noGrad(() => cf(x));
    expect(cf.entries().map((e) => e.guards.slice(0, 2).join(' | '))).toEqual([
      'input 0: float32 cpu [4, 3] strides C:0.1 | grad mode on',
      'input 0: float64 cpu [4, 3] strides C:0.1 | grad mode on',
      'input 0: float32 cpu [4, 3] strides N:1.0 | grad mode on',
      'input 0: float32 cpu [1, 2] strides C:0.1 requires_grad | grad mode on',
      'input 0: float32 cpu [4, 3] strides C:0.1 | grad mode off',
    ]);
  });

  test('reading a value is a graph break: two graphs, the read sees real data, no recompile next time', () => {
    const h = (x: T.Tensor) => ((T.torch.sum(x).item() as number) > 0 ? T.torch.mul(x, 2) : T.torch.neg(x));
    const ch = T.compile(h);
    const x = T.torch.linspace(-1, 2, 6);
    expect(values(ch(x))).toEqual(values(h(x)));
    expect(ch.stats).toMatchObject({ compiles: 2, graphBreaks: 1 });
    expect(values(ch(T.torch.linspace(-1, 2, 6)))).toEqual(values(h(x)));
    expect(ch.stats).toMatchObject({ compiles: 2, cacheHits: 1 });
    // The other branch is a new graph after the break.
    const neg = T.torch.linspace(-3, 1, 6);
    expect(values(ch(neg))).toEqual(values(h(neg)));
    const e = T.explain(h, x);
    expect(e).toMatchObject({ graphCount: 2, graphBreakCount: 1, opCount: 2 });
    expect(e.breakReasons[0]).toMatch(/item\(\) reads the values of a traced tensor/);
    expect(e.guards[0]).toBe('input 0: float32 cpu [6] strides C:0');
  });

  test('an op that reads its values (one_hot) breaks the graph there and runs on real values', () => {
    const h = (x: T.Tensor) => T.torch.mul(T.torch.one_hot(T.torch.add(x, 1)), 2);
    const x = T.tensor([0, 2, 1]);
    const ch = T.compile(h);
    expect(values(ch(x))).toEqual(values(h(x)));
    expect(ch.stats).toMatchObject({ graphBreaks: 1 });
    const e = T.explain(h, x);
    expect(e).toMatchObject({ graphCount: 2, graphBreakCount: 1 });
    expect(e.breakReasons[0]).toMatch(/one_hot\(\) reads the values of a traced tensor/);
  });

  test('gradients through a compiled function equal eager ones (compiled forward, eager backward)', () => {
    const f = (a: T.Tensor, b: T.Tensor) => T.torch.sum(T.torch.mul(T.torch.exp(a), T.torch.sin(b)));
    const run = (ff: typeof f) => {
      const a = T.tensor(
        [
          [1, 2],
          [3, 4],
        ],
        { dtype: 'float64', requiresGrad: true },
      );
      const b = T.tensor([0.5, -1], { dtype: 'float64', requiresGrad: true });
      T.backward([ff(a, b)]);
      return [a.grad!.tolist(), b.grad!.tolist()];
    };
    expect(run(T.compile(f))).toEqual(run(f));
  });

  test('fused: a 5-op pointwise chain is one generated kernel with no intermediate tensors', () => {
    const f = (x: T.Tensor, y: T.Tensor) =>
      T.torch.tanh(T.torch.mul(T.torch.sub(T.torch.exp(T.torch.add(x, y)), 1), 0.5));
    const cf = T.compile(f, { backend: 'fused', debug: true });
    const x = x2(5, 4);
    const y = T.torch.linspace(0, 1, 4);
    expect(values(cf(x, y))).toEqual(values(f(x, y)));
    const [src] = cf.entries()[0].sources;
    expect(cf.entries()[0].sources).toHaveLength(1);
    expect(src.match(/F\d\(/g)).toHaveLength(5);
    // Broadcasting y over the rows happens in the kernel's strides (stride 0), not by expanding y.
    expect(cf.entries()[0].graphs[0]).not.toMatch(/expand/);
  });

  test('aot_eager traces composites into the ops they are made of', () => {
    const f = (x: T.Tensor) => T.callOp('expand_as', [x, T.torch.zeros([4, 3])]);
    const eager = T.compile(f, { backend: 'eager' });
    const aot = T.compile(f, { backend: 'aot_eager' });
    const x = T.torch.ones([1, 3]);
    expect(values(aot(x))).toEqual(values(eager(x)));
    expect(eager.entries()[0].graphs[0]).toMatch(/expand_as\(/);
    expect(aot.entries()[0].graphs[0]).toMatch(/= expand\(/);
  });
});

describeWebGPU('compile on webgpu', () => {
  test('fused: one WGSL shader per pointwise chain, same values as eager', async () => {
    const f = (x: T.Tensor, y: T.Tensor) => T.torch.sum(T.torch.mul(T.torch.add(T.torch.exp(x), y), 2));
    const cf = T.compile(f, { backend: 'fused', debug: true });
    const [x, y] = onWebGPU([x2(6, 4), T.torch.linspace(0, 1, 4)]);
    const got = await (cf(x, y) as T.Tensor).toArray();
    const want = await (f(x, y) as T.Tensor).toArray();
    expect(Math.abs((got[0] as number) - (want[0] as number))).toBeLessThan(1e-3);
    const [wgsl] = cf.entries()[0].sources;
    expect(wgsl).toMatch(/fn n0\(a: f32\) -> f32/);
    expect(wgsl).toMatch(/output = n2\(n1\(n0\(x0\), x1, s0\), s1\)/);
  });
});
