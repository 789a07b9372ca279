/**
 * OpInfos for the normalization ops: batch norm (F.batch_norm and aten's native_batch_norm), instance norm, layer
 * norm (F.layer_norm and native_layer_norm), group norm and local response norm. In training, batch and instance
 * norm write their running statistics (flags.mutates). Gradient samples pass no running statistics: every float64
 * tensor of a gradient sample requires grad, and PyTorch refuses running statistics that do.
 */
import { DTYPE_GROUPS, type DType, type Tensor, tensor } from '../../src/runtime/index.ts';
import { sample } from '../families/unary.ts';
import { opInfo } from '../info.ts';
import { maker } from '../make.ts';
import {
  argOf,
  batchNormRef,
  groupNormRef,
  layerNormRef,
  localResponseNormRef,
} from '../refs/normalization.ts';
import { type RefTensor, refTensor } from '../refs/tensor.ts';
import type { ErrorInput, OpInfo, RefSample, SampleContext, SampleInput, SkipRule } from '../types.ts';

const FLOATS = DTYPE_GROUPS.floating;
type Opt = RefTensor | null;
const ofInput = (s: SampleInput) => (s.input as Tensor).dtype;

/** The running statistics a sample writes: the expanded layout makes them overlap themselves. */
const EXPANDED_STATS: SkipRule = {
  kind: 'skip',
  layout: 'expanded',
  reason:
    'the expanded layout makes the written-to running statistics internally overlapping (stride 0): the runtime ' +
    "refuses to write them, as copy_ and PyTorch's instance_norm do (PyTorch's batch_norm kernel writes each " +
    'element through, the last channel winning)',
};

const BF16_STATS = {
  bfloat16: {
    rtol: 2e-2,
    atol: 0.25,
    reason:
      "PyTorch 1.13's CPU normalization kernels round a bfloat16 input's mean, 1/std and the folded affine " +
      'coefficients (x * rstd * weight + (bias - mean * rstd * weight)) to bfloat16, so the result is off by a ' +
      'bfloat16 ulp of those larger intermediates where they cancel; the runtime computes in float32 and rounds ' +
      'once (the reference oracle holds it to the exact result)',
  },
} as const;

/** Normalizing divides x - mean by a small std: float32 rounding in the mean is amplified where rows are near constant. */
const F32_STATS = { float32: { rtol: 1e-4, atol: 1e-4 } } as const;

/** PyTorch's gradcheck checks non-differentiable outputs only when no output is differentiable; the platform's always. */
const STATS_NOT_DIFFERENTIABLE: SkipRule = {
  kind: 'skip',
  oracle: 'gradcheck',
  reason:
    'the saved mean / 1/std outputs are not differentiable (output_differentiability [True, False, False], as in ' +
    "PyTorch) yet change with the input, which this gradcheck refuses and PyTorch's (checking them only when no " +
    'output is differentiable) allows; gradgradcheck, the golden gradients and the nn.functional spelling check ' +
    'output 0',
};

const raises = (s: SampleInput, code: ErrorInput['code'], regex: RegExp): ErrorInput => ({
  sample: s,
  code,
  regex,
});

/** Tensors of a sample: values in [-9, 9]; running variances and grad-free stats positive. */
function makers(ctx: SampleContext) {
  const make = maker(ctx);
  const positive = (shape: number[]) => make(shape, { low: 0.5, high: 2 });
  // bfloat16 inputs also take float32 parameters (PyTorch's mixed-dtype batch norm).
  const f32 = maker({ ...ctx, dtype: 'float32' }, 7);
  return { make, positive, f32 };
}

/** F.batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-5). */
function batchNormSamples(ctx: SampleContext): SampleInput[] {
  const { make, positive, f32 } = makers(ctx);
  if (ctx.requiresGrad)
    return [
      sample(make([4, 3]), [null, null], { training: true }, { name: '[4, 3] training' }),
      sample(make([2, 3, 4]), [null, null, make([3]), make([3])], { training: true }, { name: 'affine' }),
    ];
  const mixed =
    ctx.dtype === 'bfloat16'
      ? [
          sample(
            make([3, 2, 2]),
            [f32([2]), f32([2], { low: 0.5, high: 2 }), f32([2]), f32([2])],
            {
              training: true,
            },
            { name: 'float32 parameters' },
          ),
        ]
      : [];
  return [
    sample(make([2, 3]), [make([3]), positive([3])], {}, { name: '[2, 3] eval' }),
    sample(
      make([2, 3, 4]),
      [make([3]), positive([3])],
      { weight: make([3]), bias: make([3]), eps: 1e-3 },
      {
        name: 'eval affine eps',
      },
    ),
    sample(
      make([3, 2, 2, 2]),
      [make([2]), positive([2]), make([2]), make([2])],
      { training: true, momentum: 0.2 },
      {
        name: 'training running stats',
      },
    ),
    sample(make([4, 3]), [null, null], { training: true }, { name: '[4, 3] training no stats' }),
    sample(
      make([2, 3, 3]),
      [make([3]), positive([3]), make([3]), make([3]), true, 0.5, 1e-4],
      {},
      {
        name: 'positional',
      },
    ),
    // aten's batch_norm returns an empty input's copy before its dtype check: only claimed dtypes get it.
    ...((FLOATS as readonly string[]).includes(ctx.dtype)
      ? [sample(make([0, 3, 2]), [make([3]), positive([3])], {}, { name: 'zero-size' })]
      : []),
    ...mixed,
  ];
}

