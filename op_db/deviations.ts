/**
 * Where the runtime knowingly differs from PyTorch 1.13 as recorded in op_db/goldens (by OpInfo name, like
 * autograd.ts's tables): the golden oracle expects these samples to differ and fails when one no longer does, and
 * docs/deviations.md (generated from this data by `npx opgate docs`) lists them. `tolerances` loosen the golden
 * comparison where PyTorch's own result is the less accurate one. Each entry says why; none hides a runtime bug
 * (those are fixed, not declared). The kinds many OpInfos share live in deviation_kinds.ts, the nn ops' entries
 * in deviations_nn.ts, the output-layout differences in deviations_layout.ts.
 */

import {
  ALPHA_ROUNDED,
  COMPLEX_BLAS_DOT,
  COMPLEX_TO_BOOL,
  type Declared,
  fullDofGrad,
  HALF_NORM,
  nnf,
  noCpuKernel,
  STAGED,
} from './deviation_kinds.ts';
import { LAYOUT_DEVIATIONS } from './deviations_layout.ts';
import { NN_DEVIATIONS } from './deviations_nn.ts';
import type { OpInfo } from './types.ts';

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
  ...NN_DEVIATIONS,
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
  all: COMPLEX_TO_BOOL,
  any: COMPLEX_TO_BOOL,
  dot: COMPLEX_BLAS_DOT,
  // mm's and mv's k <= 8 samples happen to round like PyTorch's within the default tolerance.
  matmul: COMPLEX_BLAS_DOT,
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
