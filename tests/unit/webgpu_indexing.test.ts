/**
 * webgpu indexing / scatter / sorting / clamp kernels against cpu: layouts (transposed, narrow() offsets,
 * expanded), duplicate scatter indices, negative dims, nan, int32 / uint8 / bool / int64, empty, out=, in place.
 */
import { expect, test } from 'vitest';
import { callOp, float, int, type Tensor, tensor, toHost, uploadTensor } from '../../src/runtime/index.ts';
import { describeWebGPU, expectSameAsCpu, onWebGPU, values } from './webgpu_helpers.ts';

const op =
  (name: string, kw: Record<string, unknown> = {}) =>
  (...a: unknown[]) =>
    callOp(name, a, kw);
const f32 = (d: unknown) => tensor(d as number[], { dtype: 'float32' });
const i64 = (d: unknown) => tensor(d as number[], { dtype: 'int64' });
const i32 = (d: unknown) => tensor(d as number[], { dtype: 'int32' });
const T = (x: Tensor) => callOp('t', [x]) as Tensor;
const narrow = (x: Tensor, dim: number, start: number, len: number) =>
  callOp('narrow', [x, dim, start, len]) as Tensor;
const nan = Number.NaN;

/** Runs an in-place op on both devices and compares the mutated base tensor. */
const inPlace =
  (name: string, view: (b: Tensor) => Tensor, kw: Record<string, unknown> = {}) =>
  (base: unknown, ...rest: unknown[]) => {
    callOp(name, [view(base as Tensor), ...rest], kw);
    return base;
  };

/** Runs an out= overload on both devices: `out` is the first argument (so it is uploaded too). */
const withOut =
  (name: string, kw: Record<string, unknown> = {}) =>
  (out: unknown, ...rest: unknown[]) =>
    callOp(name, rest, { ...kw, out });

describeWebGPU('webgpu gather / index_select', () => {
  const x = f32([
    [1, 2, 3, 4],
    [5, 6, 7, 8],
    [9, 10, 11, 12],
  ]);
  test('gather along each dim, negative dim, transposed and offset self', async () => {
    const idx = i64([
      [2, 0, 1],
      [0, 0, 2],
    ]);
    await expectSameAsCpu(op('gather'), [x, 0, idx]);
    await expectSameAsCpu(op('gather'), [
      x,
      -1,
      i64([
        [3, 0],
        [1, 1],
        [2, 3],
      ]),
    ]);
    await expectSameAsCpu(op('gather'), [T(x), 1, idx]);
    await expectSameAsCpu(op('gather'), [narrow(x, 1, 1, 3), 1, idx]);
    await expectSameAsCpu(op('gather'), [
      x,
      1,
      T(
        i64([
          [1, 3],
          [0, 2],
          [3, 3],
        ]),
      ),
    ]);
  });
  test('gather: expanded index, int32 / bool / int64 values, 0-dim, empty, out=', async () => {
    const ex = callOp('expand', [i64([[1, 0, 2, 1]]), [3, 4]]);
    await expectSameAsCpu(op('gather'), [x, 0, ex]);
    await expectSameAsCpu(op('gather'), [
      i32([
        [-5, 6],
        [7, 2147483647],
      ]),
      1,
      i64([
        [1, 1],
        [0, 1],
      ]),
    ]);
    await expectSameAsCpu(op('gather'), [tensor([true, false, true], { dtype: 'bool' }), 0, i64([2, 1, 1])]);
    await expectSameAsCpu(op('gather'), [i64([2 ** 40, -(2 ** 35), 3]), 0, i64([1, 0, 2, 0])]);
    await expectSameAsCpu(op('gather'), [f32([1, 2, 3]), 0, i64([])]);
    const [g1] = onWebGPU([f32([1.5, 2.5])]);
    const g0 = (await toHost(callOp('gather', [g1, 0, tensor(1, { dtype: 'int64' })]) as Tensor)) as Tensor;
    expect([g0.shape, g0.item()]).toEqual([[], 2.5]);
    await expectSameAsCpu(withOut('gather'), [
      T(
        f32([
          [0, 0, 0],
          [0, 0, 0],
        ]),
      ),
      x,
      1,
      i64([
        [3, 2],
        [1, 0],
        [0, 0],
      ]),
    ]);
  });
  test('index_select: int64 / int32 index, offset index, dims, 0-dim self, out=', async () => {
    await expectSameAsCpu(op('index_select'), [x, 0, i64([2, 0, 2, 1])]);
    await expectSameAsCpu(op('index_select'), [T(x), -1, i32([1, 0])]);
    await expectSameAsCpu(op('index_select'), [x, 1, narrow(i64([9, 3, 0, 3, 9]), 0, 1, 3)]);
    await expectSameAsCpu(op('index_select'), [tensor([true, false], { dtype: 'bool' }), 0, i64([1, 1, 0])]);
    await expectSameAsCpu(op('index_select'), [x, 0, i64([])]);
    await expectSameAsCpu(withOut('index_select'), [f32([[0]]), narrow(x, 0, 1, 2), 1, i64([3, 0])]);
  });
  test('shape and dtype checks raise like cpu; out-of-range indices write 0 (no device assert)', async () => {
    const [gx, gi] = onWebGPU([x, i32([[0]])]);
    expect(() => callOp('gather', [gx, 0, gi])).toThrow(/E_DTYPE_UNSUPPORTED/);
    const [g2, bad] = onWebGPU([x, i64([[0, 1, 2, 3, 0]])]);
    expect(() => callOp('gather', [g2, 0, bad])).toThrow(/E_SHAPE_MISMATCH/);
    expect(() => callOp('gather', [g2, 2, onWebGPU([i64([[0]])])[0]])).toThrow(/E_DIM_OUT_OF_RANGE/);
    const [g3, oob] = onWebGPU([f32([1, 2, 3]), i64([5, -1, 2 ** 33 + 1, 1])]);
    expect(values((await toHost(callOp('gather', [g3, 0, oob]) as Tensor)) as Tensor)).toEqual([0, 0, 0, 2]);
    expect(values((await toHost(callOp('index_select', [g3, 0, oob]) as Tensor)) as Tensor)).toEqual([
      0, 0, 0, 2,
    ]);
  });
});

