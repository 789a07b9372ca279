/**
 * OpInfos for the classification losses: nn.functional.nll_loss, cross_entropy, binary_cross_entropy and
 * binary_cross_entropy_with_logits (references in refs/loss.ts). Samples combine the reductions, the legacy
 * arguments, class weights, ignore_index, label smoothing, class-probability targets and 1-d to 4-d inputs.
 * PyTorch 1.13 has no derivative for the class weights (nor pos_weight): gradient samples leave them out.
 */
import type { DType, Tensor } from '../../../../src/runtime/index.ts';
import { claims, exact, indexOf } from '../../../families/shape.ts';
import { sample } from '../../../families/unary.ts';
import { opInfo } from '../../../info.ts';
import { maker } from '../../../make.ts';
import { bceRef, bceWithLogitsRef, crossEntropyRef, nllRef } from '../../../refs/loss.ts';
import type { OpInfo, SampleContext, SampleInput } from '../../../types.ts';
import { bceErrors, bceLogitsErrors, crossEntropyErrors, nllErrors } from './class_errors.ts';

const _ARG = 'E_INVALID_ARGUMENT';
const _DTYPE = 'E_DTYPE_UNSUPPORTED';
const _SHAPE = 'E_SHAPE_MISMATCH';
const _INDEX = 'E_INDEX_OUT_OF_RANGE';
const ALL_FLOATS: readonly DType[] = ['float16', 'bfloat16', 'float32', 'float64'];
const CE_DTYPES: readonly DType[] = ['bfloat16', 'float32', 'float64'];
const ofInput = (s: SampleInput) => (s.input as Tensor).dtype;
/** log_softmax and several roundings per element, then a sum that may cancel. */
const ROUNDED_STEPS = {
  float16: { rtol: 5e-3, atol: 1e-5 },
  bfloat16: { rtol: 4e-2, atol: 1e-5 },
} as const;

/** Samples shared by nll_loss and cross_entropy (class-index targets); `extra` adds each op's own arguments. */
function classSamples(
  ctx: SampleContext,
  extra: (i: number) => Record<string, unknown>,
  nll: boolean,
): SampleInput[] {
  const make = maker(ctx);
  const idx = (values: number[], shape: number[]) => indexOf(ctx, values, shape);
  const grad = [
    sample(make([3, 4]), [idx([0, 3, 1], [3])], { ...extra(0) }, { name: '[3, 4] mean' }),
    sample(
      make([2, 3, 2, 2]),
      [idx([0, 1, 2, 1, 1, 0, 2, 2], [2, 2, 2])],
      { reduction: 'none', ignore_index: 1, ...extra(1) },
      { name: '4-d, none, ignore_index' },
    ),
    sample(make([4]), [idx([2], [])], { reduction: 'sum', ...extra(2) }, { name: 'unbatched, sum' }),
    sample(
      make([2, 3, 4]),
      [idx([0, 2, 1, 1, 2, 0, 0, 1], [2, 4])],
      { size_average: false, ...extra(3) },
      { name: '3-d, legacy sum' },
    ),
  ];
  if (ctx.requiresGrad) return grad;
  return [
    ...grad,
    sample(
      make([3, 4]),
      [idx([0, 2, 3], [3])],
      { weight: make([4], { low: 0.5, high: 2 }), ignore_index: 2, ...extra(4) },
      { name: 'weight, ignore_index' },
    ),
    // nll_loss's own (cross_entropy reaches the same nll_loss_nd after its log_softmax).
    ...(nll
      ? [
          sample(
            make([2, 3, 2, 1]),
            [exact(ctx, [2, 0, 1, 1], [2, 2, 1], 'int64')],
            { weight: make([3], { low: 0.5, high: 2 }), reduction: 'sum', reduce: false },
            { name: '4-d weight, legacy none' },
          ),
          sample(make([0, 4]), [idx([], [0])], {}, { name: 'zero-size' }),
        ]
      : []),
    sample(make([3, 4]), [idx([1, 1, 1], [3])], { ignore_index: 1 }, { name: 'all ignored' }),
  ];
}

function nllSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  return [
    ...classSamples(ctx, () => ({}), true),
    ...(ctx.requiresGrad
      ? []
      : [
          sample(
            make([2, 3]),
            [exact(ctx, [2, 0], [2], 'uint8')],
            { weight: make([3]) },
            { name: 'uint8 target' },
          ),
        ]),
  ];
}

function crossEntropySamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const probs = (shape: number[]) => make(shape, { low: 0, high: 1 });
  const smoothing = [0, 0.1, 0, 0.3, 0.2];
  return [
    ...classSamples(ctx, (i) => (smoothing[i] ? { label_smoothing: smoothing[i] } : {}), false),
    sample(
      make([3, 4]),
      [probs([3, 4])],
      { weight: make([4], { low: 0.5, high: 2 }), reduction: 'sum', label_smoothing: 0.2 },
      { name: 'probabilities, weight, smoothing' },
    ),
    sample(make([2, 3, 2]), [probs([2, 3, 2])], { reduction: 'none' }, { name: 'probabilities, 3-d, none' }),
    sample(make([4]), [probs([4])], {}, { name: 'probabilities, unbatched' }),
    // The legacy reduce= flag on its own (reduce=True with size_average unset: the mean).
    sample(
      make([3, 4]),
      [exact(ctx, [1, 0, 3], [3], 'int64')],
      { reduce: true },
      { name: 'legacy reduce=True' },
    ),
    // label_smoothing at its bound, 1.0 (allowed): every target weighs 1/C.
    sample(
      make([2, 3]),
      [probs([2, 3])],
      { label_smoothing: 1 },
      { name: 'probabilities, label_smoothing 1' },
    ),
    sample(
      make([2, 3]),
      [exact(ctx, [2, 0], [2], 'int64')],
      { label_smoothing: 1 },
      { name: 'label_smoothing 1' },
    ),
    // log_softmax of nothing runs no kernel, so float16 would pass: gated to the claimed dtypes.
    ...(ctx.requiresGrad || !claims(ctx, CE_DTYPES)
      ? []
      : [sample(make([0, 3]), [probs([0, 3])], {}, { name: 'probabilities, zero-size' })]),
  ];
}

function bceSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const p = (shape: number[]) => make(shape, { low: 0.1, high: 0.9 });
  const y = (shape: number[]) => make(shape, { low: 0, high: 1 });
  const grad = [
    sample(p([2, 3]), [y([2, 3])], {}, { name: '[2, 3] mean' }),
    sample(p([3, 4]), [y([3, 4])], { reduction: 'none' }, { name: 'none' }),
    sample(p([4]), [y([4])], { size_average: false }, { name: 'legacy sum' }),
  ];
  if (ctx.requiresGrad) return grad;
  return [
    ...grad,
    sample(
      p([2, 3]),
      [y([2, 3])],
      { weight: make([3]), reduction: 'sum' },
      { name: 'broadcast weight, sum' },
    ),
    sample(
      make.values([0, 1, 0, 1]),
      [make.values([0, 1, 1, 0])],
      { reduction: 'none' },
      { name: 'log clamped at -100' },
    ),
    sample(p([0, 2]), [y([0, 2])], { reduce: false }, { name: 'zero-size' }),
  ];
}

function bceLogitsSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const y = (shape: number[]) => make(shape, { low: 0, high: 1 });
  const grad = [
    sample(make([2, 3]), [y([2, 3])], {}, { name: '[2, 3] mean' }),
    sample(
      make([3, 4], { low: -30, high: 30 }),
      [y([3, 4])],
      { reduction: 'none' },
      { name: 'wide logits, none' },
    ),
    sample(make([4]), [y([4])], { size_average: false, reduce: true }, { name: 'legacy sum' }),
  ];
  if (ctx.requiresGrad) return grad;
  return [
    ...grad,
    sample(
      make([2, 3]),
      [y([2, 3])],
      { weight: make([3]), pos_weight: make([3], { low: 0.5, high: 3 }), reduction: 'sum' },
      { name: 'weight, pos_weight, sum' },
    ),
    sample(
      make([2, 3]),
      [y([2, 3])],
      { pos_weight: make([3], { low: 0.5, high: 3 }), reduction: 'none' },
      { name: 'pos_weight, none' },
    ),
    sample(make([0, 2]), [y([0, 2])], {}, { name: 'zero-size' }),
  ];
}

export const NN_LOSS_CLASS_OPINFOS: readonly OpInfo[] = [
  opInfo({
    name: 'nn.functional.nll_loss',
    op: '_functional_nll_loss',
    family: 'loss',
    dtypes: ALL_FLOATS,
    sampleInputs: nllSamples,
    errorInputs: nllErrors,
    ref: nllRef,
    resultDType: ofInput,
    tolerances: { ...ROUNDED_STEPS, float16: { rtol: 5e-3, atol: 6e-4 } },
  }),
  opInfo({
    name: 'nn.functional.cross_entropy',
    op: '_functional_cross_entropy',
    family: 'loss',
    // log_softmax has no float16 kernel in PyTorch 1.13, nor in the runtime.
    dtypes: CE_DTYPES,
    sampleInputs: crossEntropySamples,
    errorInputs: crossEntropyErrors,
    ref: crossEntropyRef,
    resultDType: ofInput,
    // Its log_softmax keeps a bfloat16 line's log-sum in bfloat16, as PyTorch 1.13's does (log_softmax's OpInfo);
    // the golden oracle compares its bfloat16 results bit for bit.
    tolerances: { bfloat16: { rtol: 4e-2, atol: 4e-3 } },
    goldenExact: ['bfloat16'],
  }),
  opInfo({
    name: 'nn.functional.binary_cross_entropy',
    op: '_functional_binary_cross_entropy',
    family: 'loss',
    dtypes: ALL_FLOATS,
    sampleInputs: bceSamples,
    errorInputs: bceErrors,
    ref: bceRef,
    resultDType: ofInput,
    tolerances: ROUNDED_STEPS,
  }),
  opInfo({
    name: 'nn.functional.binary_cross_entropy_with_logits',
    op: '_functional_binary_cross_entropy_with_logits',
    family: 'loss',
    // clamp_min has no float16 cpu kernel in PyTorch 1.13, nor in the runtime; meta checks no kernel.
    dtypes: ['bfloat16', 'float32', 'float64'],
    dtypesIf: { meta: ALL_FLOATS },
    sampleInputs: bceLogitsSamples,
    errorInputs: bceLogitsErrors,
    ref: bceWithLogitsRef,
    resultDType: ofInput,
    // Its weighted sum of rounded terms cancels (a result near 0 from terms near 1): atol too.
    tolerances: { bfloat16: { rtol: 4e-2, atol: 8e-3 } },
  }),
];
