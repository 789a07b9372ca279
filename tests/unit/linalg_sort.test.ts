/**
 * mm / bmm / mv / dot / matmul and sort / topk: strided operands, integer wrap-around, exact int64, complex
 * and bfloat16, NaN ordering, meta, errors. Expected values, strides and messages were computed once with
 * PyTorch 1.13 (Debian python3-torch) and pasted here as literals; the tests never run PyTorch.
 */
import { describe, expect, it } from 'vitest';
import * as T from '../../src/runtime/index.ts';
import { expectClose, expectCode, expectMeta, expectTensor, fl, meta } from './tensor_expect_helpers.ts';

const { tensor: t, arange, callOp } = { ...T, ...T.torch };

describe('mm / bmm / mv / dot / matmul', () => {
  it('mm reads strided operands; ints wrap, int64 is exact, complex and bfloat16 work', () => {
    expectTensor(
      T.torch.mm(fl(12).view(3, 4).t(), fl(6).view(3, 2).div(4)),
      [
        [10, 13],
        [11.5, 15.25],
        [13, 17.5],
        [14.5, 19.75],
      ],
      [2, 1],
    );
    expectTensor(
      T.torch.mm(arange(6, { dtype: 'int8' }).view(2, 3).mul(20), arange(12, { dtype: 'int8' }).view(3, 4)),
      [
        [-112, -52, 8, 68],
        [96, 80, 64, 48],
      ],
      [4, 1],
      'int8',
    );
    const big = T.torch.mm(
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
      T.torch
        .mm(t([[T.complex(1, 2), T.complex(3, -1)]]), t([[T.complex(0, 2)], [T.complex(1, 1)]]))
        .tolist(),
    ).toEqual([[[0, 4]]]);
    // PyTorch 1.13 accumulates bfloat16 gemm in bfloat16 ([[0.953125, 1.09375, 1.234375, 1.3828125], ...]); we
    // accumulate in float64 and round once, so allow a bfloat16 ulp.
    expectClose(
      T.torch.mm(fl(6).view(2, 3).to('bfloat16').div(3), fl(12).view(3, 4).to('bfloat16').div(7)),
      [
        [0.953125, 1.09375, 1.234375, 1.3828125],
        [2.65625, 3.234375, 3.796875, 4.375],
      ],
      1.6e-2,
    );
    const x = T.torch.linspace(-1, 1, 35).view(5, 7);
    const y = T.torch.linspace(-2, 3, 28).view(7, 4);
    expectClose(
      T.torch.mm(x, y),
      [
        [-0.06100201606750488, -1.1285403966903687, -2.196078300476074, -3.2636160850524902],
        [0.5795206427574158, 0.045751333236694336, -0.48801761865615845, -1.0217866897583008],
        [1.220043659210205, 1.220043659210205, 1.220043659210205, 1.220043659210205],
        [1.86056649684906, 2.3943357467651367, 2.9281046390533447, 3.4618735313415527],
        [2.501089572906494, 3.568627119064331, 4.636165142059326, 5.7037034034729],
      ],
      1e-5,
    );
    expectTensor(T.torch.mm(T.torch.zeros(2, 0), T.torch.zeros(0, 3)), [
      [0, 0, 0],
      [0, 0, 0],
    ]);
  });
  it('bmm / mv / dot / matmul dispatch, broadcast batches and 1-D operands', () => {
    expectTensor(
      T.torch.bmm(fl(6).view(1, 2, 3).expand(2, 2, 3), fl(12).view(2, 3, 2)),
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
    expectTensor(T.torch.dot(fl(10).slice(0, 0, null, 3), fl(4)), 42);
    // Debian's PyTorch build returns 0 here (its BLAS cdotu is broken); its mm of the same vectors gives 4+0j.
    expect(
      T.torch.dot(t([T.complex(1, 1), T.complex(2, -3)]), t([T.complex(0, 1), T.complex(1, 1)])).tolist(),
    ).toEqual([4, 0]);
    expectTensor(
      T.torch.matmul(fl(6).view(2, 1, 1, 3), fl(18).view(3, 3, 2)),
      [
        [[[10, 13]], [[28, 31]], [[46, 49]]],
        [[[28, 40]], [[100, 112]], [[172, 184]]],
      ],
      [6, 2, 2, 1],
    );
    expectTensor(
      T.torch.matmul(t([1, -1, 2]).float(), fl(24).view(2, 3, 4)),
      [
        [12, 14, 16, 18],
        [36, 38, 40, 42],
      ],
      [4, 1],
    );
    expectTensor(
      T.torch.matmul(fl(24).view(2, 4, 3).transpose(1, 2), t([1, 0, -1, 2]).float()),
      [
        [12, 14, 16],
        [36, 38, 40],
      ],
      [3, 1],
    );
    expectTensor(T.torch.matmul(t([1.5, 2]), fl(6).view(2, 3)), [6, 9.5, 13], [1]);
    expectTensor(T.torch.matmul(t([1.5, 2, 3]), t([4.5, 5, 6])), 34.75);
    const out = T.torch.empty([0]);
    T.torch.matmul(fl(6).view(2, 3), fl(3), { out });
    expectTensor(out, [5, 14], [1]);
  });
  it('raises like PyTorch, following the path matmul takes', () => {
    const A = fl(6).view(2, 3);
    expectCode(
      () => T.torch.mm(A, T.torch.zeros(4, 5)),
      'E_SHAPE_MISMATCH',
      'mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)',
    );
    expectCode(
      () => T.torch.mm(A, A.double().t()),
      'E_DTYPE_UNSUPPORTED',
      'expected scalar type Float but found Double',
    );
    expectCode(() => T.torch.mm(A, t([1.5, 2, 3])), 'E_SHAPE_MISMATCH', 'mat2 must be a matrix');
    expectCode(
      () => T.torch.mm(A.bool(), A.bool().t()),
      'E_DTYPE_UNSUPPORTED',
      `"addmm_impl_cpu_" not implemented for 'Bool'`,
    );
    expectCode(
      () => T.torch.mm(A.half(), A.half().t()),
      'E_DTYPE_UNSUPPORTED',
      `"addmm_impl_cpu_" not implemented for 'Half'`,
    );
    expectCode(
      () => T.torch.mm(A, A.t(), { out: T.torch.empty([0], { dtype: 'float64' }) }),
      'E_RESULT_TYPE',
      'Expected out tensor to have dtype float, but got double instead',
    );
    expectCode(
      () => T.torch.bmm(T.torch.zeros(2, 2, 3), T.torch.zeros(3, 3, 2)),
      'E_SHAPE_MISMATCH',
      'Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [3, 3].',
    );
    expectCode(() => T.torch.bmm(A, A), 'E_SHAPE_MISMATCH', 'batch1 must be a 3D tensor');
    expectCode(
      () => T.torch.dot(t([1.5, 2]), t([1.5, 2]).double()),
      'E_DTYPE_UNSUPPORTED',
      'dot : expected both vectors to have same dtype, but found Float and Double',
    );
    expectCode(
      () => T.torch.dot(t([1.5, 2]), t([1.5, 2, 3])),
      'E_SHAPE_MISMATCH',
      'inconsistent tensor size, expected tensor [2] and src [3] to have the same number of elements, but got 2 and 3 elements respectively',
    );
    expectCode(
      () => T.torch.dot(t([true]), t([true])),
      'E_DTYPE_UNSUPPORTED',
      `"dot" not implemented for 'Bool'`,
    );
    expectCode(
      () => callOp('mv', [A, A]),
      'E_SHAPE_MISMATCH',
      'vector + matrix @ vector expected, got 1, 2, 2',
    );
    expectCode(
      () => T.torch.matmul(t(1.5), A),
      'E_SHAPE_MISMATCH',
      'both arguments to matmul need to be at least 1D, but they are 0D and 2D',
    );
    expectCode(
      () => T.torch.matmul(t([1.5, 2, 3]), A),
      'E_SHAPE_MISMATCH',
      'mat1 and mat2 shapes cannot be multiplied (1x3 and 2x3)',
    );
    expectCode(() => T.torch.matmul(A, t([1.5, 2])), 'E_SHAPE_MISMATCH', 'size mismatch, got 2, 2x3,2');
    expectCode(
      () => T.torch.matmul(T.torch.zeros(3, 4), T.torch.zeros(2, 5, 6)),
      'E_SHAPE_MISMATCH',
      'mat1 and mat2 shapes cannot be multiplied (12x5 and 4x3)',
    );
    expectCode(
      () => T.torch.matmul(T.torch.zeros(4), T.torch.zeros(7, 2, 5, 6)),
      'E_SHAPE_MISMATCH',
      'size mismatch, got 84, 84x5,4',
    );
    expectCode(
      () => T.torch.matmul(T.torch.zeros(3, 2, 3, 4), T.torch.zeros(2, 5, 6)),
      'E_SHAPE_MISMATCH',
      'Expected size for first two dimensions of batch2 tensor to be: [6, 4] but got: [6, 5].',
    );
    expectCode(
      () => T.torch.matmul(T.torch.zeros(2, 2, 3), T.torch.zeros(3, 3, 2)),
      'E_SHAPE_MISMATCH',
      'The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0',
    );
    expectCode(
      () => T.torch.matmul(T.torch.zeros(3, 4), T.torch.zeros(2, 4, 6).double()),
      'E_DTYPE_UNSUPPORTED',
      'expected scalar type Double but found Float',
    );
  });
  it('works on meta', () => {
    expectMeta(T.torch.mm(meta(T.torch.zeros(2, 3)), meta(T.torch.zeros(3, 4))), [2, 4], [4, 1], 'float32');
    expectMeta(
      T.torch.bmm(meta(T.torch.zeros(5, 2, 3)), meta(T.torch.zeros(5, 3, 4))),
      [5, 2, 4],
      [8, 4, 1],
      'float32',
    );
    expectMeta(T.torch.dot(meta(T.torch.zeros(3)), meta(T.torch.zeros(3))), [], [], 'float32');
    expectMeta(
      T.torch.matmul(meta(T.torch.zeros(3, 4)), meta(T.torch.zeros(6, 2, 4, 5))),
      [6, 2, 3, 5],
      [30, 15, 5, 1],
      'float32',
    );
    expectMeta(
      T.torch.matmul(meta(T.torch.zeros(5, 2, 3, 4)), meta(T.torch.zeros(4))),
      [5, 2, 3],
      [6, 3, 1],
      'float32',
    );
  });
});

describe('sort / topk', () => {
  it('sorts NaN as largest, stably, along any dim of a transposed input (keeping its layout)', () => {
    const [v, i] = T.torch.sort(
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
    const [sv, si] = T.torch.sort(t([2, 1, 2, 1, 0, 2]), { stable: true });
    expectTensor(sv, [0, 1, 1, 2, 2, 2]);
    expectTensor(si, [4, 1, 3, 0, 2, 5]);
    const [bv, bi] = T.torch.sort(t([2n ** 62n + 1n, -(2n ** 62n), 2n ** 62n, 7n]), { descending: true });
    expect(bv.tolist()).toEqual([2n ** 62n + 1n, 2n ** 62n, 7n, -(2n ** 62n)]);
    expectTensor(bi, [0, 2, 3, 1]);
    expectTensor(
      T.torch.sort(t([0.5, -1.25, 3, 0.1], { dtype: 'bfloat16' }))[0],
      [-1.25, 0.10009765625, 0.5, 3],
    );
    expectTensor(T.torch.sort(t([true, false, true]))[1], [1, 0, 2]);
    expectTensor(T.torch.sort(t(3.5))[1], 0);
    expect(T.torch.sort(T.torch.zeros(2, 3, 8).slice(2, 0, null, 2), 1)[0].stride()).toEqual([12, 4, 1]);
  });
  it('topk picks the largest or smallest k along a dim of a sliced input', () => {
    const [v, i] = T.torch.topk(T.getitem(fl(24).view(4, 6), ':, ::2').mul(t([1, -1, 2]).float()), 2, -1);
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
    const [sv, si] = T.torch.topk(t([3, Number.NaN, 1, 5, -2]), 2, { largest: false });
    expectTensor(sv, [-2, 1]);
    expectTensor(si, [4, 2]);
    expectTensor(T.torch.topk(t([3, Number.NaN, 1]), 1)[0], ['NaN']);
    expectTensor(T.torch.topk(fl(3), 0)[0], [], [1]);
  });
  it('raises like PyTorch and works on meta', () => {
    expectCode(
      () => T.torch.sort(t([T.complex(0, 1)])),
      'E_DTYPE_UNSUPPORTED',
      `"sorting_kernel_method_name" not implemented for 'ComplexFloat'`,
    );
    expectCode(() => T.torch.sort(t([1, 2]), 1), 'E_DIM_OUT_OF_RANGE');
    expectCode(() => T.torch.topk(fl(3), 4), 'E_INVALID_ARGUMENT', 'selected index k out of range');
    expectCode(() => T.torch.topk(fl(3), -1), 'E_INVALID_ARGUMENT', 'selected index k out of range');
    expectCode(
      () => T.torch.topk(t([true]), 1),
      'E_DTYPE_UNSUPPORTED',
      `"topk_cpu" not implemented for 'Bool'`,
    );
    const [mv, mi] = T.torch.sort(meta(T.torch.zeros(2, 3, 4).transpose(0, 2)), 1);
    expectMeta(mv, [4, 3, 2], [1, 4, 12], 'float32');
    expectMeta(mi, [4, 3, 2], [1, 4, 12], 'int64');
    expectMeta(T.torch.topk(meta(T.torch.zeros(2, 3, 4)), 2, 1)[1], [2, 2, 4], [8, 4, 1], 'int64');
  });
});
