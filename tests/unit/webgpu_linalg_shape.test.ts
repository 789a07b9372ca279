/**
 * webgpu linalg (tiled matmul), factories and shape ops against cpu: transposed, sliced (storage offset) and
 * expanded layouts, batch broadcasting, sizes that are not multiples of the tile, int32 / uint8 / int64,
 * empty tensors and out= overloads.
 */
import { expect, test } from 'vitest';
import { callOp, float, Tensor, tensor, toHost, webgpuLaunchStats } from '../../src/runtime/index.ts';
import { describeWebGPU, expectSameAsCpu, onWebGPU, values } from './webgpu_helpers.ts';

const op =
  (name: string, kw: Record<string, unknown> = {}) =>
  (...a: unknown[]) =>
    callOp(name, a, kw);
const c = (name: string, ...a: unknown[]) => callOp(name, a) as Tensor;

/** Deterministic values in [-2, 2) (a small LCG), shaped. */
function rand(shape: number[], dtype: 'float32' | 'int32' = 'float32', seed = 1): Tensor {
  const n = shape.reduce((x, y) => x * y, 1);
  let s = seed;
  const data = Array.from({ length: n }, () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    const u = (s / 2147483648) * 4 - 2;
    return dtype === 'int32' ? Math.round(u * 5) : u;
  });
  return c('reshape', tensor(data, { dtype }), shape);
}

/** A 0-dim result as 1-D (the shared `values` helper reads nested lists); its rank is checked here. */
function flat1(r: unknown): unknown {
  if (!(r instanceof Tensor) || r.ndim > 0) return r;
  return c('reshape', r, [1]);
}

/** Runs `fn` on cpu and webgpu for every argument list. */
async function same(fn: (...a: unknown[]) => unknown, ...cases: unknown[][]): Promise<void> {
  for (const args of cases) {
    const ranks: number[] = [];
    await expectSameAsCpu((...a) => {
      const r = fn(...a);
      if (r instanceof Tensor) ranks.push(r.ndim);
      return flat1(r);
    }, args);
    expect(ranks[1]).toBe(ranks[0]);
  }
}