describeWebGPU('webgpu masked_fill', () => {
  const x = f32([
    [1, 2, 3],
    [4, 5, 6],
  ]);
  const m = tensor(
    [
      [true, false, true],
      [false, false, true],
    ],
    { dtype: 'bool' },
  );
  test('Scalar value: broadcast mask, transposed self, int / bool / int64 self, uint8 mask', async () => {
    await expectSameAsCpu(op('masked_fill'), [x, m, -1.5]);
    await expectSameAsCpu(op('masked_fill'), [T(x), tensor([true, false], { dtype: 'bool' }), nan]);
    await expectSameAsCpu(op('masked_fill'), [x, tensor([[true], [false]], { dtype: 'bool' }), 0]);
    await expectSameAsCpu(op('masked_fill'), [i32([1, 2, 3]), tensor([1, 0, 1], { dtype: 'uint8' }), 2.7]);
    await expectSameAsCpu(op('masked_fill'), [
      tensor([true, false], { dtype: 'bool' }),
      tensor([true, true], { dtype: 'bool' }),
      0,
    ]);
    await expectSameAsCpu(op('masked_fill'), [
      i64([1, 2, 3]),
      tensor([true, false, true], { dtype: 'bool' }),
      2 ** 40 + 3,
    ]);
    await expectSameAsCpu(op('masked_fill'), [f32([]), tensor([], { dtype: 'bool' }), 1]);
  });
  test('Tensor value: a cpu 0-dim tensor, a webgpu 0-dim tensor of another dtype', async () => {
    await expectSameAsCpu(op('masked_fill'), [x, m, f32(9.5)]);
    const v = tensor(7.75, { dtype: 'float32' });
    const cpu = callOp('masked_fill', [
      i32([1, 2, 3]),
      tensor([true, false, true], { dtype: 'bool' }),
      v,
    ]) as Tensor;
    const [gs, gm] = onWebGPU([i32([1, 2, 3]), tensor([true, false, true], { dtype: 'bool' })]);
    const gpu = await toHost(callOp('masked_fill', [gs, gm, uploadTensor(v)]) as Tensor);
    expect(values(gpu as Tensor)).toEqual(values(cpu));
  });
  test('in place on a narrowed view, out= of another dtype', async () => {
    await expectSameAsCpu(
      inPlace('masked_fill_', (b) => narrow(b, 1, 1, 2)),
      [x, tensor([true, false], { dtype: 'bool' }), float(3)],
    );
    await expectSameAsCpu(withOut('masked_fill'), [f32([0]), i32([[1, 2, 3]]), m, int(-4)]);
    const [gx, gm] = onWebGPU([x, i32([[1, 0, 1]])]);
    expect(() => callOp('masked_fill', [gx, gm, 1])).toThrow(/E_DTYPE_UNSUPPORTED/);
  });
});

