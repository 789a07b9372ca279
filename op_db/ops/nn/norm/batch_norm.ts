/**
 * OpInfos for batch norm (F.batch_norm and aten's native_batch_norm) and instance norm. In training they write their
 * running statistics (flags.mutates; the golden oracle compares them with PyTorch's after the call). Gradient
 * samples pass no running statistics: every float64 tensor of a gradient sample requires grad, and PyTorch refuses
 * running statistics that do. Layer, group and local response norm are in nn/norm/layer_norm.ts.
 */
import { DTYPE_GROUPS, type DType, type Tensor, tensor } from '../../../../src/runtime/index.ts';
import {
  bf16Stats,
  EXPANDED_STATS,
  makers,
  type Opt,
  ofInput,
  raises,
  STATS_NOT_DIFFERENTIABLE,
} from '../../../families/normalization.ts';
import { sample } from '../../../families/unary.ts';
import { opInfo } from '../../../info.ts';
import { maker } from '../../../make.ts';
import { argOf, batchNormRef } from '../../../refs/normalization.ts';
import { type RefTensor, refTensor } from '../../../refs/tensor.ts';
import type { ErrorInput, OpInfo, RefSample, SampleContext, SampleInput } from '../../../types.ts';

const FLOATS = DTYPE_GROUPS.floating;

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
    // Running statistics are buffers: native_batch_norm's derivative refuses one that requires grad.
    raises(
      sample(x, [make([3]).requiresGrad_(true), positive([3])]),
      'E_AUTOGRAD',
      /The function 'native_batch_norm' is not differentiable with respect to argument 'running_mean'. This input cannot have requires_grad True./,
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

export const NN_NORMALIZATION_OPINFOS: readonly OpInfo[] = [
  opInfo({
    name: 'nn.functional.batch_norm',
    goldenTolerances: bf16Stats({ rtol: 2e-2, atol: 0.25 }),
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
    goldenTolerances: bf16Stats({ rtol: 2e-2, atol: 5e-3 }),
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
    goldenTolerances: bf16Stats({ rtol: 2e-2, atol: 1e-5 }),
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
];
