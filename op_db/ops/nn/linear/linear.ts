/**
 * OpInfos for torch.nn.functional.linear and bilinear. Samples cover each of linear's PyTorch 1.13 paths (addmm for
 * a 2-D or contiguous 3-D input with a bias, matmul + add_ otherwise; the transposed layout sends 3-D inputs down
 * the matmul path) and bilinear's batch shapes. References are float64 (complex: pairs) sums over logical indices.
 */
import { DTYPE_GROUPS, type DType, type Tensor } from '../../../../src/runtime/index.ts';
import { claims, errorCase, f32 } from '../../../families/shape.ts';
import { sample } from '../../../families/unary.ts';
import { opInfo } from '../../../info.ts';
import { type MakeOptions, maker } from '../../../make.ts';
import { matmulRef } from '../../../refs/linalg.ts';
import { broadcastIndex, numelOf, type RefTensor, unravel } from '../../../refs/tensor.ts';
import type { ErrorInput, OpInfo, RefSample, SampleContext, SampleInput } from '../../../types.ts';

/** PyTorch 1.13 CPU: addmm_impl_cpu_ and bmm have no bool or half kernels. */
const PRODUCT_DTYPES: readonly DType[] = DTYPE_GROUPS.all.filter((d) => d !== 'bool' && d !== 'float16');

/**
 * Sums of a few products of values in [-3, 3] (bilinear: [-2, 2], three factors): bfloat16 results are rounded
 * between the products (the runtime's outer products) by 2^-9 of terms up to ~30, an absolute error where a sum
 * cancels; atol per op, a few times the largest the samples show (ten times looser fails the reference oracle).
 * Other dtypes keep the defaults.
 */

const range = (ctx: SampleContext, high: number): MakeOptions => ({
  low: ctx.dtype === 'uint8' ? 0 : -high,
  high,
});

/** A RefTensor's matrix transposed (a 1-D one unchanged). */
function transposed(w: RefTensor): RefTensor {
  if (w.shape.length < 2) return w;
  const [r, c] = w.shape;
  const pick = (a: Float64Array) =>
    Float64Array.from({ length: r * c }, (_, i) => a[(i % r) * c + Math.floor(i / r)]);
  return { ...w, shape: [c, r], re: pick(w.re), im: w.im ? pick(w.im) : null };
}

/** y + b, b broadcast into y's shape (complex parts added separately). */
function plusBias(y: RefTensor, b: RefTensor | null | undefined): RefTensor {
  if (!b) return y;
  const re = y.re.map((v, i) => v + b.re[broadcastIndex(b, unravel(i, y.shape))]);
  const im =
    y.im || b.im
      ? y.re.map((_, i) => (y.im?.[i] ?? 0) + (b.im?.[broadcastIndex(b, unravel(i, y.shape))] ?? 0))
      : null;
  return { ...y, re, im };
}

/** linear: x @ w^T + b. */
const linearRef = (s: RefSample): RefTensor =>
  plusBias(
    matmulRef(s.input, transposed(s.args[0] as RefTensor)),
    (s.args[1] ?? s.kwargs.bias) as RefTensor | null,
  );

/** bilinear: y[..., o] = sum_ij x1[..., i] W[o, i, j] x2[..., j] + b[o], in complex arithmetic. */
function bilinearRef(s: RefSample): RefTensor {
  const [x1, x2, w] = [s.input, s.args[0] as RefTensor, s.args[1] as RefTensor];
  const [o, n1, n2] = w.shape;
  const rows = numelOf(x1.shape.slice(0, -1));
  const at = (x: RefTensor, i: number): [number, number] => [x.re[i], x.im?.[i] ?? 0];
  const mul = ([a, b]: [number, number], [c, d]: [number, number]): [number, number] => [
    a * c - b * d,
    a * d + b * c,
  ];
  const re = new Float64Array(rows * o);
  const im = new Float64Array(rows * o);
  for (let r = 0; r < rows; r++)
    for (let k = 0; k < o; k++)
      for (let i = 0; i < n1; i++)
        for (let j = 0; j < n2; j++) {
          const v = mul(mul(at(x1, r * n1 + i), at(w, (k * n1 + i) * n2 + j)), at(x2, r * n2 + j));
          re[r * o + k] += v[0];
          im[r * o + k] += v[1];
        }
  const complex = x1.im !== null || x2.im !== null || w.im !== null;
  const y: RefTensor = { shape: [...x1.shape.slice(0, -1), o], dtype: x1.dtype, re, im: complex ? im : null };
  return plusBias(y, (s.args[2] ?? s.kwargs.bias) as RefTensor | null);
}

function linearSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const o = range(ctx, 3);
  const m = (shape: number[]) => make(shape, o);
  return [
    sample(m([3, 4]), [m([5, 4]), m([5])], {}, { name: '[3, 4], bias (addmm)' }),
    sample(m([3, 4]), [m([5, 4])], {}, { name: '[3, 4], no bias' }),
    sample(m([3, 4]), [m([5, 4])], { bias: m([3, 1]) }, { name: '[3, 4], bias=[3, 1]' }),
    sample(m([2, 3, 4]), [m([5, 4]), m([5])], {}, { name: '[2, 3, 4], bias' }),
    sample(m([2, 1, 3, 4]), [m([2, 4])], { bias: m([2]) }, { name: '[2, 1, 3, 4], bias=' }),
    sample(m([4]), [m([5, 4]), m([5])], {}, { name: '[4], bias (matmul + add_)' }),
    sample(m([2, 4]), [m([4])], {}, { name: '[2, 4], 1-d weight' }),
    sample(m([4]), [m([4]), m([])], {}, { name: '[4], 1-d weight, 0-dim bias (dot)' }),
    sample(m([3, 4]), [m([5, 4])], { bias: null }, { name: 'bias=None' }),
    ...(claims(ctx, PRODUCT_DTYPES)
      ? [
          sample(m([0, 4]), [m([5, 4]), m([5])], {}, { name: 'zero-size input' }),
          sample(m([3, 0]), [m([5, 0]), m([5])], {}, { name: 'no in-features' }),
        ]
      : []),
  ];
}

function bilinearSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const o = range(ctx, 2);
  const m = (shape: number[]) => make(shape, o);
  return [
    sample(m([3, 3]), [m([3, 2]), m([4, 3, 2]), m([4])], {}, { name: '[3, 3] x [3, 2], bias' }),
    sample(m([2, 3]), [m([2, 2]), m([4, 3, 2])], {}, { name: 'no bias' }),
    sample(m([2, 2, 3]), [m([2, 2, 2]), m([3, 3, 2])], { bias: m([3]) }, { name: '3-d, bias=' }),
    sample(m([3]), [m([2]), m([2, 3, 2]), m([2])], {}, { name: '1-d inputs' }),
    sample(m([1, 2, 1, 3]), [m([1, 2, 1, 1]), m([2, 3, 1])], { bias: null }, { name: '4-d, bias=None' }),
    ...(claims(ctx, PRODUCT_DTYPES)
      ? [
          sample(m([0, 3]), [m([0, 2]), m([4, 3, 2]), m([4])], {}, { name: 'zero-size batch' }),
          sample(m([2, 3]), [m([2, 2]), m([0, 3, 2]), m([0])], {}, { name: 'no out-features' }),
        ]
      : []),
    // With nothing to compute PyTorch multiplies nothing, so it checks no dtypes: the result is input1's dtype.
    ...(ctx.dtype === 'float64'
      ? [
          sample(
            m([0, 3]),
            [f32(ctx)([0, 2]), f32(ctx)([4, 3, 2])],
            {},
            { name: 'zero-size batch, float32 others' },
          ),
          sample(
            m([2, 3]),
            [f32(ctx)([2, 2]), f32(ctx)([0, 3, 2])],
            {},
            { name: 'no out-features, float32 others' },
          ),
        ]
      : []),
  ];
}

const SHAPE = 'E_SHAPE_MISMATCH';
const DTYPE = 'E_DTYPE_UNSUPPORTED';
const DIM = 'E_DIM_OUT_OF_RANGE';

function linearErrors(ctx: SampleContext): ErrorInput[] {
  const f = f32(ctx);
  const d = (shape: number[]) => f(shape).double();
  return [
    errorCase(
      f([2, 3]),
      [f([5, 4]), f([5])],
      {},
      SHAPE,
      /mat1 and mat2 shapes cannot be multiplied \(2x3 and 4x5\)/,
    ),
    errorCase(
      f([2, 2, 3]),
      [f([5, 4])],
      {},
      SHAPE,
      /mat1 and mat2 shapes cannot be multiplied \(4x3 and 4x5\)/,
    ),
    errorCase(f([3, 4]), [f([5, 4]), d([5])], {}, DTYPE, /self and mat2 must have the same dtype/),
    errorCase(d([3, 4]), [f([5, 4]), f([5])], {}, DTYPE, /mat1 and mat2 must have the same dtype/),
    errorCase(f([2, 3]), [f([3]), f([])], {}, SHAPE, /mat2 must be a matrix, got 1-D tensor/),
    errorCase(
      f([3, 4]),
      [f([5, 4]), f([4])],
      {},
      SHAPE,
      /The expanded size of the tensor \(5\) must match the existing size \(4\) at non-singleton dimension 1/,
    ),
    errorCase(
      f([4]),
      [f([5, 4]), f([2, 5])],
      {},
      'E_INPLACE_BROADCAST',
      /output with shape \[5\] doesn't match the broadcast shape \[2, 5\]/,
    ),
    errorCase(
      f([2, 4]),
      [f([2, 5, 4])],
      {},
      'E_INVALID_ARGUMENT',
      /t\(\) expects a tensor with <= 2 dimensions/,
    ),
    errorCase(
      f([]),
      [f([3])],
      {},
      SHAPE,
      /both arguments to matmul need to be at least 1D, but they are 0D and 1D/,
    ),
    errorCase(
      f([2, 2]).to('bool'),
      [f([2, 2]).to('bool')],
      {},
      DTYPE,
      /"addmm_impl_cpu_" not implemented for 'Bool'/,
    ),
    errorCase(
      f([2, 2]).half(),
      [f([2, 2]).half()],
      {},
      DTYPE,
      /"addmm_impl_cpu_" not implemented for 'Half'/,
    ),
  ];
}

