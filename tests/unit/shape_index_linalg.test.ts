/**
 * where / clamp, cat / stack / flip / roll / tril / triu, gather / scatter / index_select / masked_fill,
 * mm / bmm / mv / dot / matmul, sort / topk. Expected values, strides and messages were computed once with
 * PyTorch 1.13 (Debian python3-torch) and pasted here as literals; the tests never run PyTorch.
 */
import { describe, expect, it } from 'vitest';
import * as T from '../../src/runtime/index.ts';

const { tensor: t, arange, callOp } = T;
const f = T.float;

/** Values with int64 bigints turned into numbers (exact below 2^53). */
function vals(x: T.Tensor): unknown {
  return JSON.parse(
    JSON.stringify(x.tolist(), (_, v) => (typeof v === 'bigint' ? Number(v) : Number.isNaN(v) ? 'NaN' : v)),
  );
}
function expectTensor(x: T.Tensor, values: unknown, strides?: number[], dtype?: T.DType): void {
  expect(vals(x)).toEqual(values);
  if (strides) expect(x.stride()).toEqual(strides);
  if (dtype) expect(x.dtype).toBe(dtype);
}
function expectClose(x: T.Tensor, values: number[][], tol: number): void {
  const got = x.tolist() as number[][];
  for (let i = 0; i < values.length; i++) {
    for (let j = 0; j < values[i].length; j++) {
      expect(Math.abs(got[i][j] - values[i][j])).toBeLessThanOrEqual(
        tol * Math.max(1, Math.abs(values[i][j])),
      );
    }
  }
}
function expectCode(fn: () => unknown, code: T.ErrorCode, message?: string): void {
  try {
    fn();
  } catch (e) {
    expect((e as T.OpgateError).code).toBe(code);
    if (message) expect((e as Error).message).toContain(message);
    return;
  }
  throw new Error(`expected ${code}, nothing was thrown`);
}
function expectMeta(x: T.Tensor, shape: number[], strides: number[], dtype: T.DType): void {
  expect(x.device).toBe('meta');
  expect([...x.shape]).toEqual(shape);
  expect(x.stride()).toEqual(strides);
  expect(x.dtype).toBe(dtype);
}
const meta = (x: T.Tensor) => x.to('meta');
const fl = (n: number) => arange(f(n));

describe('where', () => {
  it('promotes self/other, broadcasts, reads transposed inputs, keeps their layout', () => {
    const c = t([
      [true, false, true],
      [false, true, false],
    ]).t();
    expectTensor(
      T.where(c, fl(6).view(2, 3).t(), t([10, 20])),
      [
        [0, 20],
        [10, 4],
        [2, 20],
      ],
      [1, 3],
      'float32',
    );
    expectTensor(T.where(t([true, false, true]), 1, 2), [1, 2, 1], [1], 'int64');
    expectTensor(T.where(t([true, false]).to('uint8'), t([1, 2]), t([4, 5])), [1, 5]);
    expectTensor(
      T.where(t([true, false]), t([T.complex(1, 2), T.complex(2)]), t([4, 5.5])),
      [
        [1, 2],
        [5.5, 0],
      ],
      [1],
      'complex64',
    );
  });
  it('refuses non-bool conditions and works on meta', () => {
    expectCode(
      () => T.where(t([1.5]), t([1]), t([2])),
      'E_DTYPE_UNSUPPORTED',
      'where expected condition to be a boolean tensor, but got a tensor with dtype Float',
    );
    expectMeta(T.where(meta(t([[true], [false]])), meta(fl(3)), 0), [2, 3], [3, 1], 'float32');
  });
});

