/**
 * OpInfos for the regression losses: nn.functional.l1_loss, mse_loss, smooth_l1_loss, huber_loss, kl_div,
 * poisson_nll_loss and gaussian_nll_loss (references in refs/loss.ts). A few samples each combine every
 * reduction, the legacy size_average / reduce, a broadcast target and each op's own arguments; gradient samples
 * come from random values, which stay away from the kinks (|x - y| = 0 or beta) with probability one.
 */
import type { DType, Tensor } from '../../../../src/runtime/index.ts';
import { claims, errorCase, f32 } from '../../../families/shape.ts';
import { sample } from '../../../families/unary.ts';
import { opInfo } from '../../../info.ts';
import { maker } from '../../../make.ts';
import { realDType } from '../../../refs/distance.ts';
import {
  gaussianNllRef,
  huberRef,
  klDivRef,
  l1Ref,
  mseRef,
  poissonNllRef,
  smoothL1Ref,
} from '../../../refs/loss.ts';
import type { ErrorInput, OpInfo, SampleContext, SampleInput } from '../../../types.ts';

const FLOATS: readonly DType[] = ['float16', 'bfloat16', 'float32', 'float64'];
const INTS: readonly DType[] = ['uint8', 'int8', 'int16', 'int32', 'int64'];
/**
 * Each loss rounds every step of its formula to a float16 / bfloat16 input's dtype, as PyTorch's composite does, and
 * the sums can cancel: a few ulps of the (smaller) result against the exact float64 loss.
 */
const ROUNDED_STEPS = {
  float16: { rtol: 5e-3, atol: 1e-5 },
  bfloat16: { rtol: 4e-2, atol: 1e-5 },
} as const;
const ARG = 'E_INVALID_ARGUMENT';
const DTYPE = 'E_DTYPE_UNSUPPORTED';
const SHAPE = 'E_SHAPE_MISMATCH';

/** The samples every pointwise loss shares, with the op's own keyword arguments `extra` mixed in. */
function pairSamples(ctx: SampleContext, extra: readonly Record<string, unknown>[] = [], legacy = true) {
  const make = maker(ctx);
  const e = (i: number) => extra[i % Math.max(extra.length, 1)] ?? {};
  // The mean of an integral loss has no dtype (l1_loss of integers is 'none' or 'sum' only).
  const first = claims(ctx, INTS) ? { reduction: 'sum' } : {};
  return [
    sample(make([2, 3]), [make([2, 3])], { ...first, ...e(0) }, { name: '[2, 3] default' }),
    sample(make([3, 4]), [make([3, 4])], { reduction: 'none', ...e(1) }, { name: 'none' }),
    // The legacy size_average=False, reduce=True is 'sum'.
    sample(
      make([2, 3]),
      [make([3])],
      { ...(legacy ? { size_average: false, reduce: true } : { reduction: 'sum' }), ...e(2) },
      { name: 'broadcast target, sum' },
    ),
    ...(ctx.requiresGrad
      ? []
      : [
          sample(make([]), [make([])], { reduction: 'none' }, { name: '0-dim' }),
          sample(make([0, 3]), [make([0, 3])], legacy ? { reduce: false } : {}, { name: 'zero-size' }),
        ]),
  ];
}

/** Errors of F's layer every pointwise loss raises the same way. */
function pairErrors(ctx: SampleContext, kernel: string | null): ErrorInput[] {
  const f = f32(ctx);
  return [
    errorCase(f([2, 3]), [f([2, 3])], { reduction: 'avg' }, ARG, /avg is not a valid value for reduction/),
    errorCase(
      f([2, 3]),
      [f([3, 3])],
      {},
      SHAPE,
      /The size of tensor a \(2\) must match the size of tensor b \(3\)/,
    ),
    ...(kernel
      ? [
          errorCase(
            f([2, 3]).to('int64'),
            [f([2, 3]).to('int64')],
            {},
            DTYPE,
            new RegExp(`"${kernel}" not implemented for 'Long'`),
          ),
        ]
      : []),
  ];
}

const ofInput = (s: SampleInput) => (s.input as Tensor).dtype;
const claimsInt = (d: DType) => INTS.includes(d);

/** |x - y| is real for complex inputs; the sum of an integral loss is int64, as every integral sum. */
function l1DType(s: SampleInput): DType {
  const d = ofInput(s);
  if (d.startsWith('complex')) return realDType(d);
  const none = s.kwargs.reduction === 'none' || s.kwargs.reduce === false;
  return claimsInt(d) && !none ? 'int64' : d;
}

function klSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const p = (shape: number[]) => make(shape, { low: 0.1, high: 1 });
  return [
    sample(make([2, 3], { low: -3, high: 0 }), [p([2, 3])], {}, { name: 'mean' }),
    sample(
      make([3, 4], { low: -3, high: 0 }),
      [p([3, 4])],
      { reduction: 'batchmean' },
      { name: 'batchmean' },
    ),
    sample(
      make([2, 3]),
      [make([2, 3], { low: -2, high: 0 })],
      { reduction: 'none', log_target: true },
      { name: 'log_target' },
    ),
    sample(make([4]), [p([4])], { reduction: 'sum', size_average: true }, { name: 'legacy, sum ignored' }),
    ...(ctx.requiresGrad
      ? []
      : [
          sample(
            make([2, 2]),
            [make.values([0, 0.5, 0, 1], [2, 2])],
            { reduction: 'none' },
            { name: 'zero target' },
          ),
          sample(make([]), [p([])], { reduction: 'batchmean' }, { name: '0-dim batchmean' }),
          sample(make([0, 3]), [p([0, 3])], { reduce: false }, { name: 'zero-size' }),
        ]),
  ];
}

function poissonSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const counts = (shape: number[]) => make(shape, { low: 0.2, high: 4 });
  return [
    sample(make([2, 3], { low: -2, high: 2 }), [counts([2, 3])], {}, { name: 'log_input' }),
    sample(
      make([3, 4], { low: 0.5, high: 3 }),
      [counts([3, 4])],
      { log_input: false, full: true, eps: 1e-4, reduction: 'none' },
      { name: 'rates, full, eps' },
    ),
    sample(
      make([2, 3], { low: -2, high: 2 }),
      [counts([3])],
      { full: true, reduction: 'sum' },
      { name: 'broadcast, full, sum' },
    ),
    sample(
      make([4], { low: -2, high: 2 }),
      [counts([4])],
      { size_average: false, reduce: true },
      { name: 'legacy sum' },
    ),
    ...(ctx.requiresGrad ? [] : [sample(make([0, 2]), [make([0, 2])], {}, { name: 'zero-size' })]),
  ];
}

function gaussianSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const v = (shape: number[]) => make(shape, { low: 0.2, high: 2 });
  return [
    sample(make([2, 3]), [make([2, 3]), v([2, 3])], {}, { name: 'per element' }),
    sample(
      make([3, 4]),
      [make([3, 4]), v([3])],
      { full: true, reduction: 'none' },
      { name: 'per row, full' },
    ),
    // var below eps is clamped under no_grad, where the gradient is not the derivative: clamped for values only.
    sample(
      make([2, 3]),
      [make([2, 3]), v([2, 1])],
      { eps: ctx.requiresGrad ? 0.1 : 0.5, reduction: 'sum' },
      { name: 'size-1 var, eps' },
    ),
    ...(ctx.requiresGrad ? [] : [sample(make([0, 2]), [make([0, 2]), v([0, 2])], {}, { name: 'zero-size' })]),
  ];
}

