/**
 * Where the runtime knowingly differs from PyTorch 1.13 as recorded in op_db/goldens (by OpInfo name, like
 * autograd.ts's tables): the golden oracle expects these samples to differ and fails when one no longer does, and
 * the README's deviations section lists them. `tolerances` loosen the golden comparison where PyTorch's own result
 * is the less accurate one. Each entry says why; none hides a runtime bug (those are fixed, not declared).
 */
import type { DType } from '../src/runtime/index.ts';
import { CANCELLING_K, LONG_K } from './ops/linalg.ts';
import { type GoldenDeviation, type GoldenTolerance, LAYOUTS, type OpInfo, type Tolerance } from './types.ts';

interface Declared {
  readonly deviations?: readonly GoldenDeviation[];
  readonly tolerances?: Readonly<Partial<Record<DType, GoldenTolerance>>>;
}

/** PyTorch 1.13's CPU backend has no kernel for these dtypes ("exp_vml_cpu" not implemented for 'Half'). */
const noCpuKernel = (...dtypes: DType[]): Declared => ({
  deviations: dtypes.map((dtype) => ({
    dtypes: [dtype],
    kind: 'sample',
    reason:
      `PyTorch 1.13 has no CPU ${dtype} kernel for this op (it raises "not implemented for ` +
      `'${dtype === 'float16' ? 'Half' : 'BFloat16'}'"); the runtime computes it in float32 and rounds once, ` +
      "as PyTorch's CUDA kernel and later CPU releases do",
  })),
});

/**
 * The adaptive poolings whose kernel PyTorch 1.13 lacks for a dtype: only the samples that reach the kernel
 * (named `windows ...`) differ; an all-ones output takes aten's mean, which has them.
 */
const noPoolKernel = (...dtypes: DType[]): Declared => ({
  deviations: noCpuKernel(...dtypes).deviations!.map((d) => ({ ...d, sample: 'windows' })),
});

const COMPLEX_TO_BOOL: Declared = {
  deviations: [
    {
      dtypes: ['complex64', 'complex128'],
      reason:
        'PyTorch 1.13 tests a complex element through its real part only (it warns "Casting complex values to ' +
        'real discards the imaginary part"): all([-2j, 3]) is False; the runtime counts an element with any ' +
        'nonzero part as true, as NumPy, Python and later PyTorch releases do',
    },
  ],
};

const COMPLEX_BLAS_DOT: Declared = {
  deviations: [
    {
      dtypes: ['complex64', 'complex128'],
      sample: '] @ [',
      reason:
        "Debian's PyTorch 1.13.1 (the recording build) links the generic reference BLAS, whose complex dot " +
        "(cdotu/zdotu) returns 0 through PyTorch's calling convention: torch.dot of complex vectors is 0+0j; the " +
        'runtime returns the dot product (checked by the reference oracle)',
    },
  ],
};

/**
 * PyTorch 1.13's CPU bfloat16 products (mm, bmm, matmul, mv, dot: its gemm / gemv / dot loops without oneDNN's
 * bfloat16 gemm) add each product into a bfloat16 sum, rounded to 8 significant bits every step; the runtime
 * accumulates in float64 and rounds once (held to the default bfloat16 tolerance by the reference oracle). The
 * loose golden tolerance goes only to the ops whose recorded samples need it (bmm, matmul, dot).
 */
const BF16_PRODUCTS: Declared = {
  tolerances: {
    bfloat16: {
      rtol: 1.6e-2,
      atol: 1e-1,
      reason:
        "PyTorch 1.13's CPU bfloat16 products accumulate in bfloat16: each of k - 1 adds rounds the partial sum " +
        '(about 2^-9 of |partial| <= 72 on k <= 8 samples); the runtime accumulates in float64 and rounds once',
    },
  },
  deviations: [
    {
      dtypes: ['bfloat16'],
      sample: LONG_K,
      kind: 'sample',
      // Expanded, the long-k operand repeats its first element: no 256 to swallow the ones.
      layouts: LAYOUTS.filter((l) => l !== 'expanded'),
      reason:
        "PyTorch 1.13's CPU bfloat16 products accumulate in bfloat16: 256 plus 63 ones stays 256 (each +1 rounds " +
        'away), where the runtime gives the sum 319 rounded once, 320',
    },
    {
      dtypes: ['bfloat16'],
      sample: CANCELLING_K,
      kind: 'sample',
      layouts: LAYOUTS.filter((l) => l !== 'expanded'),
      reason:
        "PyTorch 1.13's CPU bfloat16 products accumulate in bfloat16: 2^24 + 1 rounds back to 2^24, so " +
        '2^24 + 1 - 2^24 gives 0, where the runtime gives the exact sum, 1',
    },
  ],
};