describeWebGPU('webgpu matmul family', () => {
  test('mm: tile remainders, transposed and sliced operands', async () => {
    const a = rand([17, 33]);
    const b = rand([33, 5], 'float32', 2);
    await same(
      op('mm'),
      [a, b],
      [c('t', rand([33, 17], 'float32', 3)), b],
      [a, c('t', rand([5, 33], 'float32', 4))],
      [
        c('narrow', rand([20, 40], 'float32', 5), 1, 3, 33),
        c('narrow', rand([40, 9], 'float32', 6), 0, 7, 33),
      ],
      [rand([64, 130], 'float32', 7), rand([130, 70], 'float32', 8)],
      [c('t', rand([40, 259], 'float32', 10)), rand([40, 261], 'float32', 11)],
      [rand([1, 1]), rand([1, 1], 'float32', 9)],
    );
  });
  test('transposed inputs are read in place: one launch per product', async () => {
    const [a, b] = onWebGPU([c('t', rand([33, 17])), c('t', rand([5, 33], 'float32', 2))]);
    const before = webgpuLaunchStats.launches;
    const out = c('mm', a, b);
    expect(webgpuLaunchStats.launches - before).toBe(1);
    expect(out.shape).toEqual([17, 5]);
  });
  test('mm on expanded operands (stride 0)', async () => {
    await same(op('mm'), [
      c('expand', rand([1, 6]), [4, 6]),
      c('expand', rand([6, 1], 'float32', 3), [6, 3]),
    ]);
  });
  test('int32 wraps like cpu; uint8 wraps to 8 bits', async () => {
    const big = tensor(
      [
        [70000, 3],
        [-5, 1 << 30],
      ],
      { dtype: 'int32' },
    );
    await same(op('mm'), [big, c('t', big)], [rand([9, 20], 'int32'), rand([20, 18], 'int32', 2)]);
    const u = tensor(
      [
        [200, 7],
        [3, 255],
      ],
      { dtype: 'uint8' },
    );
    await same(op('mm'), [u, u]);
  });
  test('bmm: batches, transposed batches, expanded batch', async () => {
    const a = rand([3, 17, 9]);
    const b = rand([3, 9, 20], 'float32', 2);
    await same(
      op('bmm'),
      [a, b],
      [c('transpose', rand([3, 9, 17], 'float32', 3), 1, 2), b],
      [a, c('expand', rand([1, 9, 20], 'float32', 4), [3, 9, 20])],
      [c('transpose', rand([17, 3, 9], 'float32', 5), 0, 1), b],
    );
  });
  test('mv and dot on strided vectors', async () => {
    const v = c('slice', rand([66]), 0, 0, null, 2);
    await same(op('mv'), [rand([17, 33]), v], [c('t', rand([33, 17], 'float32', 2)), v]);
    await same(op('dot'), [v, c('narrow', rand([40], 'float32', 3), 0, 5, 33)]);
    await same(op('dot'), [rand([7], 'int32'), rand([7], 'int32', 2)]);
  });
  test('matmul: every dispatch path with batch broadcasting', async () => {
    const v = rand([6], 'float32', 9);
    await same(
      op('matmul'),
      [v, rand([6], 'float32', 2)],
      [rand([5, 6]), v],
      [v, rand([6, 4])],
      [rand([2, 5, 6]), rand([6, 3], 'float32', 3)],
      [rand([5, 6]), rand([2, 6, 3], 'float32', 3)],
      [rand([3, 1, 5, 6]), rand([4, 6, 2], 'float32', 4)],
      [v, rand([2, 6, 3], 'float32', 5)],
      [rand([2, 3, 6]), v],
      [c('transpose', rand([2, 6, 5]), 1, 2), rand([2, 6, 3], 'float32', 6)],
    );
  });
  test('empty products: zero rows, zero batch, and k = 0 (zeros)', async () => {
    await same(
      op('mm'),
      [rand([0, 4]), rand([4, 3])],
      [rand([3, 0]), rand([0, 5])],
      [rand([3, 0], 'int32'), rand([0, 5], 'int32')],
    );
    await same(op('bmm'), [rand([0, 2, 3]), rand([0, 3, 4])]);
    await same(op('dot'), [rand([0]), rand([0])]);
    await same(op('matmul'), [rand([2, 0, 3]), rand([3, 4])]);
  });
  test('out= overloads, a transposed out and an out aliasing an input', async () => {
    const a = rand([5, 5]);
    const b = rand([5, 5], 'float32', 2);
    await same((x, y, o) => callOp('mm', [x, y], { out: o }), [a, b, rand([5, 5], 'float32', 3)]);
    await same(
      (x, y, o) => callOp('mm', [x, y], { out: c('t', o) }) && o,
      [a, b, rand([5, 5], 'float32', 3)],
    );
    await same((x, y) => callOp('mm', [x, y], { out: x }), [a, b]);
    await same((x, y, o) => callOp('mm', [x, y], { out: o }), [a, b, rand([0], 'float32')]);
    await same((x, y, o) => callOp('bmm', [x, y], { out: o }), [rand([2, 3, 4]), rand([2, 4, 5]), rand([1])]);
    await same((x, y, o) => callOp('mv', [x, y], { out: o }), [rand([4, 3]), rand([3]), rand([4])]);
    await same(
      (x, y, o) => callOp('dot', [x, y], { out: o }),
      [rand([3]), rand([3], 'float32', 2), rand([1])],
    );
    await same(
      (x, y, o) => callOp('matmul', [x, y], { out: o }),
      [rand([2, 3, 4]), rand([4, 2], 'float32', 2), rand([2, 3, 2])],
    );
  });
  test('int64 and bool are refused on webgpu', () => {
    const [l] = onWebGPU([tensor([[1, 2]], { dtype: 'int64' })]);
    expect(() => c('mm', l, c('t', l))).toThrow(/E_DTYPE_UNSUPPORTED/);
    const [b] = onWebGPU([tensor([[true]], { dtype: 'bool' })]);
    expect(() => c('mm', b, b)).toThrow(/E_DTYPE_UNSUPPORTED/);
  });
});

const gpu = { device: 'webgpu' };

/** The factory on cpu and on webgpu give the same tensor. */
async function sameFactory(name: string, args: unknown[], kw: Record<string, unknown> = {}): Promise<void> {
  const a = callOp(name, args, kw) as Tensor;
  const b = callOp(name, args, { ...kw, ...gpu }) as Tensor;
  expect(b.device).toBe('webgpu');
  expect(b.dtype).toBe(a.dtype);
  expect(b.shape).toEqual(a.shape);
  const h = await toHost(b);
  const [x, y] = [values(flat1(a) as Tensor), values(flat1(h) as Tensor)];
  if (a.dtype !== 'float32') expect(y).toEqual(x);
  else
    for (const [i, e] of x.entries())
      expect(Math.abs(y[i] - e)).toBeLessThanOrEqual(1e-5 + 1e-5 * Math.abs(e));
}