function bilinearErrors(ctx: SampleContext): ErrorInput[] {
  const f = f32(ctx);
  const w = () => f([5, 4, 2]);
  return [
    errorCase(
      f([3, 4]),
      [f([1, 3, 2]), w()],
      {},
      SHAPE,
      /bilinear\(\): input dimensions do not match: got 2 and 3/,
    ),
    errorCase(
      f([3, 4]),
      [f([2, 2]), w()],
      {},
      SHAPE,
      /input batch dimensions do not match at dim 0: got 3 and 2/,
    ),
    errorCase(
      f([3, 3]),
      [f([3, 2]), w()],
      {},
      SHAPE,
      /input1 size does not match weight size: got 3 but expected 4/,
    ),
    errorCase(
      f([3, 4]),
      [f([3, 3]), w()],
      {},
      SHAPE,
      /input2 size does not match weight size: got 3 but expected 2/,
    ),
    errorCase(
      f([3, 4]),
      [f([3, 2]), w(), f([4])],
      {},
      SHAPE,
      /bias size does not match weight size: got 4 but/,
    ),
    errorCase(
      f([3, 4]),
      [f([3, 2]), w(), f([])],
      {},
      DIM,
      /Dimension specified as 0 but tensor has no dimensions/,
    ),
    errorCase(f([]), [f([]), w()], {}, DIM, /Dimension specified as -1 but tensor has no dimensions/),
    errorCase(f([3, 4]), [f([3, 2]), f([5, 4])], {}, DIM, /expected to be in range of \[-2, 1\], but got 2/),
    errorCase(f([3, 4]), [f([3, 2]), f([5, 4, 2, 1])], {}, SHAPE, /number of dimensions must match/),
    errorCase(f([3, 4]), [f([3, 2]).double(), w()], {}, DTYPE, /expected scalar type Float but found Double/),
    errorCase(f([3, 4]), [f([3, 2]), w().double()], {}, DTYPE, /expected scalar type Float but found Double/),
    errorCase(
      f([1, 4]).half(),
      [f([1, 2]).half(), w().half()],
      {},
      DTYPE,
      /"bmm" not implemented for 'Half'/,
    ),
  ];
}

export const NN_LINEAR_OPINFOS: readonly OpInfo[] = [
  opInfo({
    name: 'nn.functional.linear',
    op: 'linear',
    family: 'linalg',
    dtypes: PRODUCT_DTYPES,
    // matmul's meta function checks shapes and dtypes, not whether a cpu kernel exists for the dtype.
    dtypesIf: { meta: DTYPE_GROUPS.all },
    sampleInputs: linearSamples,
    errorInputs: linearErrors,
    ref: linearRef,
    resultDType: (s) => (s.input as Tensor).dtype,
    // bfloat16 products sum step by step in bfloat16, as PyTorch 1.13's CPU loops do (linalg.ts): 0.245 where
    // exact math gives 0.275 (measured on the full tier's samples).
    tolerances: { bfloat16: { rtol: 1.6e-2, atol: 4e-2 } },
  }),
  opInfo({
    name: 'nn.functional.bilinear',
    op: 'bilinear',
    family: 'linalg',
    dtypes: PRODUCT_DTYPES,
    sampleInputs: bilinearSamples,
    errorInputs: bilinearErrors,
    ref: bilinearRef,
    resultDType: (s) => (s.input as Tensor).dtype,
    // Its products sum step by step in bfloat16 as PyTorch 1.13's do, but along the runtime's matmul path, not
    // _trilinear's bmm: a result that cancels is off by up to 0.047 (-0.016 for PyTorch's 0.031, measured).
    tolerances: { bfloat16: { rtol: 1.6e-2, atol: 6e-2 } },
  }),
];