const HALF_NORM: Declared = {
  deviations: [
    {
      dtypes: ['float16'],
      sample: 'specials',
      reason:
        "PyTorch 1.13's CPU norm accumulates a float16 input's squares in float16, so it overflows to inf where " +
        'the norm itself fits (|[100, 1e4]| = 1e4); the runtime accumulates in float32',
    },
  ],
  tolerances: {
    float16: {
      rtol: 4e-3,
      atol: 1e-5,
      reason:
        "PyTorch 1.13's CPU norm accumulates float16 powers in float16 (a few ulps off); the runtime accumulates " +
        'in float32 and rounds once',
    },
  },
};

/**
 * PyTorch's float16/bfloat16 add/sub round alpha * other to the dtype before adding: an absolute error up to half
 * an ulp of |alpha * other| (operands up to ~14 here), which cancellation can make large relative to the result.
 */
const ALPHA_ROUNDED: Declared = {
  tolerances: {
    float16: {
      rtol: 2e-3,
      atol: 4e-3,
      reason:
        "PyTorch 1.13's CPU kernel rounds alpha * other to float16 before adding (two roundings); the runtime " +
        'rounds the exact result once',
    },
    bfloat16: {
      rtol: 3.2e-2,
      atol: 3.2e-2,
      reason:
        "PyTorch 1.13's CPU kernel rounds alpha * other to bfloat16 before adding (two roundings); the runtime " +
        'rounds the exact result once',
    },
  },
};

/** Reductions over several dims of a reduced-precision input round between PyTorch's passes. */
const STAGED: Declared = {
  tolerances: {
    float16: {
      rtol: 3e-3,
      atol: 1e-5,
      reason:
        'PyTorch 1.13 reduces several dims of a float16 input in passes, rounding to float16 between them; the ' +
        'runtime accumulates in float32 and rounds once',
    },
    bfloat16: {
      rtol: 1.6e-2,
      atol: 2e-2,
      reason:
        'PyTorch 1.13 reduces several dims of a bfloat16 input in passes, rounding to bfloat16 between them; ' +
        'the runtime accumulates in float32 and rounds once',
    },
  },
};

/**
 * pdist / cdist: PyTorch 1.13's CPU kernels dispatch on float32 / float64 only (cdist's matrix-product path, taken
 * for p = 2 with compute_mode='use_mm_for_euclid_dist' or more than 25 rows, also runs bfloat16).
 */
const NO_HALF_DISTANCE: Declared = {
  deviations: (['float16', 'bfloat16'] as const).map((dtype) => ({
    dtypes: [dtype],
    kind: 'sample',
    reason:
      `PyTorch 1.13 has no CPU ${dtype} distance kernel (it raises "not implemented for ` +
      `'${dtype === 'float16' ? 'Half' : 'BFloat16'}'"); the runtime computes the differences in ${dtype} and ` +
      'their norms in float32, rounded once',
  })),
};

const nnf = (name: string) => `nn.functional.${name}`;

/** sparse=True: PyTorch returns the dense output and makes weight's gradient sparse; the runtime has no sparse tensors. */
const NO_SPARSE: Declared = {
  deviations: [
    {
      kind: 'error',
      sample: 'sparse=True',
      reason:
        'sparse=True asks for a sparse gradient of weight (torch.sparse_coo), and the runtime has no sparse ' +
        'tensors: it raises E_NOT_IMPLEMENTED rather than silently returning a dense gradient',
    },
  ],
};

/**
 * PyTorch 1.13's bfloat16 CPU transposed convolution goes to mkldnn, which checks the weight as a non-transposed
 * convolution's: it raises "Given groups=1, weight of size [2, 3, 2], expected input[1, 2, 5] to have 3 channels"
 * (or, where the channel counts happen to agree, returns a wrongly shaped result).
 */
const BF16_TRANSPOSED: GoldenDeviation = {
  dtypes: ['bfloat16'],
  kind: 'sample',
  reason:
    "PyTorch 1.13's bfloat16 CPU conv_transpose (mkldnn) checks the weight as a non-transposed convolution's and " +
    'raises a channel-count error (or returns a wrongly shaped result); the runtime computes the transposed ' +
    'convolution, accumulating in float64 and rounding once',
};

/**
 * Resampling modes whose PyTorch 1.13 CPU kernel lacks a dtype ("compute_indices_weights_nearest" not implemented
 * for 'Half'; nearest-exact and 3-d adaptive pooling for 'BFloat16'): samples are named by their mode.
 */
