/**
 * Where the runtime knowingly differs from PyTorch 1.13 as recorded in op_db/goldens (by OpInfo name, like
 * autograd.ts's tables): the golden oracle expects these samples to differ and fails when one no longer does, and
 * docs/deviations.md (generated from this data by `npx opgate docs`) lists them. `tolerances` loosen the golden
 * comparison where PyTorch's own result is the less accurate one. Each entry says why; none hides a runtime bug
 * (those are fixed, not declared). The kinds many OpInfos share live in deviation_kinds.ts.
 */

import type { DType } from '../src/runtime/index.ts';
import {
  ALPHA_ROUNDED,
  BF16_TRANSPOSED,
  bf16ResampleSums,
  COMPLEX_BLAS_DOT,
  COMPLEX_TO_BOOL,
  type Declared,
  fullDofGrad,
  HALF_NORM,
  NO_HALF_DISTANCE,
  NO_SPARSE,
  nnf,
  noCpuKernel,
  noPoolKernel,
  noResampleKernel,
  STAGED,
} from './deviation_kinds.ts';
import type { Layout, OpInfo } from './types.ts';

/**
 * maximum / minimum of a +0 and a -0 (the float64 special values, strided layout, full tier): PyTorch 1.13 returns
 * the first operand in its scalar loop and the second in its vectorized one, so which zero comes out depends on
 * the loop a layout takes; the runtime always returns the first.
 */
const SIGNED_ZERO_TIE_STRIDED: Declared = {
  deviations: [
    {
      dtypes: ['float64'],
      sample: 'special values',
      layouts: ['strided'],
      reason:
        'maximum / minimum of +0 and -0: PyTorch 1.13 returns the first operand in its scalar loop and the second ' +
        'in its vectorized loop (a strided input takes the vectorized one here); the runtime returns the first ' +
        'in every layout. IEEE 754 leaves the sign of a zero maximum / minimum open',
    },
  ],
};