describe('clamp', () => {
  it('promotes ints with float bounds and bools with int bounds', () => {
    expectTensor(t([1, 2, 3]).clamp(1.5), [1.5, 2, 3], [1], 'float32');
    expectTensor(t([true, false]).clamp(0), [1, 0], [1], 'int64');
    expectTensor(
      arange(12).view(3, 4).t().slice(0, 0, null, 2).clamp(2, 9),
      [
        [2, 4, 8],
        [2, 6, 9],
      ],
      [1, 2],
      'int64',
    );
    expectTensor(t([1, 5, -3]).float().clamp(3, 2), [2, 2, 2]);
    expect(
      t([2n ** 62n + 1n, 5n])
        .clamp({ min: 2n ** 62n })
        .tolist(),
    ).toEqual([2n ** 62n + 1n, 2n ** 62n]);
    expectTensor(t([1, 2, 3], { dtype: 'uint8' }).clamp(-1), [255, 255, 255]); // -1 wraps into uint8 like c10
    expectTensor(
      t([0.05, 0.2, 1], { dtype: 'bfloat16' }).clamp(0.1, 0.3),
      [0.10009765625, 0.2001953125, 0.30078125],
    );
  });
  it('propagates NaN like PyTorch 1.13 (a NaN bound fills NaN only when both bounds are given)', () => {
    const x = t([Number.NaN, 1, 5, -3]);
    expectTensor(x.clamp(0, 2), ['NaN', 1, 2, 0]);
    expectTensor(x.clamp(Number.NaN, 2), ['NaN', 'NaN', 'NaN', 'NaN']);
    expectTensor(x.clamp(Number.NaN), ['NaN', 1, 5, -3]);
    expectTensor(T.clamp(t([1.5, 2]), t([Number.NaN, 0]), t([3.5, 3.5])), ['NaN', 2]);
  });
  it('clamp.Tensor broadcasts all three operands', () => {
    // 0-dim tensor bounds promote as tensors (clamp.Tensor) unless mixed with a Python number (clamp).
    expect(T.clamp(t([1, 5]), t(2.5, { dtype: 'float64' })).dtype).toBe('float64');
    expect(T.clamp(t([1, 5]), t(2.5, { dtype: 'float64' }), 3).dtype).toBe('float32');
    expectTensor(
      T.clamp(arange(6).view(2, 3), t([1, 2, 3]), t([[2], [4]])),
      [
        [1, 2, 2],
        [3, 4, 4],
      ],
      [3, 1],
      'int64',
    );
    expectTensor(T.clamp(t([true, false]), { min: t([false, true]) }), [true, true], [1], 'bool');
    expectTensor(
      T.clamp(t([1, 5]), t([2]), { out: T.empty([0], { dtype: 'float64' }) }),
      [2, 5],
      [1],
      'float64',
    );
  });
  it('raises like PyTorch', () => {
    expectCode(
      () => t([1.5]).clamp(),
      'E_INVALID_ARGUMENT',
      "At least one of 'min' or 'max' must not be None",
    );
    expectCode(() => T.clamp(t([1.5]), { min: null, max: null }), 'E_INVALID_ARGUMENT');
    expectCode(
      () => t([T.complex(0, 1)]).clamp(0),
      'E_DTYPE_UNSUPPORTED',
      'clamp is not supported for complex types',
    );
    expectCode(
      () => t([true]).clamp(false, true),
      'E_DTYPE_UNSUPPORTED',
      `"clamp_scalar_cpu" not implemented for 'Bool'`,
    );
    expectCode(
      () => t([0.5], { dtype: 'float16' }).clamp(0.1),
      'E_DTYPE_UNSUPPORTED',
      `"clamp_min_cpu" not implemented for 'Half'`,
    );
    expectCode(
      () => t([1], { dtype: 'int8' }).clamp(300),
      'E_INVALID_ARGUMENT',
      'value cannot be converted to type int8_t without overflow',
    );
    expectCode(
      () => t([1, 2]).clamp_(1.5),
      'E_RESULT_TYPE',
      "result type Float can't be cast to the desired output type Long",
    );
    expectCode(
      () => T.clamp(t([1, 5]), 2, { out: T.empty([0], { dtype: 'float64' }) }),
      'E_RESULT_TYPE',
      'Found dtype Double but expected Long',
    );
  });
  it('works on meta', () => {
    expectMeta(T.clamp(meta(t([1, 2])), 2.5), [2], [1], 'float32');
    expectMeta(T.clamp(meta(fl(6).view(2, 3).t()), meta(t([1.5, 2]))), [3, 2], [1, 3], 'float32');
  });
});