function batchNormErrors(ctx: SampleContext): ErrorInput[] {
  const { make, positive } = makers(ctx);
  const x = make([2, 3, 4]);
  return [
    raises(
      sample(x, [make([4]), positive([4])]),
      'E_SHAPE_MISMATCH',
      /running_mean should contain 3 elements not 4/,
    ),
    raises(
      sample(x, [make([3]), positive([3])], { weight: make([4]) }),
      'E_SHAPE_MISMATCH',
      /weight should contain 3 elements not 4/,
    ),
    raises(
      sample(x, [make([3]), positive([3])], { bias: make([2]) }),
      'E_SHAPE_MISMATCH',
      /bias should contain 3 elements not 2/,
    ),
    raises(sample(x, [null, null]), 'E_INVALID_ARGUMENT', /running_mean must be defined in evaluation mode/),
    raises(
      sample(make([1, 3]), [null, null], { training: true }),
      'E_INVALID_ARGUMENT',
      /Expected more than 1 value per channel when training, got input size torch.Size\(\[1, 3\]\)/,
    ),
    raises(
      sample(
        tensor([
          [1, 2],
          [3, 4],
        ]),
        [null, null],
        { training: true },
      ),
      'E_DTYPE_UNSUPPORTED',
      /"batch_norm" not implemented for 'Long'/,
    ),
    raises(
      sample(make([2, 3]).to('float32'), [
        tensor([0, 0, 0], { dtype: 'float64' }),
        tensor([1, 1, 1], { dtype: 'float64' }),
      ]),
      'E_DTYPE_UNSUPPORTED',
      /mixed dtype \(CPU\): expect parameter to have scalar type of Float/,
    ),
    raises(
      sample(make([2, 3]).to('float64'), [
        tensor([0, 0, 0], { dtype: 'float32' }),
        tensor([1, 1, 1], { dtype: 'float32' }),
      ]),
      'E_DTYPE_UNSUPPORTED',
      /mixed dtype \(CPU\): expect input to have scalar type of BFloat16/,
    ),
  ];
}

const opt = (v: unknown) => (v ?? null) as Opt;

/** F.batch_norm and F.instance_norm share their argument order (running stats first); instance norm per sample. */
const functionalNormRef =
  (training: 'training' | 'use_input_stats', perSample: boolean) =>
  (s: RefSample): RefTensor =>
    batchNormRef({
      input: s.input,
      runningMean: opt(argOf(s, 0, 'running_mean', null)),
      runningVar: opt(argOf(s, 1, 'running_var', null)),
      weight: opt(argOf(s, 2, 'weight', null)),
      bias: opt(argOf(s, 3, 'bias', null)),
      training: argOf(s, 4, training, perSample) as boolean,
      eps: argOf(s, 6, 'eps', 1e-5) as number,
      perSample,
    }).out;
const fBatchNormRef = functionalNormRef('training', false);
const instanceNormRef = functionalNormRef('use_input_stats', true);

/** native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps): all positional. */
function nativeBatchNormSamples(ctx: SampleContext): SampleInput[] {
  const { make, positive, f32 } = makers(ctx);
  const all = (
    x: Tensor,
    w: unknown,
    b: unknown,
    rm: unknown,
    rv: unknown,
    training: boolean,
    name: string,
  ) => sample(x, [w, b, rm, rv, training, 0.1, 1e-5], {}, { name });
  if (ctx.requiresGrad)
    return [
      all(make([4, 3]), null, null, null, null, true, 'training'),
      all(make([2, 3, 2]), make([3]), make([3]), null, null, true, 'training affine'),
    ];
  return [
    all(make([2, 3]), null, null, make([3]), positive([3]), false, 'eval'),
    all(make([2, 3, 4]), make([3]), make([3]), make([3]), positive([3]), false, 'eval affine'),
    all(make([3, 2, 2]), make([2]), make([2]), make([2]), positive([2]), true, 'training running stats'),
    all(make([4, 3]), null, null, null, null, true, 'training no stats'),
    ...(ctx.dtype === 'bfloat16'
      ? [
          all(
            make([3, 2]),
            f32([2]),
            null,
            f32([2]),
            f32([2], { low: 0.5, high: 2 }),
            true,
            'float32 parameters',
          ),
        ]
      : []),
  ];
}

