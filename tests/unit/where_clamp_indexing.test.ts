/**
 * Selecting and bounding values: where / clamp, gather / scatter / index_select / masked_fill (promotion,
 * broadcasting, strided inputs, meta, errors). Expected values, strides and messages were computed once with
 * PyTorch 1.13 (Debian python3-torch) and pasted here as literals; the tests never run PyTorch.
 */
import { describe, expect, it } from 'vitest';
import * as T from '../../src/runtime/index.ts';
import { expectCode, expectMeta, expectTensor, fl, meta } from './tensor_expect_helpers.ts';

const { tensor: t, arange } = { ...T, ...T.torch };

describe('where', () => {
  it('promotes self/other, broadcasts, reads transposed inputs, keeps their layout', () => {
    const c = t([
      [true, false, true],
      [false, true, false],
    ]).t();
    expectTensor(
      T.torch.where(c, fl(6).view(2, 3).t(), t([10, 20])),
      [
        [0, 20],
        [10, 4],
        [2, 20],
      ],
      [1, 3],
      'float32',
    );
    expectTensor(T.torch.where(t([true, false, true]), 1, 2), [1, 2, 1], [1], 'int64');
    expectTensor(T.torch.where(t([true, false]).to('uint8'), t([1, 2]), t([4, 5])), [1, 5]);
    expectTensor(
      T.torch.where(t([true, false]), t([T.complex(1, 2), T.complex(2)]), t([4, 5.5])),
      [
        [1, 2],
        [5.5, 0],
      ],
      [1],
      'complex64',
    );
  });
  it('Tensor.where: the receiver is the value where the condition holds (x.where(c, y) is torch.where(c, x, y))', () => {
    const c = t([true, false, true]);
    expectTensor(t([1, 2, 3]).where(c, t([10, 20, 30])), [1, 20, 3], [1], 'int64');
    expectTensor(fl(3).where(c, 7.5), [0, 7.5, 2], [1], 'float32');
    expectTensor(
      fl(3).where(t([[true], [false]]), t([5])),
      [
        [0, 1, 2],
        [5, 5, 5],
      ],
      [3, 1],
      'float32',
    );
  });
  it('refuses non-bool conditions and works on meta', () => {
    expectCode(
      () => T.torch.where(t([1.5]), t([1]), t([2])),
      'E_DTYPE_UNSUPPORTED',
      'where expected condition to be a boolean tensor, but got a tensor with dtype Float',
    );
    expectMeta(T.torch.where(meta(t([[true], [false]])), meta(fl(3)), 0), [2, 3], [3, 1], 'float32');
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
    expectTensor(T.torch.clamp(t([1.5, 2]), t([Number.NaN, 0]), t([3.5, 3.5])), ['NaN', 2]);
  });
  it('clamp.Tensor broadcasts all three operands', () => {
    // 0-dim tensor bounds promote as tensors (clamp.Tensor) unless mixed with a Python number (clamp).
    expect(T.torch.clamp(t([1, 5]), t(2.5, { dtype: 'float64' })).dtype).toBe('float64');
    expect(T.torch.clamp(t([1, 5]), t(2.5, { dtype: 'float64' }), 3).dtype).toBe('float32');
    expectTensor(
      T.torch.clamp(arange(6).view(2, 3), t([1, 2, 3]), t([[2], [4]])),
      [
        [1, 2, 2],
        [3, 4, 4],
      ],
      [3, 1],
      'int64',
    );
    expectTensor(T.torch.clamp(t([true, false]), { min: t([false, true]) }), [true, true], [1], 'bool');
    expectTensor(
      T.torch.clamp(t([1, 5]), t([2]), { out: T.torch.empty([0], { dtype: 'float64' }) }),
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
    expectCode(() => T.torch.clamp(t([1.5]), { min: null, max: null }), 'E_INVALID_ARGUMENT');
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
      () => T.torch.clamp(t([1, 5]), 2, { out: T.torch.empty([0], { dtype: 'float64' }) }),
      'E_RESULT_TYPE',
      'Found dtype Double but expected Long',
    );
  });
  it('works on meta', () => {
    expectMeta(T.torch.clamp(meta(t([1, 2])), 2.5), [2], [1], 'float32');
    expectMeta(T.torch.clamp(meta(fl(6).view(2, 3).t()), meta(t([1.5, 2]))), [3, 2], [1, 3], 'float32');
  });
});

