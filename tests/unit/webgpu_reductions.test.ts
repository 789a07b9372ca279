/**
 * webgpu reduction, scan and softmax kernels against cpu: layouts (transposed, offset slice, broadcast,
 * permuted 3-D), dim/keepdim variants, out= (strided, resized, aliasing the input), NaN, int/bool inputs with
 * exact int64 results, empty tensors, and reductions larger than one workgroup or one grid row.
 */
import { expect, test } from 'vitest';
import { callOp, type DType, type Tensor, tensor, toHost } from '../../src/runtime/index.ts';
import { describeWebGPU, expectSameAsCpu, onWebGPU } from './webgpu_helpers.ts';

// The shared helper's values() flattens tolist(), which is a bare number for a 0-dim tensor: compare 0-dim
// results as 1-element vectors (their shapes come from the device-independent plan).
const lift = (r: unknown): unknown =>
  Array.isArray(r) ? r.map(lift) : (r as Tensor).ndim === 0 ? callOp('unsqueeze', [r, 0]) : r;
const op =
  (name: string, kw: Record<string, unknown> = {}) =>
  (...a: unknown[]) =>
    lift(callOp(name, a, kw));
/** An op whose last argument is the out= tensor; returns the out tensor's base so untouched elements count. */
const opOut =
  (name: string, kw: Record<string, unknown> = {}, view?: (base: Tensor) => Tensor) =>
  (...a: unknown[]) => {
    const base = a.at(-1) as Tensor;
    callOp(name, a.slice(0, -1), { ...kw, out: view ? view(base) : base });
    return lift(base);
  };
const T = (data: unknown, dtype: DType = 'float32') => tensor(data as number[], { dtype });
const seq = <V>(n: number, f: (i: number) => V): V[] => Array.from({ length: n }, (_, i) => f(i));
const grid = (r: number, c: number, f: (i: number, j: number) => number): number[][] =>
  seq(r, (i) => seq(c, (j) => f(i, j)));

// Values with ties, negatives, a signed zero and one-off magnitudes; a [3, 4] matrix in every layout.
const base = grid(3, 4, (i, j) => [1.5, -2, 0, 3, -0, 7, 7, -1, 2.25, -5, 4, 4][i * 4 + j]);
const layouts: Record<string, () => Tensor> = {
  contiguous: () => T(base),
  transposed: () => callOp('t', [T(grid(4, 3, (i, j) => base[j][i]))]) as Tensor,
  offset: () => callOp('narrow', [T([[9, 9, 9, 9], ...base, [8, 8, 8, 8]]), 0, 1, 3]) as Tensor,
  expanded: () => callOp('expand', [T([base[1]]), [3, 4]]) as Tensor,
};
const cube = () =>
  callOp('permute', [
    T(seq(2, (a) => grid(3, 4, (b, c) => Math.sin(a * 12 + b * 4 + c) * 3))),
    [2, 0, 1],
  ]) as Tensor;
const withNaN = () =>
  T([
    [1, Number.NaN, 3, Number.NaN],
    [Number.NEGATIVE_INFINITY, 2, Number.POSITIVE_INFINITY, 0],
    [4, 4, -1, 2],
  ]);