const DECLARED: Readonly<Record<string, Declared>> = {
  ...Object.fromEntries(
    [
      ...['exp', 'expm1', 'log', 'log2', 'log10', 'log1p', 'sqrt', 'rsqrt', 'sin', 'cos', 'tan', 'asin'],
      ...['acos', 'atan', 'sinh', 'cosh', 'tanh', 'sigmoid', 'erf', 'floor', 'ceil', 'trunc', 'round'],
      ...['nn.functional.silu', 'nn.functional.relu', 'nn.functional.softplus', 'atan2', 'hypot'],
      ...['elu', 'celu', 'selu', 'hardshrink', 'softshrink', 'hardsigmoid', 'hardswish'].map(nnf),
      ...['hardtanh', 'relu6', 'leaky_relu', 'logsigmoid', 'threshold', 'glu', 'prelu', 'tanhshrink'].map(
        nnf,
      ),
      ...['dropout', 'dropout2d', 'dropout3d', 'feature_alpha_dropout', 'rrelu'].map(nnf),
    ].map((op) => [op, noCpuKernel('float16')]),
  ),
  'nn.functional.mish': noCpuKernel('float16', 'bfloat16'),
  'nn.functional.soft_margin_loss': noCpuKernel('float16'),
  'nn.functional.multilabel_soft_margin_loss': noCpuKernel('float16'),
  'nn.functional.gelu': noCpuKernel('float16'),
  eye: noCpuKernel('bfloat16'),
  linspace: {
    deviations: [
      {
        dtypes: ['int64'],
        sample: 'int64 vector blocks',
        kind: 'sample',
        reason:
          "PyTorch 1.13's vectorized integral linspace (x86 AVX2: whole blocks of 8 int64 elements) truncates each " +
          "vector's first element before adding the double step, so linspace(3, 20, 13) gives 9 where its scalar loop " +
          'gives 10 (later releases removed that path for this precision bug); the runtime computes every element as ' +
          "1.13's scalar loop does",
      },
    ],
  },
  ...Object.fromEntries(['conv1d', 'conv2d', 'conv3d'].map((n) => [nnf(n), noCpuKernel('float16')])),
  ...Object.fromEntries(
    ['conv_transpose1d', 'conv_transpose2d', 'conv_transpose3d'].map((n) => [
      nnf(n),
      { deviations: [...(noCpuKernel('float16').deviations ?? []), BF16_TRANSPOSED] },
    ]),
  ),
  'nn.functional.mse_loss': noCpuKernel('bfloat16'),
  'nn.functional.nll_loss': noCpuKernel('float16'),
  'nn.functional.binary_cross_entropy': noCpuKernel('float16', 'bfloat16'),
  'nn.functional.poisson_nll_loss': noCpuKernel('float16'),
  'nn.functional.kl_div': {
    deviations: noCpuKernel('float16').deviations!.map((d) => ({ ...d, sample: 'log_target' })),
  },
  ...Object.fromEntries(
    ['batch_norm', 'instance_norm', 'layer_norm', 'group_norm']
      .map(nnf)
      .concat('native_batch_norm', 'native_layer_norm')
      .map((op) => [op, noCpuKernel('float16')]),
  ),
  'nn.functional.local_response_norm': {
    deviations: [
      {
        dtypes: ['float16'],
        kind: 'sample',
        reason:
          'PyTorch 1.13 has no CPU float16 avg_pool2d / avg_pool3d kernel (it raises "not implemented for ' +
          "'Half'\"); the runtime computes local_response_norm's steps in float16 as Python does, with the " +
          'window average accumulated in float32 and rounded once, as the bfloat16 kernel does',
      },
      ...['4-d', '5-d'].map((sample) => ({
        dtypes: ['bfloat16' as const],
        sample,
        kind: 'sample' as const,
        reason:
          'PyTorch 1.13 has no CPU bfloat16 avg_pool3d kernel, which local_response_norm uses past 3 dims (it ' +
          'raises "avg_pool3d_out_frame" not implemented for \'BFloat16\'); the runtime computes it as it does in 3 ' +
          'dims (avg_pool2d, which has a bfloat16 kernel)',
      })),
    ],
  },
  ...Object.fromEntries(
    [1, 2].flatMap((n) => [
      [nnf(`max_pool${n}d`), noCpuKernel('float16')],
      [nnf(`avg_pool${n}d`), noCpuKernel('float16')],
    ]),
  ),
  ...Object.fromEntries(
    ['max_pool3d', 'avg_pool3d', 'max_unpool1d', 'max_unpool2d', 'max_unpool3d'].map((n) => [
      nnf(n),
      noCpuKernel('float16', 'bfloat16'),
    ]),
  ),
  // aten::max_unpool2d itself (its OpInfo reaches the out= kernel), the same missing kernel.
  max_unpool2d: noCpuKernel('float16', 'bfloat16'),
  // The aten ops whose OpInfos reach the pooling out= kernels: the same missing kernels as F's.
  max_pool2d_with_indices: noCpuKernel('float16'),
  max_pool3d_with_indices: noCpuKernel('float16', 'bfloat16'),
  adaptive_avg_pool2d: noCpuKernel('float16'),
  adaptive_max_pool2d: noCpuKernel('float16'),
  fractional_max_pool2d: noCpuKernel('float16', 'bfloat16'),
  'nn.functional.pad': {
    deviations: [
      ...['reflect 1-d', 'reflect 2-d', 'replicate'].flatMap((sample) =>
        (['float16', 'bfloat16'] as const).map((dtype) => ({
          dtypes: [dtype],
          sample,
          kind: 'sample' as const,
          reason:
            `PyTorch 1.13 has no CPU ${dtype} kernel for reflection_pad1d / reflection_pad2d / replication_pad{1,2,3}d ` +
            "(it raises \"not implemented for 'Half'\" or 'BFloat16'; reflection_pad3d has both); padding only moves " +
            "elements, so the runtime pads every floating dtype, as PyTorch's CUDA kernels do",
        })),
      ),
      {
        kind: 'error',
        sample: 'unsupported operation: some elements of',
        reason:
          'a circular pad wider than the cropped window ([3, -1] on width 3) makes PyTorch 1.13 copy between ' +
          'overlapping slices of its output: it returns uninitialised memory in a fresh process and raises the ' +
          'overlap error after other calls (allocator-dependent, so a recording flips per dtype); the runtime ' +
          'always raises that error',
      },
    ],
  },
  'nn.functional.adaptive_avg_pool1d': noPoolKernel('float16'),
  'nn.functional.adaptive_avg_pool2d': noPoolKernel('float16'),
  'nn.functional.adaptive_avg_pool3d': noPoolKernel('bfloat16'),
  'nn.functional.adaptive_max_pool1d': noCpuKernel('float16'),
  'nn.functional.adaptive_max_pool2d': noCpuKernel('float16'),
  'nn.functional.adaptive_max_pool3d': noCpuKernel('float16', 'bfloat16'),
  'nn.functional.fractional_max_pool2d': {
    deviations: [
      ...noCpuKernel('float16', 'bfloat16').deviations!,
      {
        kind: 'error',
        sample: 'random_samples of another shape',
        reason:
          'PyTorch 1.13 reads N * C * 2 values of _random_samples in memory order without checking its shape (a ' +
          'longer tensor is used in part, a shorter one read past its end); the runtime raises a shape check',
      },
    ],
  },
  'nn.functional.fractional_max_pool3d': noCpuKernel('float16', 'bfloat16'),
  'nn.functional.embedding': NO_SPARSE,
  'nn.functional.multi_margin_loss': {
    deviations: [
      {
        kind: 'error',
        sample: 'weight of 5 for 4 classes',
        reason:
          'PyTorch 1.13 reads weight[target] without checking the weight has one element per class (a longer ' +
          'weight is used in part, a shorter one read past its end); the runtime raises the size check later ' +
          'releases have ("inconsistent weight size")',
      },
    ],
  },
  'nn.functional.embedding_bag': {
    ...NO_SPARSE,
    tolerances: {
      float16: {
        rtol: 5e-3,
        atol: 1e-5,
        reason:
          "max_norm: PyTorch 1.13's CPU norm accumulates a float16 row's powers in float16, so its renormalising " +
          'factor is off by a few float16 ulps; the runtime accumulates in float32',
      },
    },
  },
  all: COMPLEX_TO_BOOL,
  any: COMPLEX_TO_BOOL,
  dot: COMPLEX_BLAS_DOT,
  'nn.functional.interpolate': {
    deviations: [
      ...noResampleKernel({
        float16: ['nearest', 'linear', 'bicubic', 'area 2-d'],
        bfloat16: ['nearest-exact', 'area 3-d', 'antialias bilinear'],
      }).deviations!,
      {
        dtypes: ['bfloat16'],
        sample: 'bicubic',
        reason:
          "PyTorch 1.13's CPU bfloat16 bicubic computes the cubic coefficients and their sums in bfloat16 " +
          'arithmetic (each step rounded), up to 25% off; the runtime computes them in float32 and rounds once',
      },
    ],
    tolerances: bf16ResampleSums({ rtol: 1.6e-2, atol: 1.5e-2 }),
  },
  upsample_nearest2d: noCpuKernel('float16'),
  upsample_bilinear2d: {
    ...noCpuKernel('float16'),
    tolerances: bf16ResampleSums({ rtol: 1.6e-2, atol: 1.2e-2 }),
  },
  nll_loss2d: noCpuKernel('float16'),
  nll_loss: noCpuKernel('float16'),
  soft_margin_loss: noCpuKernel('float16'),
  'nn.functional.upsample_nearest': noResampleKernel({ float16: ['nearest'] }),
  'nn.functional.upsample_bilinear': {
    ...noResampleKernel({ float16: ['bilinear'] }),
    tolerances: bf16ResampleSums({ rtol: 1.6e-2, atol: 1.2e-2 }),
  },
  // mm's and mv's k <= 8 samples happen to round like PyTorch's within the default tolerance.
  matmul: COMPLEX_BLAS_DOT,
  'nn.functional.linear': {
    deviations: [{ ...COMPLEX_BLAS_DOT.deviations![0], sample: '(dot)' }],
  },
  'nn.functional.pdist': NO_HALF_DISTANCE,
  cdist: NO_HALF_DISTANCE,
  'linalg.vector_norm': HALF_NORM,
  norm: HALF_NORM,
  // torch.dist is norm(self - other, p).
  dist: HALF_NORM,
  // torch.norm's Python forms reduce with aten's norm (HALF_NORM); 'fro' over two dims is sqrt(sum(x * x)) in
  // 1.13, and its CPU sqrt has no float16 kernel.
  'norm.fro': {
    ...HALF_NORM,
    deviations: [
      ...(HALF_NORM.deviations ?? []),
      ...noCpuKernel('float16').deviations!.map((d) => ({ ...d, sample: 'two dims' })),
    ],
  },
  // add's recorded samples round like PyTorch's within the default tolerances.
  sub: ALPHA_ROUNDED,
  // sum's bfloat16 samples stay within the default tolerance; mean's divide the passes' error into the result.
  sum: { tolerances: { float16: STAGED.tolerances!.float16 } },
  mean: STAGED,
  maximum: SIGNED_ZERO_TIE_STRIDED,
  minimum: SIGNED_ZERO_TIE_STRIDED,
  max: {
    deviations: [
      {
        dtypes: ['float64'],
        sample: 'specials',
        layouts: ['expanded'],
        reason:
          "max() of a tensor whose largest values are -0 and +0 (the specials' first row, expanded): the runtime " +
          "keeps the first zero it meets (-0), as PyTorch's scalar loop does; PyTorch 1.13's all-reduce of the " +
          'expanded input gives +0 (its vectorized maximum keeps the second operand of a tie). IEEE 754 and the ' +
          'torch.max docs leave the sign of a zero maximum open; only the full tier runs the expanded layout',
      },
    ],
  },
  pow: {
    tolerances: {
      complex64: {
        rtol: 2e-5,
        atol: 1e-5,
        reason:
          "PyTorch 1.13 computes complex64 pow with single-precision std::pow (several ulps); the runtime's is " +
          'the correctly rounded double result',
      },
    },
  },
  var: {
    deviations: [
      {
        kind: 'grad',
        dtypes: ['float64'],
        sample: '[] (',
        reason:
          "PyTorch 1.13's var_backward gives a 0-dim self with N - correction = 0 an infinite gradient (-inf for a " +
          "weight of -1), where its own formula's comment says NaN (self equals its mean: 2/0 * 0); the runtime " +
          'gives NaN, as for every element equal to the mean of a larger input',
      },
      fullDofGrad('VarBackward0'),
    ],
  },
  std: { deviations: [fullDofGrad('StdBackward0')] },
  as_strided_scatter: {
    deviations: [
      {
        kind: 'grad',
        reason:
          "PyTorch 1.13's as_strided_scatter backward passes the gradient through to the part of self that src " +
          'overwrote (and reads uninitialised memory for a partial region, recorded as unstable); the runtime ' +
          'gives 0 there, which gradcheck confirms',
      },
    ],
  },
  slice_scatter: {
    deviations: [
      {
        sample: '[5, 4] (tensor)',
        reason:
          'A PyTorch 1.13 bug: slice_scatter(self, src) with the default end=None raises ("IntArrayRef contains an ' +
          'int that cannot be represented as a SymInt"); the runtime scatters over the whole dim, as 2.0 does',
      },
    ],
  },
};

