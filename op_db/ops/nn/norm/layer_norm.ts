/** OpInfos for layer norm (F.layer_norm and aten's native_layer_norm), group norm and local response norm. */
import { DTYPE_GROUPS, tensor } from '../../../../src/runtime/index.ts';
import { ofInput, raises, STATS_NOT_DIFFERENTIABLE } from '../../../families/normalization.ts';
import { sample } from '../../../families/unary.ts';
import { opInfo } from '../../../info.ts';
import { maker } from '../../../make.ts';
import { groupNormRef, layerNormRef, localResponseNormRef } from '../../../refs/normalization.ts';
import type { ErrorInput, OpInfo, SampleContext, SampleInput } from '../../../types.ts';

const FLOATS = DTYPE_GROUPS.floating;

/** F.layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5); cudnn_enable only through aten. */
function layerNormSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  return [
    sample(make([2, 3]), [[3]], {}, { name: '[2, 3] [3]' }),
    sample(
      make([2, 3, 4]),
      [[3, 4]],
      { weight: make([3, 4]), bias: make([3, 4]) },
      { name: 'affine [3, 4]' },
    ),
    sample(make([3, 4]), [[4], make([4]), null, 1e-3], {}, { name: 'weight eps positional' }),
    sample(make([5]), [[5]], { bias: make([5]) }, { name: '1-d bias' }),
    sample(make([2, 2, 3]), [[2, 2, 3]], {}, { name: 'all dims' }),
    ...(ctx.requiresGrad ? [] : [sample(make([0, 4]), [[4]], {}, { name: 'zero-size' })]),
    sample(
      make([2, 4]),
      [[4], make([4]), make([4]), 1e-5, false],
      {},
      { name: 'aten cudnn_enable', aten: true },
    ),
  ];
}

function nativeLayerNormSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  return [
    sample(make([2, 3]), [[3], null, null, 1e-5], {}, { name: '[2, 3] [3]' }),
    sample(make([2, 3, 4]), [[3, 4], make([3, 4]), make([3, 4]), 1e-5], {}, { name: 'affine [3, 4]' }),
    sample(make([4, 2, 2]), [[2], make([2]), null, 1e-3], {}, { name: 'weight eps' }),
    // Not 1-d: the expanded layout would make the row constant, whose normalization is rounding noise / sqrt(eps).
    sample(make([2, 3]), [[3], null, make([3]), 1e-5], {}, { name: 'bias' }),
    // An empty normalized shape: PyTorch gives mean 0 (its moments' start) and rstd NaN.
    ...(ctx.requiresGrad ? [] : [sample(make([2, 0]), [[0], null, null, 1e-5], {}, { name: 'empty rows' })]),
    // bfloat16 rows long enough for PyTorch's vector lanes (16), chunks (16 vectors) and their cascade (2 and 4
    // levels): the statistics' every rounding, held to PyTorch's by the golden oracle.
    ...(ctx.dtype === 'bfloat16' && !ctx.requiresGrad
      ? [
          sample(make([2, 600]), [[600], null, null, 1e-5], {}, { name: 'long rows 600' }),
          sample(make([1, 4097]), [[4097], null, null, 1e-5], {}, { name: 'long row 4097' }),
        ]
      : []),
  ];
}

function layerNormErrors(ctx: SampleContext): ErrorInput[] {
  const make = maker(ctx);
  const x = make([2, 3, 4]);
  return [
    raises(
      sample(x, [[3]]),
      'E_SHAPE_MISMATCH',
      /Given normalized_shape=\[3\], expected input with shape \[\*, 3\], but got input of size\[2, 3, 4\]/,
    ),
    raises(sample(x, [[5, 2, 3, 4]]), 'E_SHAPE_MISMATCH', /expected input with shape \[\*, 5, 2, 3, 4\]/),
    raises(
      sample(x, [[4]], { weight: make([3]) }),
      'E_SHAPE_MISMATCH',
      /Expected weight to be of same shape as normalized_shape, but got weight of shape \[3\] and normalized_shape = \[4\]/,
    ),
    raises(sample(x, [[4]], { bias: make([2, 2]) }), 'E_SHAPE_MISMATCH', /Expected bias to be of same shape/),
    raises(sample(x, [[]]), 'E_INVALID_ARGUMENT', /Expected normalized_shape to be at least 1-dimensional/),
    raises(
      sample(tensor([[1, 2]]), [[2]]),
      'E_DTYPE_UNSUPPORTED',
      /"LayerNormKernelImpl" not implemented for 'Long'/,
    ),
    raises(
      sample(make([2, 3]).to('float32'), [[3], tensor([1, 1, 1], { dtype: 'float64' })]),
      'E_DTYPE_UNSUPPORTED',
      /expected scalar type Float but found Double/,
    ),
  ];
}