describeWebGPU('webgpu scatter', () => {
  const zeros = f32([
    [0, 0, 0, 0],
    [0, 0, 0, 0],
    [0, 0, 0, 0],
  ]);
  const src = f32([
    [1, 2, 3, 4],
    [5, 6, 7, 8],
  ]);
  const dup = i64([
    [1, 1, 2, 1],
    [1, 0, 2, 1],
  ]);
  test('src with duplicate indices: the last write wins, like the cpu loop', async () => {
    await expectSameAsCpu(op('scatter'), [zeros, 0, dup, src]);
    await expectSameAsCpu(op('scatter'), [
      zeros,
      -1,
      i64([
        [3, 3],
        [0, 3],
      ]),
      src,
    ]);
    await expectSameAsCpu(op('scatter'), [
      T(
        f32([
          [1, 2, 3],
          [4, 5, 6],
          [7, 8, 9],
          [0, 1, 2],
        ]),
      ),
      0,
      dup,
      T(T(src)),
    ]);
    await expectSameAsCpu(op('scatter'), [
      zeros,
      1,
      narrow(
        i64([
          [9, 3, 3, 0],
          [9, 1, 2, 2],
        ]),
        1,
        1,
        3,
      ),
      T(
        f32([
          [1, 2],
          [3, 4],
          [5, 6],
        ]),
      ),
    ]);
  });
  test('reduce add / multiply accumulate in index order; value and value_reduce', async () => {
    const big = f32([
      [1e8, 1, -1e8, 3],
      [1, 1e-3, 7, 0.1],
    ]);
    await expectSameAsCpu(op('scatter', { reduce: 'add' }), [zeros, 0, dup, big]);
    await expectSameAsCpu(op('scatter', { reduce: 'multiply' }), [callOp('add', [zeros, 1.5]), 0, dup, big]);
    await expectSameAsCpu(op('scatter'), [
      zeros,
      1,
      i64([
        [0, 0],
        [3, 1],
      ]),
      2.5,
    ]);
    await expectSameAsCpu(op('scatter', { reduce: 'add' }), [zeros, 0, dup, float(0.25)]);
    await expectSameAsCpu(op('scatter', { reduce: 'multiply' }), [callOp('add', [zeros, 3]), 0, dup, nan]);
  });
  test('int32 / uint8 / bool reduce wraps like cpu; int64 copies exactly; empty index', async () => {
    const ii = i64([0, 0, 0]);
    await expectSameAsCpu(op('scatter', { reduce: 'add' }), [i32([2147483647, 0, 0]), 0, ii, i32([1, 2, 3])]);
    await expectSameAsCpu(op('scatter', { reduce: 'multiply' }), [
      tensor([200, 1], { dtype: 'uint8' }),
      0,
      i64([0, 0]),
      tensor([3, 7], { dtype: 'uint8' }),
    ]);
    const b = (d: boolean[]) => tensor(d, { dtype: 'bool' });
    await expectSameAsCpu(op('scatter', { reduce: 'add' }), [
      b([false, false]),
      0,
      i64([1, 1]),
      b([false, true]),
    ]);
    await expectSameAsCpu(op('scatter', { reduce: 'multiply' }), [
      b([true, true]),
      0,
      i64([1, 1]),
      b([true, false]),
    ]);
    await expectSameAsCpu(op('scatter'), [i64([1, 2, 3]), 0, i64([2, 0]), i64([2 ** 45, -(2 ** 40)])]);
    await expectSameAsCpu(op('scatter'), [i64([1, 2, 3]), 0, i64([2]), int(-(2 ** 50))]);
    await expectSameAsCpu(op('scatter'), [zeros, 0, i64([]), f32([])]);
  });
  test('in place on a narrowed view, out=, 3-D index smaller than self and src', async () => {
    await expectSameAsCpu(
      inPlace('scatter_', (x) => narrow(x, 0, 1, 2)),
      [
        zeros,
        1,
        i64([
          [1, 2],
          [0, 0],
        ]),
        src,
      ],
    );
    await expectSameAsCpu(
      inPlace('scatter_', (x) => T(x), { reduce: 'add' }),
      [zeros, 0, i64([[1, 1, 2]]), src],
    );
    await expectSameAsCpu(withOut('scatter'), [f32([0]), zeros, 0, dup, src]);
    await expectSameAsCpu(withOut('scatter', { reduce: 'add' }), [f32([0]), zeros, 0, dup, 2]);
    const x3 = callOp('reshape', [callOp('arange', [24], { dtype: 'float32' }), [2, 3, 4]]) as Tensor;
    const s3 = callOp('neg', [x3]) as Tensor;
    await expectSameAsCpu(op('scatter'), [
      x3,
      1,
      i64([
        [
          [2, 0],
          [2, 2],
        ],
        [
          [1, 1],
          [0, 2],
        ],
      ]),
      s3,
    ]);
  });
  test('checks that do not read index values raise like cpu; out-of-range indices are skipped', async () => {
    const [gz, gi, gs] = onWebGPU([zeros, i64([[0, 1, 2, 0, 0]]), src]);
    expect(() => callOp('scatter', [gz, 0, gi, gs])).toThrow(/E_SHAPE_MISMATCH/);
    const [gj] = onWebGPU([i64([[0]])]);
    expect(() => callOp('scatter', [gz, 0, gj, gs], { reduce: 'max' })).toThrow(/E_INVALID_ARGUMENT/);
    const [gl, gli, gls] = onWebGPU([i64([1, 2]), i64([0]), i64([5])]);
    expect(() => callOp('scatter', [gl, 0, gli, gls], { reduce: 'add' })).toThrow(/E_DTYPE_UNSUPPORTED/);
    const [a, oob] = onWebGPU([f32([1, 2, 3]), i64([7, -1, 1])]);
    const r = await toHost(callOp('scatter', [a, 0, oob, 9]) as Tensor);
    expect(values(r as Tensor)).toEqual([1, 9, 3]);
  });
});

