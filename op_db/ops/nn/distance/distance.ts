/**
 * OpInfos for the distances: nn.functional.cosine_similarity, pairwise_distance, pdist, cdist and dist (references in
 * refs/distance.ts). Gradient samples keep distances away from 0, where the norms are not differentiable (as
 * PyTorch's OpInfos do: random values never coincide).
 */
import { DTYPE_GROUPS, type DType, type Tensor } from '../../../../src/runtime/index.ts';
import { claims, errorCase, f32, gen } from '../../../families/shape.ts';
import { sample } from '../../../families/unary.ts';
import { opInfo } from '../../../info.ts';
import { maker } from '../../../make.ts';
import { cdistRef, cosineRef, distRef, pairwiseRef, pdistRef, realDType } from '../../../refs/distance.ts';
import type { ErrorInput, OpInfo, SampleContext, SampleInput } from '../../../types.ts';

const COSINE_DTYPES: readonly DType[] = ['bfloat16', 'float32', 'float64'];
const PAIRWISE_DTYPES: readonly DType[] = DTYPE_GROUPS.all.filter((d) => d !== 'bool');
/** PyTorch 1.13's kernels: float32 / float64 (float16 / bfloat16: the declared deviations). */
const DIST_DTYPES: readonly DType[] = ['float16', 'bfloat16', 'float32', 'float64'];

function cosineSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const ints = gen(ctx).of('int64');
  return [
    sample(make([3, 4]), [make([3, 4])], {}, { name: '[3, 4]' }),
    sample(make([4, 3]), [make([4, 3])], { dim: 0 }, { name: '[4, 3] dim=0' }),
    sample(make([3, 1, 4]), [make([2, 4])], { dim: -1 }, { name: 'broadcast, dim=-1' }),
    // Norms below eps are clamped, under no_grad: there the gradient is not the derivative (no gradient sample).
    ...(ctx.requiresGrad
      ? []
      : [sample(make([2, 3], { low: -1, high: 1 }), [make([2, 3])], { eps: 2.5 }, { name: 'eps=2.5' })]),
    sample(make([5]), [make([5]), 0, 1e-6], {}, { name: '1-d, dim 0, eps 1e-6' }),
    sample(make([]), [make([])], { dim: 0 }, { name: '0-dim' }),
    sample(make([2, 3]), [ints([2, 3], { low: 1, high: 5 })], {}, { name: 'int64 x2' }),
    ...(claims(ctx, COSINE_DTYPES)
      ? [
          sample(make([0, 3]), [make([0, 3])], {}, { name: 'zero-size' }),
          sample(make([2, 0]), [make([2, 0])], {}, { name: 'empty dim' }),
        ]
      : []),
  ];
}

function pairwiseSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const o = { low: ctx.dtype === 'uint8' ? 0 : -5, high: 5 };
  const m = (shape: number[]) => make(shape, o);
  return [
    sample(m([3, 4]), [m([3, 4])], {}, { name: '[3, 4]' }),
    sample(m([3, 4]), [m([3, 4])], { p: 1, keepdim: true }, { name: 'p=1, keepdim' }),
    sample(m([2, 3]), [m([2, 3]), Number.POSITIVE_INFINITY], {}, { name: 'p inf' }),
    sample(m([2, 3]), [m([2, 3]), 0.5, 1e-3], {}, { name: 'p 0.5, eps 1e-3' }),
    sample(m([2, 3]), [m([2, 3])], { p: 0, eps: 0.25 }, { name: 'p=0' }),
    sample(m([2, 3]), [m([2, 3])], { p: -1.5 }, { name: 'p=-1.5' }),
    sample(m([4]), [m([2, 4])], { p: 3 }, { name: 'broadcast, p=3' }),
    sample(m([]), [m([])], { keepdim: true }, { name: '0-dim, keepdim' }),
    ...(claims(ctx, PAIRWISE_DTYPES)
      ? [
          sample(m([0, 3]), [m([0, 3])], {}, { name: 'zero-size' }),
          sample(m([2, 0]), [m([2, 0])], { p: Number.POSITIVE_INFINITY }, { name: 'empty dim, p inf' }),
        ]
      : []),
  ];
}

function pdistSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  return [
    sample(make([4, 3]), [], {}, { name: '[4, 3]' }),
    sample(make([5, 2]), [1], {}, { name: 'p 1' }),
    sample(make([3, 4]), [], { p: Number.POSITIVE_INFINITY }, { name: 'p=inf' }),
    sample(make([3, 3]), [], { p: 0 }, { name: 'p=0' }),
    sample(make([4, 2]), [0.5], {}, { name: 'p 0.5' }),
    sample(make([3, 2]), [], { p: 3 }, { name: 'p=3' }),
    ...(claims(ctx, DIST_DTYPES)
      ? [
          sample(make([1, 3]), [], {}, { name: 'one row' }),
          // PyTorch 1.13's pdist backward of a rowless input crashes (a segfault): no gradient to compare with.
          ...(ctx.requiresGrad ? [] : [sample(make([0, 3]), [], {}, { name: 'no rows' })]),
          sample(make([3, 0]), [], {}, { name: 'no columns' }),
        ]
      : []),
  ];
}

function cdistSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const modes = [
    'use_mm_for_euclid_dist_if_necessary',
    'use_mm_for_euclid_dist',
    'donot_use_mm_for_euclid_dist',
  ];
  return [
    sample(make([3, 4]), [make([2, 4])], {}, { name: '[3, 4] x [2, 4]' }),
    sample(make([3, 4]), [make([2, 4]), 1], {}, { name: 'p 1' }),
    sample(make([2, 3]), [make([3, 3])], { p: Number.POSITIVE_INFINITY }, { name: 'p=inf' }),
    sample(make([2, 3]), [make([2, 3])], { p: 0 }, { name: 'p=0' }),
    sample(make([2, 3]), [make([3, 3])], { p: 0.5 }, { name: 'p=0.5' }),
    ...modes.map((m, i) =>
      sample(make([3, 2]), [make([4, 2]), 2, m], {}, { name: `${i === 1 ? 'mm ' : ''}mode ${m}` }),
    ),
    sample(make([2, 3, 4]), [make([2, 2, 4])], { compute_mode: modes[1] }, { name: 'mm batched' }),
    sample(make([2, 1, 2, 3]), [make([3, 2, 3])], { p: 1.5 }, { name: 'broadcast batch, p=1.5' }),
    ...(claims(ctx, DIST_DTYPES)
      ? [
          sample(make([0, 4]), [make([2, 4])], {}, { name: 'no rows' }),
          sample(make([3, 0]), [make([2, 0])], { p: Number.POSITIVE_INFINITY }, { name: 'no columns' }),
          sample(make([0, 2, 3]), [make([2, 3])], {}, { name: 'empty batch' }),
        ]
      : []),
  ];
}

const SHAPE = 'E_SHAPE_MISMATCH';
const DTYPE = 'E_DTYPE_UNSUPPORTED';
const ARG = 'E_INVALID_ARGUMENT';

function cosineErrors(ctx: SampleContext): ErrorInput[] {
  const f = f32(ctx);
  const long = (shape: number[]) => f(shape).to('int64');
  return [
    errorCase(
      long([2, 3]),
      [long([2, 3])],
      {},
      DTYPE,
      /expected common dtype to be floating point, yet common dtype is Long/,
    ),
    errorCase(f([2, 3]).to('complex64'), [f([2, 3])], {}, DTYPE, /yet common dtype is ComplexFloat/),
    errorCase(
      f([3, 4]),
      [f([2, 4])],
      {},
      SHAPE,
      /The size of tensor a \(3\) must match the size of tensor b \(2\)/,
    ),
    errorCase(f([3]), [f([3])], {}, 'E_DIM_OUT_OF_RANGE', /Dimension out of range/),
    errorCase(f([2, 3]).half(), [f([2, 3]).half()], {}, DTYPE, /"clamp_min_cpu" not implemented for 'Half'/),
  ];
}

/**
 * The errors of x1 - x2, which pairwise_distance and dist both start with: shapes that do not broadcast, and two
 * bool inputs (integer ones reach dist's norm only on cpu: the dtypes oracle sees int64 refused).
 */
function subtractionErrors(ctx: SampleContext): ErrorInput[] {
  const f = f32(ctx);
  return [
    errorCase(
      f([2, 3]),
      [f([2, 4])],
      {},
      SHAPE,
      /The size of tensor a \(3\) must match the size of tensor b \(4\)/,
    ),
    errorCase(
      f([2, 3]).to('bool'),
      [f([2, 3]).to('bool')],
      {},
      DTYPE,
      /Subtraction, the `-` operator, with two bool/,
    ),
  ];
}

function pdistErrors(ctx: SampleContext): ErrorInput[] {
  const f = f32(ctx);
  return [
    errorCase(f([2, 3, 4]), [], {}, SHAPE, /pdist only supports 2D tensors, got: 3D/),
    errorCase(f([3]), [], {}, SHAPE, /pdist only supports 2D tensors, got: 1D/),
    errorCase(f([3, 2]).to('int64'), [], {}, DTYPE, /pdist only supports floating-point dtypes/),
    errorCase(f([3, 2]), [-1], {}, ARG, /pdist only supports non-negative p values/),
  ];
}