describe('cat / stack', () => {
  it('promotes dtypes and reads transposed, expanded and sliced inputs', () => {
    const parts = [
      arange(6).view(2, 3).t(),
      T.ones([3, 1], { dtype: 'float64' }),
      arange(3, { dtype: 'int32' }).view(3, 1).expand(3, 2),
    ];
    expectTensor(
      T.cat(parts, 1),
      [
        [0, 3, 1, 0, 0],
        [1, 4, 1, 1, 1],
        [2, 5, 1, 2, 2],
      ],
      [5, 1],
      'float64',
    );
    expectTensor(
      T.cat([T.empty([0]), arange(6).view(2, 3)], 1),
      [
        [0, 1, 2],
        [3, 4, 5],
      ],
      [3, 1],
      'float32',
    );
    expectTensor(T.cat([t([true]), t([2], { dtype: 'uint8' })]), [1, 2], [1], 'uint8');
    expectTensor(T.cat([T.empty([0]), T.empty([0], { dtype: 'int32' })], 3), [], [1], 'float32');
    const cl = T.empty([1, 2, 2, 2]).contiguous({ memory_format: 'channels_last' });
    expect(T.cat([cl, cl], 1).stride()).toEqual([16, 1, 8, 4]);
    expectTensor(
      T.stack([arange(4).view(2, 2), arange(4, 8).view(2, 2).t()], -1),
      [
        [
          [0, 4],
          [1, 6],
        ],
        [
          [2, 5],
          [3, 7],
        ],
      ],
      [4, 2, 1],
    );
    expectTensor(T.stack([t(1), t(2.5)]), [1, 2.5], [1], 'float32');
  });
  it('raises like PyTorch', () => {
    const a = arange(6).view(2, 3);
    expectCode(() => T.cat([], 0), 'E_INVALID_ARGUMENT', 'torch.cat(): expected a non-empty list of Tensors');
    expectCode(
      () => T.cat([t(1), t(2)]),
      'E_SHAPE_MISMATCH',
      'zero-dimensional tensor (at position 0) cannot be concatenated',
    );
    expectCode(
      () => T.cat([a, t([1, 2])]),
      'E_SHAPE_MISMATCH',
      'Tensors must have same number of dimensions: got 2 and 1',
    );
    expectCode(
      () => T.cat([a, T.zeros(2, 4)]),
      'E_SHAPE_MISMATCH',
      'Sizes of tensors must match except in dimension 0. Expected size 3 but got size 4 for tensor number 1 in the list.',
    );
    expectCode(() => T.cat([a, a], 2), 'E_DIM_OUT_OF_RANGE');
    expectCode(
      () => T.cat([a, a.float()], { out: T.empty([0], { dtype: 'int64' }) }),
      'E_RESULT_TYPE',
      "torch.cat(): input types can't be cast to the desired output type Long",
    );
    expectCode(
      () => T.stack([a, a.t()]),
      'E_SHAPE_MISMATCH',
      'stack expects each tensor to be equal size, but got [2, 3] at entry 0 and [3, 2] at entry 1',
    );
    expectCode(() => T.stack([]), 'E_INVALID_ARGUMENT', 'stack expects a non-empty TensorList');
    expectCode(() => T.stack([a, a], 3), 'E_DIM_OUT_OF_RANGE');
  });
  it('writes into out= and works on meta', () => {
    const out = T.empty([0], { dtype: 'float64' });
    T.cat([arange(2), arange(2)], { out });
    expectTensor(out, [0, 1, 0, 1], [1], 'float64');
    expectMeta(T.cat([meta(arange(6).view(2, 3)), meta(T.zeros(2, 1))], -1), [2, 4], [4, 1], 'float32');
    expectMeta(T.stack([meta(T.zeros(2, 3)), meta(T.zeros(2, 3))], 1), [2, 2, 3], [6, 3, 1], 'float32');
  });
});

describe('flip / roll / tril / triu', () => {
  it('flips sliced and transposed inputs, keeping a dense layout', () => {
    expectTensor(
      T.flip(T.getitem(arange(24).view(2, 3, 4), ':, ::2, 1:'), [0, -1]),
      [
        [
          [15, 14, 13],
          [23, 22, 21],
        ],
        [
          [3, 2, 1],
          [11, 10, 9],
        ],
      ],
      [6, 3, 1],
    );
    expectTensor(
      T.flip(arange(6).view(2, 3).t(), [0]),
      [
        [2, 5],
        [1, 4],
        [0, 3],
      ],
      [1, 3],
    );
    expectTensor(T.flip(t(3), [0]), 3);
    expectCode(
      () => T.flip(arange(6).view(2, 3), [1, -1]),
      'E_INVALID_ARGUMENT',
      'dim 1 appears multiple times in the list of dims',
    );
    expectMeta(T.flip(meta(T.zeros(2, 3).t()), [0]), [3, 2], [1, 3], 'float32');
  });
  it('rolls along dims and flattened', () => {
    expectTensor(
      T.roll(arange(12).view(3, 4).t(), [1, -2], [0, 1]),
      [
        [11, 3, 7],
        [8, 0, 4],
        [9, 1, 5],
        [10, 2, 6],
      ],
      [3, 1],
    );
    expectTensor(
      T.roll(arange(12).view(3, 4).slice(1, 0, null, 2), 3),
      [
        [6, 8],
        [10, 0],
        [2, 4],
      ],
      [2, 1],
    );
    expectTensor(T.roll(arange(6).view(2, 3), 7, 1), [
      [2, 0, 1],
      [5, 3, 4],
    ]);
    expectCode(
      () => T.roll(arange(6), [1, 2], [0]),
      'E_INVALID_ARGUMENT',
      'shifts and dimensions must align. shifts: 2, dims:1',
    );
    expectCode(() => T.roll(arange(6), [], []), 'E_INVALID_ARGUMENT', '`shifts` required');
    expectCode(
      () => T.roll(t(3), 1, 0),
      'E_DIM_OUT_OF_RANGE',
      'Dimension specified as 0 but tensor has no dimensions',
    );
    expectMeta(T.roll(meta(T.zeros(2, 3).t()), 1, 0), [3, 2], [2, 1], 'float32');
  });
  it('tril / triu on batches of transposed matrices, in place and out=', () => {
    expectTensor(
      T.triu(arange(18).view(2, 3, 3).transpose(1, 2), 1),
      [
        [
          [0, 3, 6],
          [0, 0, 7],
          [0, 0, 0],
        ],
        [
          [0, 12, 15],
          [0, 0, 16],
          [0, 0, 0],
        ],
      ],
      [9, 3, 1],
    );
    expectTensor(
      T.tril(arange(1, 13).view(3, 4), -1),
      [
        [0, 0, 0, 0],
        [5, 0, 0, 0],
        [9, 10, 0, 0],
      ],
      [4, 1],
    );
    const c = t([
      [T.complex(1, 1), T.complex(2)],
      [T.complex(3), T.complex(4, -1)],
    ]);
    expect(c.tril_().tolist()).toEqual([
      [
        [1, 1],
        [0, 0],
      ],
      [
        [3, 0],
        [4, -1],
      ],
    ]);
    expectCode(() => T.tril(t([1, 2])), 'E_DIM_OUT_OF_RANGE');
    expectCode(
      () => T.tril(T.ones(2, 2), { out: T.empty([0], { dtype: 'float64' }) }),
      'E_RESULT_TYPE',
      'Expected out tensor to have dtype float, but got double instead',
    );
    expectMeta(T.triu(meta(T.zeros(2, 3, 4).transpose(0, 2))), [4, 3, 2], [6, 2, 1], 'float32');
  });
});