type Case = [name: string, args: unknown[], kw?: Record<string, unknown>];
const REDUCTIONS: Case[] = [
  ['sum', []],
  ['sum', [[1]]],
  ['sum', [[0], true]],
  ['sum', [[-1, 0]]],
  ['mean', []],
  ['mean', [[1], true]],
  ['prod', []],
  ['prod', [0]],
  ['prod', [1, true]],
  ['amax', [[1]]],
  ['amax', [[0], true]],
  ['amin', [[]]],
  ['amin', [[0, 1]]],
  ['max', []],
  ['max', [1]],
  ['max', [0, true]],
  ['min', []],
  ['min', [1]],
  ['argmax', []],
  ['argmax', [1]],
  ['argmax', [0, true]],
  ['argmin', []],
  ['argmin', [0]],
  ['argmin', [null, true]],
  ['var', []],
  ['var', [[1]], { keepdim: true }],
  ['var', [[0]], { correction: 0 }],
  ['std', [[1], false]],
  ['std', [[0]], { correction: 5 }],
  ['logsumexp', [[1]]],
  ['logsumexp', [[0, 1], true]],
  ['linalg.vector_norm', []],
  ['linalg.vector_norm', [1, [1]]],
  ['linalg.vector_norm', [Number.POSITIVE_INFINITY, [0], true]],
  ['linalg.vector_norm', [Number.NEGATIVE_INFINITY, [1]]],
  ['linalg.vector_norm', [0, [1]]],
  ['linalg.vector_norm', [3, [1]]],
  ['linalg.vector_norm', [-1.5, [0]]],
  ['norm', []],
  ['norm', [3]],
  ['norm', [2, [1], true]],
  ['all', []],
  ['all', [1]],
  ['any', []],
  ['any', [0, true]],
  ['cumsum', [0]],
  ['cumsum', [1]],
  ['cumprod', [-1]],
  ['cumprod', [0]],
  ['softmax', [1]],
  ['softmax', [0]],
  ['log_softmax', [1]],
  ['log_softmax', [0]],
];
const show = (v: unknown) =>
  JSON.stringify(v, (_, x) => (typeof x === 'number' && !Number.isFinite(x) ? `${x}` : x));
const label = ([n, a, kw]: Case) => `${n}(${show(a)}${kw ? `, ${show(kw)}` : ''})`;