describeWebGPU('webgpu sort / topk', () => {
  const x = f32([
    [3, nan, -0, 1, 1, 0, Number.NEGATIVE_INFINITY, nan],
    [2, 2, 2, -1, Number.POSITIVE_INFINITY, 5, 5, 0.5],
  ]);
  test('sort: NaN largest, stable ties, descending, dim 0 on a transposed view', async () => {
    await expectSameAsCpu(op('sort'), [x]);
    await expectSameAsCpu(op('sort', { descending: true }), [x]);
    await expectSameAsCpu(op('sort', { dim: 0 }), [T(x)]);
    await expectSameAsCpu(op('sort', { dim: 0, descending: true }), [narrow(T(x), 0, 2, 5)]);
    await expectSameAsCpu(op('sort', { stable: true, dim: -1 }), [x]);
  });
  test('sort: int32 / uint8 / bool / int64, 0-dim, empty', async () => {
    await expectSameAsCpu(op('sort'), [i32([5, -3, 5, 2147483647, -2147483648, 0])]);
    await expectSameAsCpu(op('sort', { descending: true }), [
      tensor([200, 3, 3, 0, 255], { dtype: 'uint8' }),
    ]);
    await expectSameAsCpu(op('sort'), [tensor([true, false, true, false], { dtype: 'bool' })]);
    await expectSameAsCpu(op('sort'), [i64([2 ** 40, -(2 ** 40), 3, -1, 2 ** 32, 0])]);
    await expectSameAsCpu(op('sort', { descending: true }), [i64([2 ** 40, -(2 ** 40), 3, -1, 2 ** 32, 0])]);
    await expectSameAsCpu(op('sort'), [f32([[], []])]);
    const [g] = onWebGPU([f32([4])]);
    const [v, i] = callOp('sort', [callOp('squeeze', [g])]) as Tensor[];
    expect(((await toHost(v)) as Tensor).item()).toBe(4);
    expect(((await toHost(i)) as Tensor).item()).toBe(0n);
  });
  test('topk: largest / smallest, dims, k = 0, long lines; bool refused like cpu', async () => {
    // webgpu orders equal values stably (input order), whatever `stable` says; cpu follows PyTorch's CPU order
    // (libstdc++'s nth_element and partial_sort, ops/sort_order.ts). Values agree with cpu; indices are the
    // stable order's (x has ties: 1, 1; 2, 2, 2; 5, 5; -0 and 0; two NaNs).
    const stableTopk = async (t: Tensor, k: number, o: { largest?: boolean; dim?: number } = {}) => {
      const [g] = onWebGPU([t]);
      const [gv, gi] = callOp('topk', [g, k], o) as Tensor[];
      const dim = o.dim ?? -1;
      const [sv, si] = callOp('sort', [t], { stable: true, dim, descending: o.largest ?? true }) as Tensor[];
      const first = (u: Tensor) => callOp('narrow', [u, dim, 0, k]) as Tensor;
      expect(values((await toHost(gv)) as Tensor)).toEqual(values(first(sv)));
      expect(values((await toHost(gi)) as Tensor)).toEqual(values(first(si)));
    };
    await stableTopk(x, 3);
    await stableTopk(x, 4, { largest: false });
    await stableTopk(T(x), 2, { dim: 0 });
    await expectSameAsCpu(op('topk'), [x, 0]);
    const long = callOp('remainder', [callOp('arange', [1000], { dtype: 'float32' }), 37]) as Tensor;
    await stableTopk(long, 50);
    // cpu's order is not the stable one there (PyTorch's is not either).
    expect(values((callOp('topk', [long, 50]) as Tensor[])[1])).not.toEqual(
      values((callOp('sort', [long], { stable: true, descending: true }) as Tensor[])[1]).slice(0, 50),
    );
    await expectSameAsCpu(op('sort', { stable: true }), [long]);
    const [gl] = onWebGPU([long]);
    const [gv, gi] = callOp('sort', [gl]) as Tensor[];
    const [cv, ci] = callOp('sort', [long], { stable: true }) as Tensor[];
    expect(values((await toHost(gv)) as Tensor)).toEqual(values(cv));
    expect(values((await toHost(gi)) as Tensor)).toEqual(values(ci));
    const [gx, gb] = onWebGPU([x, tensor([true, false], { dtype: 'bool' })]);
    expect(() => callOp('topk', [gx, 9])).toThrow(/E_INVALID_ARGUMENT/);
    expect(() => callOp('topk', [gb, 1])).toThrow(/E_DTYPE_UNSUPPORTED/);
  });
});

