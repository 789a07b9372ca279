/**
 * The kinds of deviation from PyTorch 1.13 that many OpInfos share (a missing CPU kernel, bfloat16 products
 * rounded per step, staged reductions, ...), each with the reason it is no runtime bug. deviations.ts maps
 * OpInfo names to them.
 */
import type { DType } from '../src/runtime/index.ts';
import type { GoldenDeviation, GoldenTolerance, Tolerance } from './types.ts';

export interface Declared {
  readonly deviations?: readonly GoldenDeviation[];
  readonly tolerances?: Readonly<Partial<Record<DType, GoldenTolerance>>>;
}

/** PyTorch 1.13's CPU backend has no kernel for these dtypes ("exp_vml_cpu" not implemented for 'Half'). */
export const noCpuKernel = (...dtypes: DType[]): Declared => ({
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
export const noPoolKernel = (...dtypes: DType[]): Declared => ({
  deviations: noCpuKernel(...dtypes).deviations!.map((d) => ({ ...d, sample: 'windows' })),
});

export const COMPLEX_TO_BOOL: Declared = {
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

export const COMPLEX_BLAS_DOT: Declared = {
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

export const HALF_NORM: Declared = {
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
export const ALPHA_ROUNDED: Declared = {
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
export const STAGED: Declared = {
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
export const NO_HALF_DISTANCE: Declared = {
  deviations: (['float16', 'bfloat16'] as const).map((dtype) => ({
    dtypes: [dtype],
    kind: 'sample',
    reason:
      `PyTorch 1.13 has no CPU ${dtype} distance kernel (it raises "not implemented for ` +
      `'${dtype === 'float16' ? 'Half' : 'BFloat16'}'"); the runtime computes the differences in ${dtype} and ` +
      'their norms in float32, rounded once',
  })),
};

export const nnf = (name: string) => `nn.functional.${name}`;

/** sparse=True: PyTorch returns the dense output and makes weight's gradient sparse; the runtime has no sparse tensors. */
export const NO_SPARSE: Declared = {
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
export const BF16_TRANSPOSED: GoldenDeviation = {
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
export const noResampleKernel = (byDType: Partial<Record<DType, readonly string[]>>): Declared => ({
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
export const bf16ResampleSums = (tol: Tolerance): Declared['tolerances'] => ({
  bfloat16: {
    ...tol,
    reason:
      "PyTorch 1.13's CPU bfloat16 linear interpolation rounds each weighted term and their sum to bfloat16 (8 " +
      'terms in trilinear), so a result that cancels is off by up to an ulp of the terms (0.06 at 9); the runtime ' +
      'sums in double and rounds once',
  },
});

/** var / std over all dims with N - correction = 0: PyTorch 1.13's backward returns a gradient of the wrong shape. */
export const fullDofGrad = (node: string): GoldenDeviation => ({
  kind: 'grad',
  dtypes: ['float64'],
  sample: 'all dims, N - correction = 0',
  reason:
    `PyTorch 1.13's backward over all dims with N - correction = 0 returns a 0-dim gradient, which its autograd ` +
    `rejects ("${node} returned an invalid gradient ... got [] but expected shape compatible with [2, 3]"); the ` +
    'runtime gives what 1.13 computes over a list of all dims, 2 / 0 * (x - mean): +-inf, NaN where x equals the mean',
});