/** F.group_norm(input, num_groups, weight=None, bias=None, eps=1e-5); cudnn_enabled only through aten. */
function groupNormSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  return [
    sample(make([2, 4]), [2], {}, { name: '[2, 4] 2 groups' }),
    sample(make([2, 6, 3]), [3], { weight: make([6]), bias: make([6]) }, { name: 'affine' }),
    sample(make([1, 4, 2, 2]), [1, make([4]), null, 1e-3], {}, { name: 'one group positional' }),
    sample(make([2, 3, 2]), [3], { eps: 1e-2 }, { name: 'group per channel eps' }),
    ...(ctx.requiresGrad ? [] : [sample(make([0, 4, 2]), [2], {}, { name: 'zero-size' })]),
    sample(
      make([2, 4, 2]),
      [2, make([4]), make([4]), 1e-5, false],
      {},
      { name: 'aten cudnn_enabled', aten: true },
    ),
  ];
}

function groupNormErrors(ctx: SampleContext): ErrorInput[] {
  const make = maker(ctx);
  const x = make([2, 3, 4]);
  return [
    raises(
      sample(x, [2]),
      'E_INVALID_ARGUMENT',
      /Expected number of channels in input to be divisible by num_groups, but got input of shape \[2, 3, 4\] and num_groups=2/,
    ),
    raises(
      sample(x, [3], { weight: make([2]) }),
      'E_SHAPE_MISMATCH',
      /Expected weight to be a vector of size equal to the number of channels in input, but got weight of shape \[2\] and input of shape \[2, 3, 4\]/,
    ),
    raises(
      sample(make([1, 3]), [3]),
      'E_INVALID_ARGUMENT',
      /Expected more than 1 value per channel when training, got input size \[1, 3\]/,
    ),
    raises(sample(x, [0]), 'E_ZERO_DIVISION', /integer division or modulo by zero/),
    // A 1-d input has no channel dim: PyTorch's input.size(1) is out of range.
    raises(
      sample(make([4]), [2]),
      'E_DIM_OUT_OF_RANGE',
      /Dimension out of range \(expected to be in range of \[-1, 0\], but got 1\)/,
    ),
    raises(
      sample(
        tensor([
          [1, 2],
          [3, 4],
        ]),
        [2],
      ),
      'E_DTYPE_UNSUPPORTED',
      /"GroupNormKernelImpl" not implemented for 'Long'/,
    ),
  ];
}

/** F.local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0). */
function lrnSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  return [
    sample(make([2, 3, 4]), [2], {}, { name: '[2, 3, 4] size 2' }),
    sample(make([1, 5, 3]), [3], { alpha: 0.5, beta: 1.0, k: 2.0 }, { name: 'size 3 alpha beta k' }),
    sample(make([2, 4, 2, 2]), [3, 0.01, 0.5, 1.5], {}, { name: '4-d positional' }),
    sample(make([1, 2, 2, 1, 2]), [4], { alpha: 0.1 }, { name: '5-d window past the channels' }),
    sample(make([2, 3, 2]), [1], { beta: 2.0 }, { name: 'size 1' }),
  ];
}

function lrnErrors(ctx: SampleContext): ErrorInput[] {
  const make = maker(ctx);
  return [
    raises(
      sample(make([2, 3]), [2]),
      'E_INVALID_ARGUMENT',
      /Expected 3D or higher dimensionality\s+input \(got 2 dimensions\)/,
    ),
    raises(
      sample(make([2, 3, 4]), [0]),
      'E_INVALID_ARGUMENT',
      /kernel size should be greater than zero, but got kH: 0 kW: 1/,
    ),
    raises(
      sample(make([2, 3, 4, 2]), [0]),
      'E_INVALID_ARGUMENT',
      /kernel size should be greater than zero, but got kT: 0 kH: 1 kW: 1/,
    ),
    raises(
      sample(tensor([[[1, 2]]], { dtype: 'int32' }), [2]),
      'E_DTYPE_UNSUPPORTED',
      /"avg_pool2d" not implemented for 'Int'/,
    ),
  ];
}

/**
 * bfloat16 layer_norm rounds where PyTorch 1.13's CPU kernel does (runtime ops/nn/norm/bf16.ts: row moments,
 * rstd and shift in bfloat16), so the golden oracle compares it bit for bit; against the exact reference its
 * statistics are a few bfloat16 ulps off, amplified by rstd (measured on the full tier's samples).
 */