describeWebGPU('webgpu factories', () => {
  test('zeros / ones / full over every stored dtype (int64 beyond the i32 range exact)', async () => {
    for (const dtype of ['float32', 'int32', 'uint8', 'bool', 'int64']) {
      await sameFactory('zeros', [[3, 4]], { dtype });
      await sameFactory('ones', [[2, 0, 3]], { dtype });
    }
    await sameFactory('full', [[2, 3], 2.5]);
    await sameFactory('full', [[2, 3], 7]);
    await sameFactory('full', [[5], 3000000000]);
    await sameFactory('full', [[5], -3000000000]);
    await sameFactory('full', [[2], 300], { dtype: 'int32' });
    await sameFactory('full', [[2], true]);
    await sameFactory('full', [[], -1.5]);
  });
  test('empty has the shape, dtype and device only', () => {
    const t = callOp('empty', [[2, 3]], { dtype: 'int32', ...gpu }) as Tensor;
    expect([t.device, t.dtype, t.shape]).toEqual(['webgpu', 'int32', [2, 3]]);
    expect(() => callOp('empty', [[2]], { dtype: 'float64', ...gpu })).toThrow(/E_DTYPE_UNSUPPORTED/);
  });
  test('*_like keep the input layout and device', async () => {
    const [x] = onWebGPU([c('t', rand([3, 4]))]);
    for (const [name, extra] of [
      ['zeros_like', []],
      ['ones_like', []],
      ['full_like', [4]],
      ['empty_like', []],
    ] as const) {
      const t = callOp(name, [x, ...extra]) as Tensor;
      expect([t.device, t.shape, t.stride()]).toEqual(['webgpu', [4, 3], [1, 4]]);
      if (name !== 'empty_like')
        expect(values(await toHost(t))).toEqual(
          values(callOp(name, [c('t', rand([3, 4])), ...extra]) as Tensor),
        );
    }
    const z = callOp('zeros_like', [x], { dtype: 'int32' }) as Tensor;
    expect(values(await toHost(z))).toEqual(Array(12).fill(0));
  });
  test('arange: int64 default (within and beyond i32), int32, float32', async () => {
    await sameFactory('arange', [10]);
    await sameFactory('arange', [-7, 20, 3]);
    await sameFactory('arange', [20, -7, -4]);
    await sameFactory('arange', [3000000000, 3000000005]);
    await sameFactory('arange', [-5, 5, 2], { dtype: 'int32' });
    await sameFactory('arange', [float(0.5), 5, float(1.5)], { dtype: 'int32' });
    await sameFactory('arange', [10], { dtype: 'uint8' });
    await sameFactory('arange', [0, 1, float(0.1)], { dtype: 'float32' });
    await sameFactory('arange', [float(-2.5), 100, float(0.75)]);
    await sameFactory('arange', [0]);
  });
  test('linspace: float32 (both halves), one step, integral dtypes', async () => {
    await sameFactory('linspace', [0, 1, 7]);
    await sameFactory('linspace', [float(-3.5), 10, 1000]);
    await sameFactory('linspace', [2, 5, 1]);
    await sameFactory('linspace', [2, 5, 0]);
    await sameFactory('linspace', [0, 10, 7], { dtype: 'int32' });
    await sameFactory('linspace', [-3, 300, 11], { dtype: 'int64' });
  });
  test('eye and eye.m', async () => {
    await sameFactory('eye', [4]);
    await sameFactory('eye', [3, 5], { dtype: 'int32' });
    await sameFactory('eye', [5, 2], { dtype: 'bool' });
    await sameFactory('eye', [0]);
  });
  test('fill_ / zero_ on strided views write only the view', async () => {
    const base = rand([4, 6]);
    await same(
      (b) => {
        callOp('fill_', [c('select', b, 1, 2), 9]);
        callOp('zero_', [c('slice', c('t', b), 0, 1, null, 2)]);
        return b;
      },
      [base],
    );
    await same(
      (b) => {
        callOp('fill_', [c('narrow', b, 0, 1, 2), 5000000000]);
        return b;
      },
      [tensor([1, 2, 3, 4], { dtype: 'int64' })],
    );
    await same((b) => callOp('fill_', [b, float(Number.NaN)]), [rand([3])]);
  });
});

