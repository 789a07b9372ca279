/**
 * cat / stack / flip / roll / tril / triu: dtype promotion, transposed, expanded and sliced inputs, output
 * layouts, in place and out=, meta, and PyTorch's error messages. Expected values, strides and messages were
 * computed once with PyTorch 1.13 (Debian python3-torch) and pasted here as literals; the tests never run
 * PyTorch.
 */
import { describe, expect, it } from 'vitest';
import * as T from '../../src/runtime/index.ts';
import { expectCode, expectMeta, expectTensor, meta } from './tensor_expect_helpers.ts';

const { tensor: t, arange } = { ...T, ...T.torch };

describe('cat / stack', () => {
  it('promotes dtypes and reads transposed, expanded and sliced inputs', () => {
    const parts = [
      arange(6).view(2, 3).t(),
      T.torch.ones([3, 1], { dtype: 'float64' }),
      arange(3, { dtype: 'int32' }).view(3, 1).expand(3, 2),
    ];
    expectTensor(
      T.torch.cat(parts, 1),
      [
        [0, 3, 1, 0, 0],
        [1, 4, 1, 1, 1],
        [2, 5, 1, 2, 2],
      ],
      [5, 1],
      'float64',
    );
    expectTensor(
      T.torch.cat([T.torch.empty([0]), arange(6).view(2, 3)], 1),
      [
        [0, 1, 2],
        [3, 4, 5],
      ],
      [3, 1],
      'float32',
    );
    expectTensor(T.torch.cat([t([true]), t([2], { dtype: 'uint8' })]), [1, 2], [1], 'uint8');
    expectTensor(
      T.torch.cat([T.torch.empty([0]), T.torch.empty([0], { dtype: 'int32' })], 3),
      [],
      [1],
      'float32',
    );
    const cl = T.torch.empty([1, 2, 2, 2]).contiguous({ memory_format: 'channels_last' });
    expect(T.torch.cat([cl, cl], 1).stride()).toEqual([16, 1, 8, 4]);
    expectTensor(
      T.torch.stack([arange(4).view(2, 2), arange(4, 8).view(2, 2).t()], -1),
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
    expectTensor(T.torch.stack([t(1), t(2.5)]), [1, 2.5], [1], 'float32');
  });
  it('raises like PyTorch', () => {
    const a = arange(6).view(2, 3);
    expectCode(
      () => T.torch.cat([], 0),
      'E_INVALID_ARGUMENT',
      'torch.cat(): expected a non-empty list of Tensors',
    );
    expectCode(
      () => T.torch.cat([t(1), t(2)]),
      'E_SHAPE_MISMATCH',
      'zero-dimensional tensor (at position 0) cannot be concatenated',
    );
    expectCode(
      () => T.torch.cat([a, t([1, 2])]),
      'E_SHAPE_MISMATCH',
      'Tensors must have same number of dimensions: got 2 and 1',
    );
    expectCode(
      () => T.torch.cat([a, T.torch.zeros(2, 4)]),
      'E_SHAPE_MISMATCH',
      'Sizes of tensors must match except in dimension 0. Expected size 3 but got size 4 for tensor number 1 in the list.',
    );
    expectCode(() => T.torch.cat([a, a], 2), 'E_DIM_OUT_OF_RANGE');
    expectCode(
      () => T.torch.cat([a, a.float()], { out: T.torch.empty([0], { dtype: 'int64' }) }),
      'E_RESULT_TYPE',
      "torch.cat(): input types can't be cast to the desired output type Long",
    );
    expectCode(
      () => T.torch.stack([a, a.t()]),
      'E_SHAPE_MISMATCH',
      'stack expects each tensor to be equal size, but got [2, 3] at entry 0 and [3, 2] at entry 1',
    );
    expectCode(() => T.torch.stack([]), 'E_INVALID_ARGUMENT', 'stack expects a non-empty TensorList');
    expectCode(() => T.torch.stack([a, a], 3), 'E_DIM_OUT_OF_RANGE');
  });
  it('writes into out= and works on meta', () => {
    const out = T.torch.empty([0], { dtype: 'float64' });
    T.torch.cat([arange(2), arange(2)], { out });
    expectTensor(out, [0, 1, 0, 1], [1], 'float64');
    expectMeta(
      T.torch.cat([meta(arange(6).view(2, 3)), meta(T.torch.zeros(2, 1))], -1),
      [2, 4],
      [4, 1],
      'float32',
    );
    expectMeta(
      T.torch.stack([meta(T.torch.zeros(2, 3)), meta(T.torch.zeros(2, 3))], 1),
      [2, 2, 3],
      [6, 3, 1],
      'float32',
    );
  });
});

describe('flip / roll / tril / triu', () => {
  it('flips sliced and transposed inputs, keeping a dense layout', () => {
    expectTensor(
      T.torch.flip(T.getitem(arange(24).view(2, 3, 4), ':, ::2, 1:'), [0, -1]),
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
      T.torch.flip(arange(6).view(2, 3).t(), [0]),
      [
        [2, 5],
        [1, 4],
        [0, 3],
      ],
      [1, 3],
    );
    expectTensor(T.torch.flip(t(3), [0]), 3);
    expectCode(
      () => T.torch.flip(arange(6).view(2, 3), [1, -1]),
      'E_INVALID_ARGUMENT',
      'dim 1 appears multiple times in the list of dims',
    );
    expectMeta(T.torch.flip(meta(T.torch.zeros(2, 3).t()), [0]), [3, 2], [1, 3], 'float32');
  });
  it('rolls along dims and flattened', () => {
    expectTensor(
      T.torch.roll(arange(12).view(3, 4).t(), [1, -2], [0, 1]),
      [
        [11, 3, 7],
        [8, 0, 4],
        [9, 1, 5],
        [10, 2, 6],
      ],
      [3, 1],
    );
    expectTensor(
      T.torch.roll(arange(12).view(3, 4).slice(1, 0, null, 2), 3),
      [
        [6, 8],
        [10, 0],
        [2, 4],
      ],
      [2, 1],
    );
    expectTensor(T.torch.roll(arange(6).view(2, 3), 7, 1), [
      [2, 0, 1],
      [5, 3, 4],
    ]);
    expectCode(
      () => T.torch.roll(arange(6), [1, 2], [0]),
      'E_INVALID_ARGUMENT',
      'shifts and dimensions must align. shifts: 2, dims:1',
    );
    expectCode(() => T.torch.roll(arange(6), [], []), 'E_INVALID_ARGUMENT', '`shifts` required');
    expectCode(
      () => T.torch.roll(t(3), 1, 0),
      'E_DIM_OUT_OF_RANGE',
      'Dimension specified as 0 but tensor has no dimensions',
    );
    expectMeta(T.torch.roll(meta(T.torch.zeros(2, 3).t()), 1, 0), [3, 2], [2, 1], 'float32');
  });
  it('tril / triu on batches of transposed matrices, in place and out=', () => {
    expectTensor(
      T.torch.triu(arange(18).view(2, 3, 3).transpose(1, 2), 1),
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
      T.torch.tril(arange(1, 13).view(3, 4), -1),
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
    expectCode(() => T.torch.tril(t([1, 2])), 'E_DIM_OUT_OF_RANGE');
    expectCode(
      () => T.torch.tril(T.torch.ones(2, 2), { out: T.torch.empty([0], { dtype: 'float64' }) }),
      'E_RESULT_TYPE',
      'Expected out tensor to have dtype float, but got double instead',
    );
    expectMeta(T.torch.triu(meta(T.torch.zeros(2, 3, 4).transpose(0, 2))), [4, 3, 2], [6, 2, 1], 'float32');
  });
});