const LAYER_NORM_BF16 = {
  // The shift -rstd * mean, rounded to bfloat16, cancels against x * rstd, and the weight scales what is left: 7.94
  // where exact math gives 7.5 (native_layer_norm's samples; largest need 0.32).
  tolerances: { bfloat16: { rtol: 1.6e-2, atol: 0.5 } },
  goldenExact: ['bfloat16'],
  skips: [
    {
      kind: 'skip',
      oracle: 'reference',
      dtype: 'bfloat16',
      layout: 'expanded',
      reason:
        "the expanded layout makes every normalized row constant: PyTorch 1.13's bfloat16 Welford steps leave a " +
        'variance of rounding noise that 1/sqrt(eps) amplifies (-1.31 where the exact result is the bias, -4.56); ' +
        'the runtime rounds the same way and the golden oracle holds it to that value bit for bit',
    },
  ],
} as const satisfies Pick<OpInfo, 'tolerances' | 'goldenExact' | 'skips'>;

export const NN_LAYER_NORM_OPINFOS: readonly OpInfo[] = [
  opInfo({
    name: 'nn.functional.layer_norm',
    // Its samples need less than native_layer_norm's (no weight as large): largest need 0.05.
    tolerances: { bfloat16: { rtol: 1.6e-2, atol: 0.1 } },
    goldenExact: LAYER_NORM_BF16.goldenExact,
    skips: [
      ...LAYER_NORM_BF16.skips,
      {
        kind: 'skip',
        oracle: 'crossbackend',
        layout: 'expanded',
        reason:
          'the expanded layout makes every normalized row constant: the output is the float32 rounding noise of ' +
          'the mean amplified by 1/sqrt(eps) (316x), which differs between summation orders (webgpu vs cpu); the ' +
          'float64 reference gives exactly the bias, and the reference oracle holds each backend to it',
      },
    ],
    op: 'layer_norm',
    family: 'normalization',
    dtypes: FLOATS,
    sampleInputs: layerNormSamples,
    ref: (s) => layerNormRef(s)[0],
    resultDType: ofInput,
    errorInputs: layerNormErrors,
  }),
  opInfo({
    name: 'native_layer_norm',
    // mean, x - mean, its square's mean and rsqrt each round to float32 (the composite's steps): a channels_last
    // input's rows, summed in another order, come out some 4 float32 ulps off.
    tolerances: { float32: { rtol: 1e-5, atol: 1e-5 }, ...LAYER_NORM_BF16.tolerances },
    goldenExact: LAYER_NORM_BF16.goldenExact,
    op: 'native_layer_norm',
    family: 'normalization',
    dtypes: FLOATS,
    sampleInputs: nativeLayerNormSamples,
    ref: layerNormRef,
    resultDType: ofInput,
    skips: [STATS_NOT_DIFFERENTIABLE, ...LAYER_NORM_BF16.skips],
  }),
  opInfo({
    name: 'nn.functional.group_norm',
    // bfloat16 rounds where PyTorch 1.13's channels-first kernel does (runtime ops/nn/norm/bf16.ts): a group of
    // two elements normalizes to 1.23 where exact math gives 1 (measured on the full tier's samples).
    tolerances: { bfloat16: { rtol: 1.6e-2, atol: 0.3 } },
    goldenExact: ['bfloat16'],
    goldenDeviations: [
      {
        dtypes: ['bfloat16'],
        layouts: ['channels_last'],
        sample: 'one group positional',
        kind: 'sample',
        reason:
          "PyTorch 1.13's channels-last group_norm kernel (a 4-d channels_last input) rounds its bfloat16 " +
          'statistics and affine steps in other places than its channels-first one, which the runtime follows ' +
          'for every layout',
      },
    ],
    op: 'group_norm',
    family: 'normalization',
    dtypes: FLOATS,
    sampleInputs: groupNormSamples,
    ref: groupNormRef,
    resultDType: ofInput,
    errorInputs: groupNormErrors,
  }),
  opInfo({
    name: 'nn.functional.local_response_norm',
    op: 'local_response_norm',
    family: 'normalization',
    dtypes: [...FLOATS, 'int64'],
    sampleInputs: lrnSamples,
    ref: localResponseNormRef,
    resultDType: (s) => (ofInput(s) === 'int64' ? 'float32' : ofInput(s)),
    errorInputs: lrnErrors,
    flags: { promotesIntToFloat: true },
    // Python rounds each step to float16 (the window average once): a float16 ulp off the exact result.
    tolerances: { float16: { rtol: 2e-3, atol: 1e-5 } },
  }),
];