describeWebGPU('webgpu reductions', () => {
  for (const [layout, make] of Object.entries(layouts)) {
    test.each(REDUCTIONS.map((c) => [label(c), c] as const))(`%s on a ${layout} input`, async (_, c) => {
      await expectSameAsCpu(op(c[0], c[2]), [make(), ...c[1]]);
    });
  }

  test.each(REDUCTIONS.map((c) => [label(c), c] as const))('%s with NaN and infinities', async (_, c) => {
    await expectSameAsCpu(op(c[0], c[2]), [withNaN(), ...c[1]]);
  });

  test('permuted 3-D input, reducing inner, outer and mixed dims', async () => {
    for (const dims of [[0], [1], [2], [0, 2], [1, 2], [2, 0, 1]]) {
      await expectSameAsCpu(op('sum'), [cube(), dims, true]);
      await expectSameAsCpu(op('amax'), [cube(), dims]);
      await expectSameAsCpu(op('var'), [cube(), dims]);
      await expectSameAsCpu(op('linalg.vector_norm'), [cube(), 2, dims]);
    }
    for (const d of [0, 1, 2]) {
      await expectSameAsCpu(op('argmin'), [cube(), d]);
      await expectSameAsCpu(op('max'), [cube(), d, true]);
      await expectSameAsCpu(op('cumsum'), [cube(), d]);
      await expectSameAsCpu(op('softmax'), [cube(), d]);
      await expectSameAsCpu(op('log_softmax'), [cube(), d]);
    }
    await expectSameAsCpu(op('argmax'), [cube()]);
  });

  test('NaN propagation: max/amax/argmax pick the first NaN, min too', async () => {
    const x = T([
      [3, Number.NaN, 5, Number.NaN],
      [1, 2, 2, 1],
      [Number.NaN, -1, -1, Number.NaN],
    ]);
    for (const name of ['max', 'min', 'argmax', 'argmin']) {
      await expectSameAsCpu(op(name), [x, 1]);
      await expectSameAsCpu(op(name), [x]);
    }
    const r = (await toHost(callOp('argmax', onWebGPU([x, 1])) as Tensor)).tolist();
    expect(r).toEqual([1n, 1n, 0n]);
  });

  test('int32, uint8 and bool inputs: exact int64 sums and products, wrapping int32/uint8 dtypes', async () => {
    const big = T(
      [
        [2147483647, 2147483647, 5],
        [-2147483648, -2147483648, -1],
        [100000, 100000, 100000],
      ],
      'int32',
    );
    const bytes = T(
      [
        [200, 100, 7],
        [255, 1, 0],
      ],
      'uint8',
    );
    const bools = T(
      [
        [true, false, true],
        [true, true, true],
      ],
      'bool',
    );
    for (const x of [big, bytes, bools]) {
      for (const name of ['sum', 'prod']) {
        await expectSameAsCpu(op(name), [x]);
        await expectSameAsCpu(op(name), [x, name === 'sum' ? [1] : 1]);
        await expectSameAsCpu(op(name, { dtype: 'int32' }), [x, name === 'sum' ? [0] : 0]);
        await expectSameAsCpu(op(name, { dtype: 'float32' }), [x, name === 'sum' ? [1] : 1]);
      }
      await expectSameAsCpu(op('sum', { dtype: 'uint8' }), [x, [1]]);
      await expectSameAsCpu(op('sum', { dtype: 'bool' }), [x, [1]]);
      await expectSameAsCpu(op('prod', { dtype: 'bool' }), [x, 1]);
      for (const name of ['amax', 'amin']) await expectSameAsCpu(op(name), [x, [1]]);
      for (const name of ['max', 'min', 'all', 'any']) await expectSameAsCpu(op(name), [x]);
      await expectSameAsCpu(op('cumsum'), [x, 1]);
      await expectSameAsCpu(op('cumprod'), [x, 1]);
      await expectSameAsCpu(op('cumsum', { dtype: 'int32' }), [x, 0]);
      await expectSameAsCpu(op('cumprod', { dtype: 'uint8' }), [x, 1]);
      await expectSameAsCpu(op('mean', { dtype: 'float32' }), [x, [1]]);
      await expectSameAsCpu(op('logsumexp'), [x, [1]]);
      await expectSameAsCpu(op('softmax', { dtype: 'float32' }), [x, 1]);
    }
    for (const x of [big, bytes]) {
      await expectSameAsCpu(op('max'), [x, 1]);
      await expectSameAsCpu(op('argmin'), [x, 0, true]);
      await expectSameAsCpu(op('argmax'), [x]);
    }
  });

  test('int64 inputs: exact sums, products and scans; any/all; refused where int64 would be computed', async () => {
    const x = T(
      [
        [2 ** 40, -3, 7],
        [2 ** 33, 2 ** 33, -(2 ** 50)],
      ],
      'int64',
    );
    for (const [name, args] of [
      ['sum', []],
      ['sum', [[1]]],
      ['prod', [1]],
      ['cumsum', [1]],
      ['cumprod', [0]],
      ['any', [1]],
      ['all', []],
    ] as const) {
      await expectSameAsCpu(op(name), [x, ...args]);
    }
    await expectSameAsCpu(op('sum', { dtype: 'float32' }), [x, [1]]);
    const [g] = onWebGPU([x]);
    for (const name of ['amax', 'argmax', 'max'])
      expect(() => callOp(name, [g])).toThrow(/E_DTYPE_UNSUPPORTED/);
  });

  test('out=: strided and offset out tensors, untouched elements, resizing, dtype rules', async () => {
    const x = layouts.transposed();
    const column = (b: Tensor) => callOp('select', [b, 1, 1]) as Tensor;
    const outs = () => T(grid(4, 3, () => 42));
    await expectSameAsCpu(opOut('sum', {}, column), [x, [0], outs()]);
    await expectSameAsCpu(opOut('mean', {}, column), [x, [0], false, outs()]);
    await expectSameAsCpu(opOut('amax', {}, column), [x, [0], outs()]);
    await expectSameAsCpu(opOut('var', {}, column), [x, [0], outs()]);
    await expectSameAsCpu(opOut('logsumexp', {}, column), [x, [0], outs()]);
    await expectSameAsCpu(opOut('linalg.vector_norm', {}, column), [x, 3, [0], outs()]);
    await expectSameAsCpu(opOut('norm', {}, column), [x, 2, [0], outs()]);
    const transposedOut = (b: Tensor) => callOp('t', [b]) as Tensor;
    await expectSameAsCpu(opOut('cumsum', {}, transposedOut), [x, 0, outs()]);
    await expectSameAsCpu(opOut('cumprod', {}, transposedOut), [x, 1, outs()]);
    await expectSameAsCpu(opOut('softmax', {}, transposedOut), [x, 1, outs()]);
    await expectSameAsCpu(opOut('log_softmax', {}, transposedOut), [x, 0, outs()]);
    // int64 outs: argmax and an integer sum, at a stride and an offset.
    const longs = () =>
      T(
        grid(4, 3, () => 42),
        'int64',
      );
    await expectSameAsCpu(opOut('argmax', {}, column), [x, 0, false, longs()]);
    const ints = T(
      grid(3, 4, (i, j) => i * 7 - j * 1000),
      'int32',
    );
    await expectSameAsCpu(opOut('sum', {}, column), [ints, [0], longs()]);
    await expectSameAsCpu(opOut('prod', {}, column), [ints, 0, false, longs()]);
    // all/any into uint8 as well as bool.
    await expectSameAsCpu(opOut('any', {}, column), [
      x,
      0,
      false,
      T(
        grid(4, 3, () => 9),
        'uint8',
      ),
    ]);
    await expectSameAsCpu(opOut('all'), [x, T([true], 'bool')]);
    // A wrong-shaped out is resized (contiguous), keeping its storage when it fits.
    await expectSameAsCpu(opOut('sum'), [x, [1], T(seq(7, () => 5))]);
    await expectSameAsCpu(opOut('argmin'), [x, 1, true, T([1, 2], 'int64')]);
    await expectSameAsCpu(opOut('sum', { dtype: 'int32' }), [ints, [1], T([0, 0, 0], 'int32')]);
  });

  test('out= aliasing the input goes through a scratch result', async () => {
    const x = () => T(base);
    await expectSameAsCpu((a) => callOp('cumsum', [a, 1], { out: a }), [x()]);
    await expectSameAsCpu((a) => callOp('softmax', [a, 0], { out: a }), [x()]);
    await expectSameAsCpu(
      (a) => {
        callOp('sum', [a, [1]], { out: callOp('select', [a, 1, 0]) });
        return a;
      },
      [x()],
    );
  });

  test('empty tensors: identities, NaN means, empty results', async () => {
    const e = callOp('reshape', [T([]), [0, 3]]) as Tensor;
    for (const c of [
      ['sum', []],
      ['sum', [[0]]],
      ['mean', [[0]]],
      ['prod', [0]],
      ['all', [0]],
      ['any', []],
      ['var', [[0]]],
      ['std', []],
      ['logsumexp', [[0]]],
      ['linalg.vector_norm', [1, [0]]],
      ['norm', []],
      ['amax', [[1]]],
      ['max', [1]],
      ['argmax', [1]],
      ['cumsum', [0]],
      ['cumprod', [1]],
      ['softmax', [0]],
      ['log_softmax', [1]],
    ] as Case[]) {
      await expectSameAsCpu(op(c[0]), [e, ...c[1]]);
    }
    await expectSameAsCpu(op('sum'), [T([], 'int32')]);
  });

  test('0-dim inputs', async () => {
    const s = () => callOp('select', [T([2.5, -1]), 0, 1]) as Tensor;
    for (const c of [
      ['sum', []],
      ['amax', [[]]],
      ['max', [0]],
      ['argmax', [0, true]],
      ['var', [[]], { correction: 0 }],
      ['cumsum', [0]],
      ['softmax', [0]],
    ] as Case[]) {
      await expectSameAsCpu(op(c[0], c[2]), [s(), ...c[1]]);
    }
  });

  test('more elements than one workgroup, and more outputs than one grid row', async () => {
    const long = T(grid(3, 1000, (i, j) => Math.cos(i * 1000 + j) * 10 + (j === 700 ? 50 : 0)));
    for (const c of [
      ['sum', [[1]]],
      ['mean', []],
      ['amax', [[1]]],
      ['argmax', [1]],
      ['argmin', []],
      ['var', [[1]]],
      ['logsumexp', [[1]]],
      ['linalg.vector_norm', [2, [1]]],
      ['softmax', [1]],
      ['log_softmax', [1]],
      ['cumsum', [1]],
    ] as Case[]) {
      await expectSameAsCpu(op(c[0]), [long, ...c[1]]);
    }
    // Ties across invocations: the first index wins.
    const ties = T([seq(300, (j) => (j % 97 === 5 ? 3 : j % 7))]);
    await expectSameAsCpu(op('argmax'), [ties, 1]);
    await expectSameAsCpu(op('max'), [ties, 1]);
    const many = T(grid(66000, 2, (i, j) => (i % 13) - j));
    await expectSameAsCpu(op('sum'), [many, [1]]);
    await expectSameAsCpu(op('argmin'), [many, 1]);
    await expectSameAsCpu(op('cumsum'), [callOp('t', [many]), 1]);
  });

  test("long lines: blocked scans and folds past llvmpipe's 65535-iteration loop budget", async () => {
    const n = 5_000_000;
    const ones = () => callOp('expand', [T([1], 'int32'), [n]]) as Tensor;
    const [g] = onWebGPU([ones()]);
    expect((await toHost(callOp('sum', [g]) as Tensor)).tolist()).toBe(BigInt(n));
    expect((await toHost(callOp('argmax', [callOp('narrow', [g, 0, 1, n - 1])]) as Tensor)).tolist()).toBe(
      0n,
    );
    const row = T([seq(200_000, (j) => Math.sin(j) * 4)]);
    await expectSameAsCpu(op('softmax'), [row, 1]);
    await expectSameAsCpu(op('logsumexp'), [row, [1]]);
    await expectSameAsCpu(op('cumsum'), [
      T(
        seq(70_000, (j) => (j % 5) - 2),
        'int32',
      ),
      0,
    ]);
    await expectSameAsCpu(op('cumsum'), [
      T(
        seq(3000, (j) => (j % 9) * 2 ** 20),
        'int64',
      ),
      0,
    ]);
    await expectSameAsCpu(op('cumprod'), [
      T(
        seq(2000, (j) => (j % 3) - 1 || 3),
        'int32',
      ),
      0,
    ]);
    await expectSameAsCpu(op('cumprod'), [T(seq(1500, (j) => 1 + (j % 3) * 1e-3)), 0]);
    await expectSameAsCpu(op('cumsum'), [callOp('narrow', [cube(), 0, 1, 2]), 2]);
  });

  test('int32 sums wrap like PyTorch (cpu and webgpu)', async () => {
    const x = T([2147483647, 2, 5], 'int32');
    expect((callOp('sum', [x], { dtype: 'int32' }) as Tensor).tolist()).toBe(2147483654 - 2 ** 32);
    await expectSameAsCpu(op('sum', { dtype: 'int32' }), [x]);
    await expectSameAsCpu(op('sum', { dtype: 'uint8' }), [x]);
  });

  test('plan errors are the cpu ones', () => {
    const [i, f] = onWebGPU([T([1, 2], 'int32'), T([1, 2])]);
    expect(() => callOp('mean', [i])).toThrow(/E_DTYPE_UNSUPPORTED/);
    expect(() => callOp('amax', [T([[]], 'float32')])).toThrow(/IndexError|E_INDEX|reduction dim/);
    expect(() => callOp('sum', [f, [0, 0]])).toThrow(/multiple times/);
    expect(() => callOp('argmax', [onWebGPU([callOp('reshape', [T([]), [0, 2]])])[0]])).toThrow(
      /numel\(\) == 0/,
    );
  });
});