function cdistErrors(ctx: SampleContext): ErrorInput[] {
  const f = f32(ctx);
  return [
    errorCase(f([4]), [f([2, 4])], {}, SHAPE, /cdist only supports at least 2D tensors, X1 got: 1D/),
    errorCase(f([3, 4]), [f([4])], {}, SHAPE, /cdist only supports at least 2D tensors, X2 got: 1D/),
    errorCase(
      f([3, 4]),
      [f([2, 3])],
      {},
      SHAPE,
      /X1 and X2 must have the same number of columns. X1: 4 X2: 3/,
    ),
    errorCase(
      f([3, 4]).to('int64'),
      [f([2, 4])],
      {},
      DTYPE,
      /cdist only supports floating-point dtypes, X1 got: Long/,
    ),
    errorCase(f([3, 4]), [f([2, 4]).to('int32')], {}, DTYPE, /floating-point dtypes, X2 got: Int/),
    errorCase(f([3, 4]), [f([2, 4])], { p: -1 }, ARG, /cdist only supports non-negative p values/),
    errorCase(f([3, 4]), [f([2, 4]).double()], {}, DTYPE, /expected scalar type Float but found Double/),
    errorCase(
      f([2, 3, 4]),
      [f([3, 2, 4])],
      {},
      SHAPE,
      /The size of tensor a \(2\) must match the size of tensor b \(3\)/,
    ),
    errorCase(
      f([3, 4]),
      [f([2, 4])],
      { compute_mode: 'fast' },
      ARG,
      /fast is not a valid value for compute_mode/,
    ),
    errorCase(
      f([3, 4]),
      [f([2, 4])],
      { compute_mode: null },
      ARG,
      /None is not a valid value for compute_mode/,
    ),
  ];
}

const inputDType = (s: SampleInput) => (s.input as Tensor).dtype;

/** torch.dist: norm(self - other, p) over every element, the inputs broadcast; complex inputs give a real norm. */
function distSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const inf = Number.POSITIVE_INFINITY;
  return [
    sample(make([3, 4]), [make([3, 4])], {}, { name: '[3, 4], p=2' }),
    sample(make([3, 4]), [make([3, 4])], { p: 1 }, { name: 'p=1' }),
    sample(make([2, 3]), [make([2, 3]), 3.5], {}, { name: 'p 3.5 (positional)' }),
    sample(make([2, 3]), [make([2, 3])], { p: inf }, { name: 'p=inf' }),
    sample(make([2, 3]), [make([2, 3])], { p: -inf }, { name: 'p=-inf' }),
    // PyTorch 1.13's dist backward returns no gradient for p=0 (its backward raises): no gradient sample.
    ...(ctx.requiresGrad
      ? []
      : [sample(make([2, 3]), [make([2, 3])], { p: 0 }, { name: 'p=0 (nonzero count)' })]),
    sample(make([4]), [make([2, 4])], {}, { name: 'broadcast [4] - [2, 4]' }),
    sample(make([]), [make([])], { p: 3 }, { name: '0-dim' }),
    ...(ctx.requiresGrad ? [] : [sample(make([0, 3]), [make([0, 3])], {}, { name: 'zero-size' })]),
  ];
}

export const NN_DISTANCE_OPINFOS: readonly OpInfo[] = [
  opInfo({
    name: 'nn.functional.cosine_similarity',
    op: 'cosine_similarity',
    family: 'reduction',
    dtypes: COSINE_DTYPES,
    // The meta functions check shapes and dtypes, not whether clamp_min has a cpu float16 kernel.
    dtypesIf: { meta: [...COSINE_DTYPES, 'float16'] },
    sampleInputs: cosineSamples,
    errorInputs: cosineErrors,
    ref: cosineRef,
    resultDType: inputDType,
    // Products of bfloat16 quotients, rounded before the sum, where the sum may cancel.
    tolerances: { bfloat16: { rtol: 1.6e-2, atol: 2e-2 } },
  }),
  opInfo({
    name: 'nn.functional.pairwise_distance',
    op: 'pairwise_distance',
    family: 'reduction',
    dtypes: PAIRWISE_DTYPES,
    sampleInputs: pairwiseSamples,
    errorInputs: subtractionErrors,
    ref: pairwiseRef,
    resultDType: (s) => realDType(inputDType(s)),
  }),
  opInfo({
    name: 'nn.functional.pdist',
    op: 'pdist',
    family: 'reduction',
    dtypes: DIST_DTYPES,
    sampleInputs: pdistSamples,
    errorInputs: pdistErrors,
    ref: pdistRef,
    resultDType: inputDType,
  }),
  opInfo({
    name: 'cdist',
    family: 'reduction',
    dtypes: DIST_DTYPES,
    sampleInputs: cdistSamples,
    errorInputs: cdistErrors,
    ref: cdistRef,
    resultDType: inputDType,
  }),
  opInfo({
    name: 'dist',
    family: 'reduction',
    dtypes: DTYPE_GROUPS.floatingAndComplex,
    sampleInputs: distSamples,
    errorInputs: subtractionErrors,
    ref: distRef,
    resultDType: (s) => realDType(inputDType(s)),
  }),
];