describe('gather / scatter / index_select / masked_fill', () => {
  it('gather reads transposed self with a negative dim', () => {
    expectTensor(
      T.gather(
        fl(12).view(3, 4).t(),
        -1,
        t([
          [2, 0, 1],
          [1, 1, 0],
        ]),
      ),
      [
        [8, 0, 4],
        [5, 5, 1],
      ],
      [3, 1],
    );
    expectTensor(T.gather(t([5.5, 6.5]), 0, t(1)), 6.5);
    expectCode(
      () => T.gather(fl(6).view(2, 3), 1, t([[0, 5]])),
      'E_INDEX_OUT_OF_RANGE',
      'index 5 is out of bounds for dimension 1 with size 3',
    );
    expectCode(
      () => T.gather(fl(6).view(2, 3), 1, t([[0, -1]])),
      'E_INDEX_OUT_OF_RANGE',
      'index -1 is out of bounds',
    );
    expectCode(
      () => T.gather(fl(6).view(2, 3), 1, t([[0]], { dtype: 'int32' })),
      'E_DTYPE_UNSUPPORTED',
      'gather(): Expected dtype int64 for index',
    );
    expectCode(
      () => T.gather(fl(6).view(2, 3), 1, t([0, 1])),
      'E_SHAPE_MISMATCH',
      'Index tensor must have the same number of dimensions as input tensor',
    );
    expectCode(
      () => T.gather(fl(6).view(2, 3), 1, t([[0], [1], [0]])),
      'E_SHAPE_MISMATCH',
      'Size does not match at dimension 0 expected index [3, 1] to be smaller than self [2, 3] apart from dimension 1',
    );
    expectMeta(T.gather(meta(fl(6).view(2, 3)), 1, meta(t([[0], [1]]))), [2, 1], [1, 1], 'float32');
  });
  it('scatter src / value / reduce, in place on a transposed self', () => {
    expectTensor(
      T.zeros(3, 4).scatter(0, t([[0, 1, 2, 0]]), fl(8).view(2, 4).add(1)),
      [
        [1, 0, 0, 4],
        [0, 2, 0, 0],
        [0, 0, 3, 0],
      ],
      [4, 1],
    );
    expectTensor(T.zeros([3, 4], { dtype: 'int32' }).scatter(1, t([[0], [3]]), 2.5), [
      [2, 0, 0, 0],
      [0, 0, 0, 2],
      [0, 0, 0, 0],
    ]);
    expectTensor(
      T.full([2, 3], 2.5).scatter(
        1,
        t([
          [0, 0, 2],
          [1, 1, 1],
        ]),
        fl(6).view(2, 3).add(1),
        { reduce: 'multiply' },
      ),
      [
        [5, 2.5, 7.5],
        [2.5, 300, 2.5],
      ],
    );
    expectTensor(
      T.ones([2], { dtype: 'float16' }).scatter(0, t([1, 1]), t([0.1, 0.2], { dtype: 'float16' }), {
        reduce: 'add',
      }),
      [1, 1.2998046875],
    );
    expect(
      T.ones([2], { dtype: 'int64' })
        .scatter(0, t([1, 1]), t([2n ** 62n, 5n]), { reduce: 'add' })
        .tolist(),
    ).toEqual([1n, 2n ** 62n + 6n]);
    const s = T.zeros(4, 3).t();
    s.scatter_(1, t([[3], [0], [1]]), 7.5);
    expectTensor(
      s,
      [
        [0, 0, 0, 7.5],
        [7.5, 0, 0, 0],
        [0, 7.5, 0, 0],
      ],
      [1, 3],
    );
    expect(
      T.zeros([2], { dtype: 'complex64' })
        .scatter(0, t([1]), t([T.complex(1, 2)]))
        .tolist(),
    ).toEqual([
      [0, 0],
      [1, 2],
    ]);
  });
  it('scatter raises like PyTorch', () => {
    const src = fl(8).view(2, 4);
    expectCode(
      () => T.zeros(3, 4).scatter(0, t([[0, 1, 3, 0]]), src),
      'E_INDEX_OUT_OF_RANGE',
      'index 3 is out of bounds for dimension 0 with size 3',
    );
    expectCode(
      () => T.zeros(3, 4).scatter(0, t([[0]]), arange(8).view(2, 4)),
      'E_DTYPE_UNSUPPORTED',
      'scatter(): Expected self.dtype to be equal to src.dtype',
    );
    expectCode(
      () => T.zeros(3, 4).scatter(0, t([[0]], { dtype: 'int32' }), src),
      'E_DTYPE_UNSUPPORTED',
      'scatter(): Expected dtype int64 for index',
    );
    expectCode(
      () => T.zeros(3, 4).scatter(0, t([[0, 1, 2, 0, 0]]), src),
      'E_SHAPE_MISMATCH',
      'Expected index [1, 5] to be smaller than self [3, 4] apart from dimension 0 and to be smaller size than src [2, 4]',
    );
    expectCode(
      () => T.zeros(3, 4).scatter(0, t([[0]]), src, { reduce: 'max' }),
      'E_INVALID_ARGUMENT',
      'reduce argument must be either add or multiply.',
    );
    expectCode(
      () => T.zeros([2], { dtype: 'int64' }).scatter(0, t([1]), T.complex(1, 2)),
      'E_INVALID_ARGUMENT',
      'value cannot be converted to type int64_t without overflow',
    );
    expectMeta(meta(T.zeros(4, 3)).scatter(1, meta(t([[2], [0], [1]])), 7.5), [4, 3], [3, 1], 'float32');
  });
  it('index_select', () => {
    expectTensor(
      T.index_select(arange(12).view(3, 4).t(), 1, t([2, 0, 2], { dtype: 'int32' })),
      [
        [8, 0, 8],
        [9, 1, 9],
        [10, 2, 10],
        [11, 3, 11],
      ],
      [3, 1],
    );
    expectTensor(T.index_select(t(5.5), 0, t([0])), 5.5);
    expectCode(
      () => T.index_select(fl(6).view(2, 3), 0, t([2])),
      'E_INDEX_OUT_OF_RANGE',
      'index out of range in self',
    );
    expectCode(
      () => T.index_select(fl(6).view(2, 3), 0, t([1.5])),
      'E_DTYPE_UNSUPPORTED',
      'index_select(): Expected dtype int32 or int64 for index',
    );
    expectCode(
      () => T.index_select(fl(6).view(2, 3), 0, t([[1]])),
      'E_SHAPE_MISMATCH',
      'index_select(): Index is supposed to be a vector',
    );
    expectCode(
      () => T.index_select(fl(6), 0, t([1]), { out: T.empty([0], { dtype: 'float64' }) }),
      'E_RESULT_TYPE',
      'index_select(): self and result must have the same scalar type',
    );
    expectMeta(T.index_select(meta(fl(6).view(2, 3)), 1, meta(t([0, 0, 1, 2]))), [2, 4], [4, 1], 'float32');
  });
  it('masked_fill broadcasts mask, converts the value, refuses non-bool masks', () => {
    expectTensor(
      fl(6)
        .view(2, 3)
        .t()
        .masked_fill(t([true, false]), -1.5),
      [
        [-1.5, 3],
        [-1.5, 4],
        [-1.5, 5],
      ],
      [2, 1],
    );
    expectTensor(
      t([1.5, 2, 3]).masked_fill(t([[true], [false]]), 0),
      [
        [0, 0, 0],
        [1.5, 2, 3],
      ],
      [3, 1],
    );
    expectTensor(arange(3).masked_fill(t([true, false, true]), 2.7), [2, 1, 2], [1], 'int64');
    expectTensor(
      T.zeros([3], { dtype: 'float16' }).masked_fill(t([true, false, true]), 0.1),
      [0.0999755859375, 0, 0.0999755859375],
    );
    expectTensor(fl(3).masked_fill(t([true, false, true]), t(9)), [9, 1, 9]);
    expect(
      T.zeros([2], { dtype: 'int64' })
        .masked_fill(t([true, false]), 2n ** 62n + 1n)
        .tolist(),
    ).toEqual([2n ** 62n + 1n, 0n]);
    expectCode(
      () => t([1.5, 2, 3]).masked_fill_(t([[true], [false]]), 0),
      'E_INPLACE_BROADCAST',
      "output with shape [3] doesn't match the broadcast shape [2, 3]",
    );
    expectCode(
      () => fl(3).masked_fill(t([1.5, 0, 1]), 0),
      'E_DTYPE_UNSUPPORTED',
      'masked_fill_ only supports boolean masks',
    );
    expectCode(
      () => fl(3).masked_fill(t([true, false, true]), t([9])),
      'E_INVALID_ARGUMENT',
      'only supports a 0-dimensional value tensor, but got tensor with 1 dimension(s).',
    );
    expectCode(
      () => T.zeros([3], { dtype: 'int8' }).masked_fill(t([true, false, true]), 300),
      'E_INVALID_ARGUMENT',
      'value cannot be converted to type int8_t without overflow',
    );
    expectMeta(meta(fl(3)).masked_fill(meta(t([[true], [false]])), 1), [2, 3], [3, 1], 'float32');
  });
});