/**
 * Output memory layouts that differ from PyTorch 1.13's (the golden oracle compares the strides of every new
 * output; values are compared as usual). By op: the input layouts on which the two lay the output out differently.
 */
const KEEPS_ORDER =
  "the runtime's output keeps the input's dim order (as TensorIterator ops do); PyTorch 1.13's CPU kernel " +
  'allocates it contiguous';
const CONTIGUOUS =
  "the runtime's kernel writes a contiguous output; PyTorch 1.13's keeps the input's channels-last (or " +
  'transposed) dim order';
/** The dtypes PyTorch 1.13 has these CPU kernels for (float16 raises there, so its layout is never compared). */
const KERNEL_DTYPES: readonly DType[] = ['bfloat16', 'float32', 'float64'];
const LAYOUT_DEVIATIONS: Readonly<Record<string, readonly [readonly Layout[], string, (readonly DType[])?]>> =
  {
    ...Object.fromEntries(
      [
        'native_batch_norm',
        'native_layer_norm',
        'nll_loss2d',
        'nn.functional.batch_norm',
        'nn.functional.layer_norm',
        'nn.functional.cross_entropy',
        'nn.functional.nll_loss',
        'nn.functional.max_pool1d',
        'nn.functional.prelu',
        'nn.functional.rrelu',
      ].map((op) => [op, [['transposed'], KEEPS_ORDER, KERNEL_DTYPES]]),
    ),
    ...Object.fromEntries(
      ['nn.functional.group_norm', 'nn.functional.logsigmoid'].map((op) => [
        op,
        [['transposed', 'channels_last'], KEEPS_ORDER, KERNEL_DTYPES],
      ]),
    ),
    'nn.functional.grid_sample': [['channels_last'], KEEPS_ORDER, KERNEL_DTYPES],
    ...Object.fromEntries(
      ['nn.functional.adaptive_avg_pool1d', 'nn.functional.adaptive_max_pool1d'].map((op) => [
        op,
        [['transposed'], CONTIGUOUS, KERNEL_DTYPES],
      ]),
    ),
    ...Object.fromEntries(
      [
        'adaptive_avg_pool2d',
        'adaptive_max_pool2d',
        'nn.functional.adaptive_avg_pool2d',
        'nn.functional.adaptive_max_pool2d',
        'max_unpool2d',
        'nn.functional.max_unpool2d',
        'nn.functional.interpolate',
      ].map((op) => [op, [['channels_last'], CONTIGUOUS, KERNEL_DTYPES]]),
    ),
    roll: [['channels_last'], CONTIGUOUS],
  };

/** The OpInfo with its declared deviations from PyTorch (an entry's own come first). */
export function withGoldenDeviations(info: OpInfo): OpInfo {
  const d = DECLARED[info.name];
  const layout = LAYOUT_DEVIATIONS[info.name];
  if (!d && !layout) return info;
  const layoutDeviation = layout && {
    kind: 'layout' as const,
    layouts: layout[0],
    reason: layout[1],
    dtypes: layout[2],
  };
  return {
    ...info,
    goldenDeviations: [
      ...info.goldenDeviations,
      ...(d?.deviations ?? []),
      ...(layoutDeviation ? [layoutDeviation] : []),
    ],
    goldenTolerances: { ...d?.tolerances, ...info.goldenTolerances },
  };
}