describe('gather / scatter / index_select / masked_fill', () => {
  it('gather reads transposed self with a negative dim', () => {
    expectTensor(
      T.torch.gather(
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
    expectTensor(T.torch.gather(t([5.5, 6.5]), 0, t(1)), 6.5);
    expectCode(
      () => T.torch.gather(fl(6).view(2, 3), 1, t([[0, 5]])),
      'E_INDEX_OUT_OF_RANGE',
      'index 5 is out of bounds for dimension 1 with size 3',
    );
    expectCode(
      () => T.torch.gather(fl(6).view(2, 3), 1, t([[0, -1]])),
      'E_INDEX_OUT_OF_RANGE',
      'index -1 is out of bounds',
    );
    expectCode(
      () => T.torch.gather(fl(6).view(2, 3), 1, t([[0]], { dtype: 'int32' })),
      'E_DTYPE_UNSUPPORTED',
      'gather(): Expected dtype int64 for index',
    );
    expectCode(
      () => T.torch.gather(fl(6).view(2, 3), 1, t([0, 1])),
      'E_SHAPE_MISMATCH',
      'Index tensor must have the same number of dimensions as input tensor',
    );
    expectCode(
      () => T.torch.gather(fl(6).view(2, 3), 1, t([[0], [1], [0]])),
      'E_SHAPE_MISMATCH',
      'Size does not match at dimension 0 expected index [3, 1] to be smaller than self [2, 3] apart from dimension 1',
    );
    expectMeta(T.torch.gather(meta(fl(6).view(2, 3)), 1, meta(t([[0], [1]]))), [2, 1], [1, 1], 'float32');
  });
  it('scatter src / value / reduce, in place on a transposed self', () => {
    expectTensor(
      T.torch.zeros(3, 4).scatter(0, t([[0, 1, 2, 0]]), fl(8).view(2, 4).add(1)),
      [
        [1, 0, 0, 4],
        [0, 2, 0, 0],
        [0, 0, 3, 0],
      ],
      [4, 1],
    );
    expectTensor(T.torch.zeros([3, 4], { dtype: 'int32' }).scatter(1, t([[0], [3]]), 2.5), [
      [2, 0, 0, 0],
      [0, 0, 0, 2],
      [0, 0, 0, 0],
    ]);
    expectTensor(
      T.torch.full([2, 3], 2.5).scatter(
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
      T.torch.ones([2], { dtype: 'float16' }).scatter(0, t([1, 1]), t([0.1, 0.2], { dtype: 'float16' }), {
        reduce: 'add',
      }),
      [1, 1.2998046875],
    );
    expect(
      T.torch
        .ones([2], { dtype: 'int64' })
        .scatter(0, t([1, 1]), t([2n ** 62n, 5n]), { reduce: 'add' })
        .tolist(),
    ).toEqual([1n, 2n ** 62n + 6n]);
    const s = T.torch.zeros(4, 3).t();
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
      T.torch
        .zeros([2], { dtype: 'complex64' })
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
      () => T.torch.zeros(3, 4).scatter(0, t([[0, 1, 3, 0]]), src),
      'E_INDEX_OUT_OF_RANGE',
      'index 3 is out of bounds for dimension 0 with size 3',
    );
    expectCode(
      () => T.torch.zeros(3, 4).scatter(0, t([[0]]), arange(8).view(2, 4)),
      'E_DTYPE_UNSUPPORTED',
      'scatter(): Expected self.dtype to be equal to src.dtype',
    );
    expectCode(
      () => T.torch.zeros(3, 4).scatter(0, t([[0]], { dtype: 'int32' }), src),
      'E_DTYPE_UNSUPPORTED',
      'scatter(): Expected dtype int64 for index',
    );
    expectCode(
      () => T.torch.zeros(3, 4).scatter(0, t([[0, 1, 2, 0, 0]]), src),
      'E_SHAPE_MISMATCH',
      'Expected index [1, 5] to be smaller than self [3, 4] apart from dimension 0 and to be smaller size than src [2, 4]',
    );
    expectCode(
      () => T.torch.zeros(3, 4).scatter(0, t([[0]]), src, { reduce: 'max' }),
      'E_INVALID_ARGUMENT',
      'reduce argument must be either add or multiply.',
    );
    expectCode(
      () => T.torch.zeros([2], { dtype: 'int64' }).scatter(0, t([1]), T.complex(1, 2)),
      'E_INVALID_ARGUMENT',
      'value cannot be converted to type int64_t without overflow',
    );
    expectMeta(
      meta(T.torch.zeros(4, 3)).scatter(1, meta(t([[2], [0], [1]])), 7.5),
      [4, 3],
      [3, 1],
      'float32',
    );
  });
  it('index_select', () => {
    expectTensor(
      T.torch.index_select(arange(12).view(3, 4).t(), 1, t([2, 0, 2], { dtype: 'int32' })),
      [
        [8, 0, 8],
        [9, 1, 9],
        [10, 2, 10],
        [11, 3, 11],
      ],
      [3, 1],
    );
    expectTensor(T.torch.index_select(t(5.5), 0, t([0])), 5.5);
    expectCode(
      () => T.torch.index_select(fl(6).view(2, 3), 0, t([2])),
      'E_INDEX_OUT_OF_RANGE',
      'index out of range in self',
    );
    expectCode(
      () => T.torch.index_select(fl(6).view(2, 3), 0, t([1.5])),
      'E_DTYPE_UNSUPPORTED',
      'index_select(): Expected dtype int32 or int64 for index',
    );
    expectCode(
      () => T.torch.index_select(fl(6).view(2, 3), 0, t([[1]])),
      'E_SHAPE_MISMATCH',
      'index_select(): Index is supposed to be a vector',
    );
    expectCode(
      () => T.torch.index_select(fl(6), 0, t([1]), { out: T.torch.empty([0], { dtype: 'float64' }) }),
      'E_RESULT_TYPE',
      'index_select(): self and result must have the same scalar type',
    );
    expectMeta(
      T.torch.index_select(meta(fl(6).view(2, 3)), 1, meta(t([0, 0, 1, 2]))),
      [2, 4],
      [4, 1],
      'float32',
    );
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
      T.torch.zeros([3], { dtype: 'float16' }).masked_fill(t([true, false, true]), 0.1),
      [0.0999755859375, 0, 0.0999755859375],
    );
    expectTensor(fl(3).masked_fill(t([true, false, true]), t(9)), [9, 1, 9]);
    expect(
      T.torch
        .zeros([2], { dtype: 'int64' })
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
      () => T.torch.zeros([3], { dtype: 'int8' }).masked_fill(t([true, false, true]), 300),
      'E_INVALID_ARGUMENT',
      'value cannot be converted to type int8_t without overflow',
    );
    expectMeta(meta(fl(3)).masked_fill(meta(t([[true], [false]])), 1), [2, 3], [3, 1], 'float32');
  });
});