function nativeBatchNormRef(s: RefSample): RefTensor[] {
  const [w, b, rm, rv, training, , eps] = s.args as [Opt, Opt, Opt, Opt, boolean, number, number];
  const r = batchNormRef({
    input: s.input,
    weight: w,
    bias: b,
    runningMean: rm,
    runningVar: rv,
    training,
    eps,
    perSample: false,
  });
  const statDType: DType = [w, b, rm, rv].find((p) => p && p.dtype !== s.input.dtype)?.dtype ?? s.input.dtype;
  const C = s.input.shape[1];
  const n = training ? C : 0;
  return [r.out, refTensor([n], statDType, r.mean), refTensor([n], statDType, r.invstd)];
}

/** F.instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True, ...). */
function instanceNormSamples(ctx: SampleContext): SampleInput[] {
  const { make, positive } = makers(ctx);
  if (ctx.requiresGrad)
    return [
      sample(make([2, 3, 4]), [], {}, { name: '[2, 3, 4]' }),
      sample(make([2, 2, 2, 2]), [], { weight: make([2]), bias: make([2]) }, { name: 'affine' }),
    ];
  return [
    sample(make([2, 3, 4]), [], {}, { name: '[2, 3, 4]' }),
    sample(
      make([2, 2, 3, 2]),
      [make([2]), positive([2])],
      { weight: make([2]), bias: make([2]), momentum: 0.3 },
      {
        name: 'running stats affine',
      },
    ),
    sample(
      make([2, 3, 4]),
      [make([3]), positive([3])],
      { use_input_stats: false, eps: 1e-3 },
      {
        name: 'running stats only',
      },
    ),
    sample(make([1, 2, 5]), [null, null, make([2]), make([2]), true, 0.1, 1e-5], {}, { name: 'positional' }),
  ];
}

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

export const NN_NORMALIZATION_OPINFOS: readonly OpInfo[] = [
  opInfo({
    name: 'nn.functional.batch_norm',
    goldenTolerances: BF16_STATS,
    tolerances: F32_STATS,
    op: '_functional_batch_norm',
    family: 'normalization',
    dtypes: FLOATS,
    sampleInputs: batchNormSamples,
    ref: fBatchNormRef,
    resultDType: ofInput,
    errorInputs: batchNormErrors,
    flags: { mutates: true },
    skips: [EXPANDED_STATS],
  }),
  opInfo({
    name: 'native_batch_norm',
    goldenTolerances: BF16_STATS,
    tolerances: F32_STATS,
    op: 'native_batch_norm',
    family: 'normalization',
    dtypes: FLOATS,
    sampleInputs: nativeBatchNormSamples,
    ref: nativeBatchNormRef,
    resultDType: ofInput,
    flags: { mutates: true },
    skips: [EXPANDED_STATS, STATS_NOT_DIFFERENTIABLE],
  }),
  opInfo({
    name: 'nn.functional.instance_norm',
    goldenTolerances: BF16_STATS,
    tolerances: F32_STATS,
    op: '_functional_instance_norm',
    family: 'normalization',
    dtypes: FLOATS,
    sampleInputs: instanceNormSamples,
    ref: instanceNormRef,
    resultDType: ofInput,
    errorInputs: (ctx) => {
      const make = maker(ctx);
      return [
        raises(
          sample(make([2, 3, 1]), []),
          'E_INVALID_ARGUMENT',
          /Expected more than 1 spatial element when training, got input size torch.Size\(\[2, 3, 1\]\)/,
        ),
        raises(
          sample(make([2, 3, 4]), [], { use_input_stats: false }),
          'E_INVALID_ARGUMENT',
          /Expected running_mean and running_var to be defined when use_input_stats is false/,
        ),
        raises(
          sample(make([2, 3, 4]), [make([4]), make([4])]),
          'E_SHAPE_MISMATCH',
          /running_mean should contain 6 elements not 8/,
        ),
      ];
    },
    flags: { mutates: true },
    skips: [EXPANDED_STATS],
  }),
  opInfo({
    name: 'nn.functional.layer_norm',
    goldenTolerances: BF16_STATS,
    tolerances: F32_STATS,
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
    goldenTolerances: BF16_STATS,
    tolerances: F32_STATS,
    op: 'native_layer_norm',
    family: 'normalization',
    dtypes: FLOATS,
    sampleInputs: nativeLayerNormSamples,
    ref: layerNormRef,
    resultDType: ofInput,
    skips: [STATS_NOT_DIFFERENTIABLE],
  }),
  opInfo({
    name: 'nn.functional.group_norm',
    goldenTolerances: BF16_STATS,
    tolerances: F32_STATS,
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