/**
 * An out= aliasing its input gives the functional result on webgpu, as PyTorch's out= wrappers do (the out=
 * overload computes into a temporary and copies it into `out`).
 */
async function sameAsFunctional(
  inplace: (t: Tensor) => unknown,
  functional: (...a: unknown[]) => unknown,
  args: unknown[],
): Promise<void> {
  const want = values(functional(...args) as Tensor);
  const [t] = onWebGPU([args[0] as Tensor]);
  inplace(t);
  expect(values(await toHost(t))).toEqual(want);
}

describeWebGPU('webgpu shape ops', () => {
  const x = rand([2, 3, 4]);
  const xt = c('transpose', x, 0, 2);
  test('cat: strided and sliced inputs, promotion, skipped empties, out=', async () => {
    await same(
      op('cat'),
      [[x, c('narrow', rand([2, 3, 7]), 2, 1, 5)], 2],
      [[xt, xt], 1],
      [[c('expand', rand([1, 3, 1]), [2, 3, 4]), x], 0],
      [[rand([2, 2], 'int32'), rand([2, 3])], -1],
      [[rand([0]), rand([3, 2]), rand([1, 2])], 0],
      [[tensor([1, 2], { dtype: 'int64' }), tensor([3000000000], { dtype: 'int64' })], 0],
    );
    await same((a, b, o) => callOp('cat', [[a, b], 1], { out: o }), [x, x, rand([1])]);
  });
  test('stack and stack.out', async () => {
    await same(op('stack'), [[x, c('permute', xt, [2, 1, 0])], 3], [[rand([3]), rand([3], 'float32', 2)], 0]);
    await same((a, b, o) => callOp('stack', [[a, b], 1], { out: o }), [x, x, rand([1])]);
  });
  test('flip over strided inputs and int64; out=', async () => {
    await same(op('flip'), [xt, [0, 2]], [x, [-1]], [c('narrow', x, 2, 1, 2), [0, 1, 2]]);
    await same(op('flip'), [tensor([1, 2, 3000000000], { dtype: 'int64' }), [0]], [rand([0, 3]), [1]]);
    await same((a, o) => callOp('flip', [a, [1]], { out: o }), [xt, rand([2])]);
    await sameAsFunctional((a) => callOp('flip', [a, [1]], { out: a }), op('flip'), [rand([3, 3]), [1]]);
  });
  test('roll: flattened and per dim, negative shifts; out=', async () => {
    await same(
      op('roll'),
      [xt, [1], []],
      [xt, [-7], []],
      [xt, [1, -2], [0, 2]],
      [c('narrow', x, 1, 1, 2), [5], [2]],
      [tensor([1, 2, 3000000000], { dtype: 'int64' }), [1], []],
      [rand([0, 2]), [1], []],
    );
    await same((a, o) => callOp('roll', [a, [2], [1]], { out: o }), [xt, rand([2])]);
    await sameAsFunctional((a) => callOp('roll', [a, [2], []], { out: a }), op('roll'), [
      rand([3, 3]),
      [2],
      [],
    ]);
  });
  test('tril / triu: diagonals, batches, expanded and transposed inputs, in place, out=', async () => {
    for (const name of ['tril', 'triu']) {
      await same(
        op(name),
        [xt, 0],
        [xt, 2],
        [xt, -1],
        [c('expand', rand([1, 5]), [4, 5]), 1],
        [rand([3, 4], 'int32'), -5],
        [tensor([[1, 3000000000]], { dtype: 'int64' }), 0],
        [rand([2, 0, 3]), 0],
      );
      await same(
        (b) => {
          callOp(`${name}_`, [c('narrow', b, 1, 1, 3), 1]);
          return b;
        },
        [rand([3, 5])],
      );
      await same((a, o) => callOp(name, [a, 1], { out: o }), [xt, rand([1])]);
    }
  });
  test('slice / select / diagonal / as_strided scatter', async () => {
    await same(
      op('slice_scatter'),
      [x, rand([2, 3, 2], 'float32', 2), 2, 1, 4, 2],
      [xt, rand([2, 3, 2], 'float32', 3), 0, 2],
    );
    await same(op('select_scatter'), [x, c('t', rand([4, 2])), 1, 1]);
    await same(
      op('diagonal_scatter'),
      [rand([3, 4]), rand([3], 'float32', 2), 1],
      [xt, rand([3, 2]), 0, 0, 2],
    );
    await same(op('as_strided_scatter'), [rand([3, 3]), rand([2], 'float32', 2), [2], [4], 1]);
  });
});