describeWebGPU('webgpu clamp', () => {
  const x = f32([
    [-3, nan, 0.5, 7],
    [-0, 2, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY],
  ]);
  test('Scalar bounds: both / min only / max only, NaN self, NaN bounds, transposed', async () => {
    await expectSameAsCpu(op('clamp'), [x, -1, 2]);
    await expectSameAsCpu(op('clamp'), [T(x), 0.25]);
    await expectSameAsCpu(op('clamp', { max: 1.5 }), [narrow(x, 1, 1, 3)]);
    await expectSameAsCpu(op('clamp'), [x, nan, 2]);
    await expectSameAsCpu(op('clamp'), [x, nan]);
    await expectSameAsCpu(op('clamp', { max: nan }), [x]);
    await expectSameAsCpu(op('clamp'), [x, 3, 1]);
    await expectSameAsCpu(op('clamp'), [x, 0]);
  });
  test('Scalar bounds: int32 / uint8 self, promotion to float by a float bound', async () => {
    await expectSameAsCpu(op('clamp'), [i32([-5, 0, 5, 2147483647]), -2, 3]);
    await expectSameAsCpu(op('clamp'), [i32([-5, 0, 5]), 0.5]);
    await expectSameAsCpu(op('clamp', { max: 100 }), [tensor([0, 99, 200, 255], { dtype: 'uint8' })]);
  });
  test('Tensor bounds: broadcasting, NaN in any operand, 0-dim cpu bounds, int32', async () => {
    const lo = f32([-1, nan, 0, 1]);
    const hi = f32([[1], [nan]]);
    await expectSameAsCpu(op('clamp'), [x, lo, hi]);
    await expectSameAsCpu(op('clamp'), [x, lo]);
    await expectSameAsCpu(op('clamp'), [T(T(x)), null, hi]);
    await expectSameAsCpu(op('clamp'), [x, f32(0), f32(1)]);
    await expectSameAsCpu(op('clamp'), [i32([-5, 0, 5]), i32([-1, 1, 1]), i32([0, 2, 4])]);
    const b = (d: boolean[]) => tensor(d, { dtype: 'bool' });
    await expectSameAsCpu(op('clamp'), [b([true, true, false]), null, b([true, false, false])]);
  });
  test('in place, out= (Scalar out needs the exact dtype, Tensor_out casts), refusals', async () => {
    await expectSameAsCpu(
      inPlace('clamp_', (b) => narrow(b, 1, 0, 2)),
      [x, -1, 1],
    );
    await expectSameAsCpu(
      inPlace('clamp_', (b) => T(b)),
      [x, f32([[0], [1], [2], [3]])],
    );
    await expectSameAsCpu(withOut('clamp'), [f32([0]), x, -1, 1]);
    await expectSameAsCpu(withOut('clamp'), [f32([0]), i32([[-4, 0, 9]]), i32([-1, 1, 1])]);
    const [gx, gb, gl] = onWebGPU([x, tensor([true], { dtype: 'bool' }), i64([1, 2])]);
    expect(() => callOp('clamp', [gx])).toThrow(/E_INVALID_ARGUMENT/);
    expect(() => callOp('clamp', [gb, 0, 1])).toThrow(/E_DTYPE_UNSUPPORTED/);
    expect(() => callOp('clamp', [gl, 0, 1])).toThrow(/E_DTYPE_UNSUPPORTED/);
    expect(() => callOp('clamp', [gx, 0, 1], { out: onWebGPU([i32([0])])[0] })).toThrow(/E_RESULT_TYPE|E_/);
  });
});