const noResampleKernel = (byDType: Partial<Record<DType, readonly string[]>>): Declared => ({
  deviations: Object.entries(byDType).flatMap(([dtype, modes]) =>
    modes!.map((sample) => ({
      dtypes: [dtype as DType],
      sample,
      reason:
        `PyTorch 1.13 has no CPU ${dtype} kernel for ${sample} resampling (it raises "not implemented for ` +
        `'${dtype === 'float16' ? 'Half' : 'BFloat16'}'"); the runtime resamples it as it does float32, weights and ` +
        'sums in double, rounded once',
    })),
  ),
});

/**
 * PyTorch's bfloat16 linear kernels round each weighted term and the sum to bfloat16 (the runtime: once): atol per
 * op, a few times what its recorded samples need.
 */
const bf16ResampleSums = (tol: Tolerance): Declared['tolerances'] => ({
  bfloat16: {
    ...tol,
    reason:
      "PyTorch 1.13's CPU bfloat16 linear interpolation rounds each weighted term and their sum to bfloat16 (8 " +
      'terms in trilinear), so a result that cancels is off by up to an ulp of the terms (0.06 at 9); the runtime ' +
      'sums in double and rounds once',
  },
});

/** var / std over all dims with N - correction <= 0: PyTorch 1.13's backward returns a gradient of the wrong shape. */
const fullDofGrad = (node: string): GoldenDeviation => ({
  kind: 'grad',
  dtypes: ['float64'],
  sample: 'all dims, N - correction = 0',
  reason:
    `PyTorch 1.13's backward over all dims with N - correction <= 0 returns a 0-dim gradient, which its autograd ` +
    `rejects ("${node} returned an invalid gradient ... got [] but expected shape compatible with [2, 3]"); the ` +
    'runtime gives the gradient derivatives.yaml spells out (inf, NaN where x equals the mean)',
});

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
  'nn.functional.gelu': {
    ...noCpuKernel('float16'),
    tolerances: {
      bfloat16: {
        rtol: 1.6e-2,
        atol: 5e-3,
        reason:
          "PyTorch 1.13's CPU gelu rounds a bfloat16 input's 1 + erf(x / sqrt 2) to bfloat16, which is 0 below " +
          'about -2.5: it gives 0 where the result is -1e-3; the runtime computes in float32 and rounds once',
      },
    },
  },
  eye: noCpuKernel('bfloat16'),
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
    deviations: ['reflect 1-d', 'reflect 2-d', 'replicate'].flatMap((sample) =>
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
  dot: { ...COMPLEX_BLAS_DOT, tolerances: BF16_PRODUCTS.tolerances },
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
  mm: { deviations: BF16_PRODUCTS.deviations },
  bmm: BF16_PRODUCTS,
  matmul: {
    deviations: [...COMPLEX_BLAS_DOT.deviations!, ...BF16_PRODUCTS.deviations!],
    tolerances: BF16_PRODUCTS.tolerances,
  },
  'nn.functional.linear': {
    deviations: [{ ...COMPLEX_BLAS_DOT.deviations![0], sample: '(dot)' }],
    tolerances: BF16_PRODUCTS.tolerances,
  },
  'nn.functional.pdist': NO_HALF_DISTANCE,
  cdist: NO_HALF_DISTANCE,
  'linalg.vector_norm': HALF_NORM,
  norm: HALF_NORM,
  // add's recorded samples round like PyTorch's within the default tolerances.
  sub: ALPHA_ROUNDED,
  // sum's bfloat16 samples stay within the default tolerance; mean's divide the passes' error into the result.
  sum: { tolerances: { float16: STAGED.tolerances!.float16 } },
  mean: STAGED,
  log_softmax: {
    tolerances: {
      bfloat16: {
        rtol: 6e-2,
        atol: 4e-3,
        reason:
          "PyTorch 1.13's CPU log_softmax keeps a bfloat16 input's max and log-sum in bfloat16; the runtime " +
          'computes them in float32 and rounds the result once',
      },
    },
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

/** The OpInfo with its declared deviations from PyTorch (an entry's own come first). */
export function withGoldenDeviations(info: OpInfo): OpInfo {
  const d = DECLARED[info.name];
  if (!d) return info;
  return {
    ...info,
    goldenDeviations: [...info.goldenDeviations, ...(d.deviations ?? [])],
    goldenTolerances: { ...d.tolerances, ...info.goldenTolerances },
  };
}