describe('mm / bmm / mv / dot / matmul', () => {
  it('mm reads strided operands; ints wrap, int64 is exact, complex and bfloat16 work', () => {
    expectTensor(
      T.mm(fl(12).view(3, 4).t(), fl(6).view(3, 2).div(4)),
      [
        [10, 13],
        [11.5, 15.25],
        [13, 17.5],
        [14.5, 19.75],
      ],
      [2, 1],
    );
    expectTensor(
      T.mm(arange(6, { dtype: 'int8' }).view(2, 3).mul(20), arange(12, { dtype: 'int8' }).view(3, 4)),
      [
        [-112, -52, 8, 68],
        [96, 80, 64, 48],
      ],
      [4, 1],
      'int8',
    );
    const big = T.mm(
      t([
        [2n ** 40n, 1n],
        [3n, -(2n ** 50n)],
      ]),
      t([
        [2n ** 20n, 5n],
        [3n, 2n ** 13n],
      ]),
    );
    expect(big.tolist()).toEqual([
      [1152921504606846979n, 5497558147072n],
      [-3377699717382144n, -9223372036854775793n],
    ]);
    expect(
      T.mm(t([[T.complex(1, 2), T.complex(3, -1)]]), t([[T.complex(0, 2)], [T.complex(1, 1)]])).tolist(),
    ).toEqual([[[0, 4]]]);
    // PyTorch 1.13 accumulates bfloat16 gemm in bfloat16 ([[0.953125, 1.09375, 1.234375, 1.3828125], ...]); we
    // accumulate in float64 and round once, so allow a bfloat16 ulp.
    expectClose(
      T.mm(fl(6).view(2, 3).to('bfloat16').div(3), fl(12).view(3, 4).to('bfloat16').div(7)),
      [
        [0.953125, 1.09375, 1.234375, 1.3828125],
        [2.65625, 3.234375, 3.796875, 4.375],
      ],
      1.6e-2,
    );
    const x = T.linspace(-1, 1, 35).view(5, 7);
    const y = T.linspace(-2, 3, 28).view(7, 4);
    expectClose(
      T.mm(x, y),
      [
        [-0.06100201606750488, -1.1285403966903687, -2.196078300476074, -3.2636160850524902],
        [0.5795206427574158, 0.045751333236694336, -0.48801761865615845, -1.0217866897583008],
        [1.220043659210205, 1.220043659210205, 1.220043659210205, 1.220043659210205],
        [1.86056649684906, 2.3943357467651367, 2.9281046390533447, 3.4618735313415527],
        [2.501089572906494, 3.568627119064331, 4.636165142059326, 5.7037034034729],
      ],
      1e-5,
    );
    expectTensor(T.mm(T.zeros(2, 0), T.zeros(0, 3)), [
      [0, 0, 0],
      [0, 0, 0],
    ]);
  });
  it('bmm / mv / dot / matmul dispatch, broadcast batches and 1-D operands', () => {
    expectTensor(
      T.bmm(fl(6).view(1, 2, 3).expand(2, 2, 3), fl(12).view(2, 3, 2)),
      [
        [
          [10, 13],
          [28, 40],
        ],
        [
          [28, 31],
          [100, 112],
        ],
      ],
      [4, 2, 1],
    );
    expectTensor(callOp('mv', [fl(6).view(2, 3), t([1.5, 2, 3])]) as T.Tensor, [8, 27.5]);
    expectTensor(T.dot(fl(10).slice(0, 0, null, 3), fl(4)), 42);
    // Debian's PyTorch build returns 0 here (its BLAS cdotu is broken); its mm of the same vectors gives 4+0j.
    expect(
      T.dot(t([T.complex(1, 1), T.complex(2, -3)]), t([T.complex(0, 1), T.complex(1, 1)])).tolist(),
    ).toEqual([4, 0]);
    expectTensor(
      T.matmul(fl(6).view(2, 1, 1, 3), fl(18).view(3, 3, 2)),
      [
        [[[10, 13]], [[28, 31]], [[46, 49]]],
        [[[28, 40]], [[100, 112]], [[172, 184]]],
      ],
      [6, 2, 2, 1],
    );
    expectTensor(
      T.matmul(t([1, -1, 2]).float(), fl(24).view(2, 3, 4)),
      [
        [12, 14, 16, 18],
        [36, 38, 40, 42],
      ],
      [4, 1],
    );
    expectTensor(
      T.matmul(fl(24).view(2, 4, 3).transpose(1, 2), t([1, 0, -1, 2]).float()),
      [
        [12, 14, 16],
        [36, 38, 40],
      ],
      [3, 1],
    );
    expectTensor(T.matmul(t([1.5, 2]), fl(6).view(2, 3)), [6, 9.5, 13], [1]);
    expectTensor(T.matmul(t([1.5, 2, 3]), t([4.5, 5, 6])), 34.75);
    const out = T.empty([0]);
    T.matmul(fl(6).view(2, 3), fl(3), { out });
    expectTensor(out, [5, 14], [1]);
  });
  it('raises like PyTorch, following the path matmul takes', () => {
    const A = fl(6).view(2, 3);
    expectCode(
      () => T.mm(A, T.zeros(4, 5)),
      'E_SHAPE_MISMATCH',
      'mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)',
    );
    expectCode(
      () => T.mm(A, A.double().t()),
      'E_DTYPE_UNSUPPORTED',
      'expected scalar type Float but found Double',
    );
    expectCode(() => T.mm(A, t([1.5, 2, 3])), 'E_SHAPE_MISMATCH', 'mat2 must be a matrix');
    expectCode(
      () => T.mm(A.bool(), A.bool().t()),
      'E_DTYPE_UNSUPPORTED',
      `"addmm_impl_cpu_" not implemented for 'Bool'`,
    );
    expectCode(
      () => T.mm(A.half(), A.half().t()),
      'E_DTYPE_UNSUPPORTED',
      `"addmm_impl_cpu_" not implemented for 'Half'`,
    );
    expectCode(
      () => T.mm(A, A.t(), { out: T.empty([0], { dtype: 'float64' }) }),
      'E_RESULT_TYPE',
      'Expected out tensor to have dtype float, but got double instead',
    );
    expectCode(
      () => T.bmm(T.zeros(2, 2, 3), T.zeros(3, 3, 2)),
      'E_SHAPE_MISMATCH',
      'Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [3, 3].',
    );
    expectCode(() => T.bmm(A, A), 'E_SHAPE_MISMATCH', 'batch1 must be a 3D tensor');
    expectCode(
      () => T.dot(t([1.5, 2]), t([1.5, 2]).double()),
      'E_DTYPE_UNSUPPORTED',
      'dot : expected both vectors to have same dtype, but found Float and Double',
    );
    expectCode(
      () => T.dot(t([1.5, 2]), t([1.5, 2, 3])),
      'E_SHAPE_MISMATCH',
      'inconsistent tensor size, expected tensor [2] and src [3] to have the same number of elements, but got 2 and 3 elements respectively',
    );
    expectCode(() => T.dot(t([true]), t([true])), 'E_DTYPE_UNSUPPORTED', `"dot" not implemented for 'Bool'`);
    expectCode(
      () => callOp('mv', [A, A]),
      'E_SHAPE_MISMATCH',
      'vector + matrix @ vector expected, got 1, 2, 2',
    );
    expectCode(
      () => T.matmul(t(1.5), A),
      'E_SHAPE_MISMATCH',
      'both arguments to matmul need to be at least 1D, but they are 0D and 2D',
    );
    expectCode(
      () => T.matmul(t([1.5, 2, 3]), A),
      'E_SHAPE_MISMATCH',
      'mat1 and mat2 shapes cannot be multiplied (1x3 and 2x3)',
    );
    expectCode(() => T.matmul(A, t([1.5, 2])), 'E_SHAPE_MISMATCH', 'size mismatch, got 2, 2x3,2');
    expectCode(
      () => T.matmul(T.zeros(3, 4), T.zeros(2, 5, 6)),
      'E_SHAPE_MISMATCH',
      'mat1 and mat2 shapes cannot be multiplied (12x5 and 4x3)',
    );
    expectCode(
      () => T.matmul(T.zeros(4), T.zeros(7, 2, 5, 6)),
      'E_SHAPE_MISMATCH',
      'size mismatch, got 84, 84x5,4',
    );
    expectCode(
      () => T.matmul(T.zeros(3, 2, 3, 4), T.zeros(2, 5, 6)),
      'E_SHAPE_MISMATCH',
      'Expected size for first two dimensions of batch2 tensor to be: [6, 4] but got: [6, 5].',
    );
    expectCode(
      () => T.matmul(T.zeros(2, 2, 3), T.zeros(3, 3, 2)),
      'E_SHAPE_MISMATCH',
      'The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0',
    );
    expectCode(
      () => T.matmul(T.zeros(3, 4), T.zeros(2, 4, 6).double()),
      'E_DTYPE_UNSUPPORTED',
      'expected scalar type Double but found Float',
    );
  });
  it('works on meta', () => {
    expectMeta(T.mm(meta(T.zeros(2, 3)), meta(T.zeros(3, 4))), [2, 4], [4, 1], 'float32');
    expectMeta(T.bmm(meta(T.zeros(5, 2, 3)), meta(T.zeros(5, 3, 4))), [5, 2, 4], [8, 4, 1], 'float32');
    expectMeta(T.dot(meta(T.zeros(3)), meta(T.zeros(3))), [], [], 'float32');
    expectMeta(
      T.matmul(meta(T.zeros(3, 4)), meta(T.zeros(6, 2, 4, 5))),
      [6, 2, 3, 5],
      [30, 15, 5, 1],
      'float32',
    );
    expectMeta(T.matmul(meta(T.zeros(5, 2, 3, 4)), meta(T.zeros(4))), [5, 2, 3], [6, 3, 1], 'float32');
  });
});