export const NN_LOSS_REGRESSION_OPINFOS: readonly OpInfo[] = [
  opInfo({
    name: 'nn.functional.l1_loss',
    op: '_functional_l1_loss',
    family: 'loss',
    dtypes: [...FLOATS, 'complex64', 'complex128', ...INTS],
    backwardDtypes: FLOATS,
    sampleInputs: (ctx) => pairSamples(ctx),
    errorInputs: (ctx) => [
      ...pairErrors(ctx, null),
      errorCase(
        f32(ctx)([2]).to('int32'),
        [f32(ctx)([2]).to('int32')],
        {},
        DTYPE,
        /could not infer output dtype/,
      ),
    ],
    ref: l1Ref,
    resultDType: l1DType,
    // |a - b| rounds once: the default tolerances hold.
  }),
  opInfo({
    name: 'nn.functional.mse_loss',
    op: '_functional_mse_loss',
    family: 'loss',
    dtypes: FLOATS,
    sampleInputs: (ctx) => pairSamples(ctx),
    errorInputs: (ctx) => pairErrors(ctx, 'mse_cpu'),
    ref: mseRef,
    resultDType: ofInput,
    tolerances: ROUNDED_STEPS,
  }),
  opInfo({
    name: 'nn.functional.smooth_l1_loss',
    op: '_functional_smooth_l1_loss',
    family: 'loss',
    dtypes: FLOATS,
    sampleInputs: (ctx) =>
      pairSamples(ctx, [{ beta: 0.5 }, { beta: 2 }, claims(ctx, FLOATS) ? { beta: 0 } : {}]),
    errorInputs: (ctx) => [
      ...pairErrors(ctx, 'smooth_l1_cpu'),
      errorCase(
        f32(ctx)([2]),
        [f32(ctx)([2])],
        { beta: -1 },
        ARG,
        /smooth_l1_loss does not support negative values for beta/,
      ),
    ],
    ref: smoothL1Ref,
    resultDType: ofInput,
    tolerances: ROUNDED_STEPS,
  }),
  opInfo({
    name: 'nn.functional.huber_loss',
    op: '_functional_huber_loss',
    family: 'loss',
    dtypes: FLOATS,
    sampleInputs: (ctx) => pairSamples(ctx, [{ delta: 0.5 }, { delta: 2 }, {}], false),
    errorInputs: (ctx) => [
      ...pairErrors(ctx, 'huber_cpu'),
      errorCase(
        f32(ctx)([2]),
        [f32(ctx)([2])],
        { delta: 0 },
        ARG,
        /huber_loss does not support non-positive values for delta/,
      ),
    ],
    ref: huberRef,
    resultDType: ofInput,
    tolerances: { float16: ROUNDED_STEPS.float16 },
  }),
  opInfo({
    name: 'nn.functional.kl_div',
    op: '_functional_kl_div',
    family: 'loss',
    dtypes: FLOATS,
    sampleInputs: klSamples,
    errorInputs: (ctx) => {
      const f = f32(ctx);
      return [
        errorCase(
          f([2, 3]),
          [f([2, 3])],
          { reduction: 'avg' },
          ARG,
          /avg is not a valid value for reduction/,
        ),
        errorCase(f([2]).to('int64'), [f([2])], {}, DTYPE, /kl_div: Integral inputs not supported/),
        errorCase(f([2]), [f([2]).to('complex64')], {}, DTYPE, /kl_div: Complex inputs not supported/),
        errorCase(
          f([2, 3]),
          [f([3, 3])],
          {},
          SHAPE,
          /The size of tensor a \(3\) must match the size of tensor b \(2\)/,
        ),
      ];
    },
    ref: klDivRef,
    resultDType: ofInput,
    // A batchmean of rounded terms that cancel: float16 results a few ulps off.
    tolerances: { ...ROUNDED_STEPS, float16: { rtol: 1e-2, atol: 1e-5 } },
  }),
  opInfo({
    name: 'nn.functional.poisson_nll_loss',
    op: '_functional_poisson_nll_loss',
    family: 'loss',
    dtypes: [...FLOATS, ...INTS],
    sampleInputs: poissonSamples,
    errorInputs: (ctx) => {
      const f = f32(ctx);
      return [
        errorCase(f([2, 3]), [f([2, 3])], { reduction: 'avg' }, ARG, /avg is not valid/),
        errorCase(
          f([2, 3]),
          [f([3, 3])],
          {},
          SHAPE,
          /The size of tensor a \(3\) must match the size of tensor b \(2\)/,
        ),
      ];
    },
    ref: poissonNllRef,
    resultDType: (s) => (claimsInt(ofInput(s)) ? 'float32' : ofInput(s)),
    tolerances: ROUNDED_STEPS,
  }),
  opInfo({
    name: 'nn.functional.gaussian_nll_loss',
    op: 'gaussian_nll_loss',
    family: 'loss',
    // var.clamp_ has no float16 kernel in PyTorch 1.13 ("clamp_min_cpu"), nor in the runtime.
    dtypes: ['bfloat16', 'float32', 'float64'],
    // The meta functions check shapes and dtypes, not whether clamp_min has a cpu float16 kernel.
    dtypesIf: { meta: ['float16', 'bfloat16', 'float32', 'float64'] },
    sampleInputs: gaussianSamples,
    errorInputs: (ctx) => {
      const f = f32(ctx);
      return [
        errorCase(f([2, 3]), [f([2, 3]), f([3])], {}, SHAPE, /var is of incorrect size/),
        errorCase(f([2, 3]), [f([2, 3]), f([2, 3])], { reduction: 'avg' }, ARG, /avg is not valid/),
        {
          ...errorCase(f([2]), [f([2]), f([2], { low: -2, high: -1 })], {}, ARG, /var has negative entry/),
          valueDependent: "depends on var's values, which only the device reads",
        },
        errorCase(
          f([2]),
          [f([2]), f([2]).to('complex64')],
          {},
          DTYPE,
          /"lt_cpu" not implemented for 'ComplexFloat'/,
          'complex var',
        ),
        // var.clamp_(min=eps) cannot write a float into an integral var (c10's C++ name of the dtype).
        errorCase(
          f([2]),
          [f([2]), f([2], { low: 1, high: 2 }).to('int64')],
          {},
          DTYPE,
          /result type Float can't be cast to the desired output type long int/,
          'integral var',
        ),
      ];
    },
    ref: gaussianNllRef,
    resultDType: ofInput,
    tolerances: ROUNDED_STEPS,
  }),
];