describe('sort / topk', () => {
  it('sorts NaN as largest, stably, along any dim of a transposed input (keeping its layout)', () => {
    const [v, i] = T.sort(
      t([
        [3, Number.NaN, 1],
        [2, 2, -1],
      ]).t(),
      0,
      true,
    );
    expectTensor(
      v,
      [
        ['NaN', 2],
        [3, 2],
        [1, -1],
      ],
      [1, 3],
    );
    expectTensor(
      i,
      [
        [1, 0],
        [0, 1],
        [2, 2],
      ],
      [1, 3],
      'int64',
    );
    const [sv, si] = T.sort(t([2, 1, 2, 1, 0, 2]), { stable: true });
    expectTensor(sv, [0, 1, 1, 2, 2, 2]);
    expectTensor(si, [4, 1, 3, 0, 2, 5]);
    const [bv, bi] = T.sort(t([2n ** 62n + 1n, -(2n ** 62n), 2n ** 62n, 7n]), { descending: true });
    expect(bv.tolist()).toEqual([2n ** 62n + 1n, 2n ** 62n, 7n, -(2n ** 62n)]);
    expectTensor(bi, [0, 2, 3, 1]);
    expectTensor(T.sort(t([0.5, -1.25, 3, 0.1], { dtype: 'bfloat16' }))[0], [-1.25, 0.10009765625, 0.5, 3]);
    expectTensor(T.sort(t([true, false, true]))[1], [1, 0, 2]);
    expectTensor(T.sort(t(3.5))[1], 0);
    expect(T.sort(T.zeros(2, 3, 8).slice(2, 0, null, 2), 1)[0].stride()).toEqual([12, 4, 1]);
  });
  it('topk picks the largest or smallest k along a dim of a sliced input', () => {
    const [v, i] = T.topk(T.getitem(fl(24).view(4, 6), ':, ::2').mul(t([1, -1, 2]).float()), 2, -1);
    expectTensor(
      v,
      [
        [8, 0],
        [20, 6],
        [32, 12],
        [44, 18],
      ],
      [2, 1],
    );
    expectTensor(
      i,
      [
        [2, 0],
        [2, 0],
        [2, 0],
        [2, 0],
      ],
      [2, 1],
    );
    const [sv, si] = T.topk(t([3, Number.NaN, 1, 5, -2]), 2, { largest: false });
    expectTensor(sv, [-2, 1]);
    expectTensor(si, [4, 2]);
    expectTensor(T.topk(t([3, Number.NaN, 1]), 1)[0], ['NaN']);
    expectTensor(T.topk(fl(3), 0)[0], [], [1]);
  });
  it('raises like PyTorch and works on meta', () => {
    expectCode(
      () => T.sort(t([T.complex(0, 1)])),
      'E_DTYPE_UNSUPPORTED',
      `"sorting_kernel_method_name" not implemented for 'ComplexFloat'`,
    );
    expectCode(() => T.sort(t([1, 2]), 1), 'E_DIM_OUT_OF_RANGE');
    expectCode(() => T.topk(fl(3), 4), 'E_INVALID_ARGUMENT', 'selected index k out of range');
    expectCode(() => T.topk(fl(3), -1), 'E_INVALID_ARGUMENT', 'selected index k out of range');
    expectCode(() => T.topk(t([true]), 1), 'E_DTYPE_UNSUPPORTED', `"topk_cpu" not implemented for 'Bool'`);
    const [mv, mi] = T.sort(meta(T.zeros(2, 3, 4).transpose(0, 2)), 1);
    expectMeta(mv, [4, 3, 2], [1, 4, 12], 'float32');
    expectMeta(mi, [4, 3, 2], [1, 4, 12], 'int64');
    expectMeta(T.topk(meta(T.zeros(2, 3, 4)), 2, 1)[1], [2, 2, 4], [8, 4, 1], 'int64');
  });
});
