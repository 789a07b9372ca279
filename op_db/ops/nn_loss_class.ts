/**
 * OpInfos for the classification losses: nn.functional.nll_loss, cross_entropy, binary_cross_entropy and
 * binary_cross_entropy_with_logits (references in refs/loss.ts). Samples combine the reductions, the legacy
 * arguments, class weights, ignore_index, label smoothing, class-probability targets and 1-d to 4-d inputs.
 * PyTorch 1.13 has no derivative for the class weights (nor pos_weight): gradient samples leave them out.
 */
import type { DType, Tensor } from '../../src/runtime/index.ts';
import { claims, errorCase, exact, f32, indexOf, onValues } from '../families/shape.ts';
import { sample } from '../families/unary.ts';
import { opInfo } from '../info.ts';
import { maker } from '../make.ts';
import { bceRef, bceWithLogitsRef, crossEntropyRef, nllRef } from '../refs/loss.ts';
import type { ErrorInput, OpInfo, SampleContext, SampleInput } from '../types.ts';

const ARG = 'E_INVALID_ARGUMENT';
const DTYPE = 'E_DTYPE_UNSUPPORTED';
const SHAPE = 'E_SHAPE_MISMATCH';
const INDEX = 'E_INDEX_OUT_OF_RANGE';
const ALL_FLOATS: readonly DType[] = ['float16', 'bfloat16', 'float32', 'float64'];
const CE_DTYPES: readonly DType[] = ['bfloat16', 'float32', 'float64'];
const ofInput = (s: SampleInput) => (s.input as Tensor).dtype;
/** log_softmax and several roundings per element, then a sum that may cancel. */
const ROUNDED_STEPS = {
  float16: { rtol: 5e-3, atol: 2e-3 },
  bfloat16: { rtol: 4e-2, atol: 8e-3 },
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

/** Errors of the class-index path (nll_loss_nd and its nll_loss / nll_loss2d). */
function classErrors(ctx: SampleContext): ErrorInput[] {
  const f = f32(ctx);
  const idx = (values: number[], shape: number[]) => indexOf(ctx, values, shape);
  return [
    errorCase(
      f([3, 4]),
      [idx([0, 1], [2])],
      {},
      SHAPE,
      /Expected input batch_size \(3\) to match target batch_size \(2\)\./,
    ),
    errorCase(f([]), [idx([0], [])], {}, ARG, /Expected 1 or more dimensions \(got 0\)/),
    errorCase(
      f([3, 4]),
      [idx([0, 1, 2, 3, 0, 1], [3, 2])],
      {},
      SHAPE,
      /0D or 1D target tensor expected, multi-target not supported/,
    ),
    errorCase(f([4]), [idx([1], [1])], {}, SHAPE, /size mismatch \(got input: \[4\], target: \[1\]\)/),
    onValues(errorCase(f([3, 4]), [idx([0, 5, 1], [3])], {}, INDEX, /Target 5 is out of bounds\./)),
    onValues(errorCase(f([1, 2, 1, 1]), [idx([-1], [1, 1, 1])], {}, INDEX, /Target -1 is out of bounds\./)),
    errorCase(
      f([3, 4]),
      [exact(ctx, [0, 1, 2], [3], 'int32')],
      {},
      DTYPE,
      /expected scalar type Long but found Int/,
    ),
    errorCase(
      f([3, 4]),
      [idx([0, 1, 2], [3])],
      { weight: f([4]).double() },
      DTYPE,
      /expected scalar type Float but found Double/,
    ),
    errorCase(
      f([3, 4]),
      [idx([0, 1, 2], [3])],
      { weight: f([3]) },
      ARG,
      /weight tensor should be defined either for all 4 classes or no classes but got weight tensor of shape: \[3\]/,
    ),
    errorCase(
      f([2, 3, 4]),
      [idx(Array(10).fill(0), [2, 5])],
      {},
      SHAPE,
      /Expected target size \[2, 4\], got \[2, 5\]/,
    ),
    errorCase(
      f([2, 3, 4, 4]),
      [idx(Array(8).fill(0), [2, 4])],
      {},
      SHAPE,
      /only batches of spatial targets supported \(3D tensors\) but got targets of dimension: 2/,
    ),
    errorCase(
      f([2, 3, 2, 2]),
      [idx(Array(12).fill(0), [2, 3, 2])],
      {},
      SHAPE,
      /size mismatch \(got input: \[2, 3, 2, 2\] , target: \[2, 3, 2\]/,
    ),
    errorCase(
      f([2, 3, 2, 2]),
      [idx(Array(8).fill(0), [2, 2, 2])],
      { weight: f([2]) },
      ARG,
      /weight tensor should be defined either for all or no classes/,
    ),
    errorCase(
      f([3, 4]),
      [idx([0, 1, 2], [3])],
      { reduction: 'avg' },
      ARG,
      /avg is not a valid value for reduction/,
    ),
  ];
}

function crossEntropyErrors(ctx: SampleContext): ErrorInput[] {
  const f = f32(ctx);
  return [
    // A 0-dim input and target have the same shape: the class-probability path refuses the int64 target.
    ...classErrors(ctx).filter((e) => !e.regex.source.startsWith('Expected 1 or more')),
    errorCase(
      f([]),
      [indexOf(ctx, [0], [])],
      {},
      DTYPE,
      /Expected floating point type for target with class probabilities, got Long/,
    ),
    errorCase(
      f([2, 3]),
      [f([2, 3]).to('int64')],
      {},
      DTYPE,
      /Expected floating point type for target with class probabilities, got Long/,
    ),
    errorCase(
      f([2, 3]),
      [f([2, 3])],
      { ignore_index: 1 },
      ARG,
      /ignore_index is not supported for floating point target/,
    ),
    errorCase(
      f([2, 3]),
      [indexOf(ctx, [0, 1], [2])],
      { label_smoothing: 1.5 },
      ARG,
      /label_smoothing must be between 0\.0 and 1\.0\. Got: 1\.5/,
    ),
    errorCase(
      f([2, 3]),
      [f([2, 3])],
      { weight: f([4]) },
      ARG,
      /cross_entropy: weight tensor should be defined either for all 3 classes or no classes but got weight tensor of shape: \[4\]/,
    ),
    errorCase(f([2, 3]), [f([2])], {}, DTYPE, /expected scalar type Long but found Float/),
  ];
}

function bceErrors(ctx: SampleContext): ErrorInput[] {
  const f = (shape: number[]) => f32(ctx)(shape, { low: 0.1, high: 0.9 });
  return [
    errorCase(
      f([2, 3]),
      [f([3])],
      {},
      SHAPE,
      /Using a target size \(torch\.Size\(\[3\]\)\) that is different to the input size \(torch\.Size\(\[2, 3\]\)\) is deprecated/,
    ),
    errorCase(
      f([2, 3]),
      [f([2, 3])],
      { weight: f([4]) },
      SHAPE,
      /The size of tensor a \(3\) must match the size of tensor b \(4\)/,
    ),
    errorCase(f([2, 3]), [f([2, 3]).double()], {}, DTYPE, /Found dtype Double but expected Float/),
    errorCase(
      f([2]).to('int64'),
      [f([2]).to('int64')],
      {},
      DTYPE,
      /"binary_cross_entropy" not implemented for 'Long'/,
    ),
    errorCase(f([2]), [f([2])], { reduction: 'avg' }, ARG, /avg is not a valid value for reduction/),
    {
      ...errorCase(
        f32(ctx)([2], { low: 1.5, high: 2 }),
        [f([2])],
        {},
        ARG,
        /all elements of input should be between 0 and 1/,
      ),
      valueDependent: "depends on the input's values, which only the device reads",
    },
  ];
}

function bceLogitsErrors(ctx: SampleContext): ErrorInput[] {
  const f = f32(ctx);
  return [
    errorCase(
      f([2, 3]),
      [f([3])],
      {},
      SHAPE,
      /Target size \(torch\.Size\(\[3\]\)\) must be the same as input size \(torch\.Size\(\[2, 3\]\)\)/,
    ),
    errorCase(
      f([2, 3]),
      [f([2, 3])],
      { pos_weight: f([4]) },
      SHAPE,
      /The size of tensor a \(4\) must match the size of tensor b \(3\)/,
    ),
    errorCase(
      f([2, 3]),
      [f([2, 3])],
      { weight: f([4]) },
      SHAPE,
      /The size of tensor a \(3\) must match the size of tensor b \(4\)/,
    ),
    errorCase(
      f([2]).to('int64'),
      [f([2]).to('int64')],
      {},
      DTYPE,
      /result type Float can't be cast to the desired output type Long/,
    ),
    errorCase(f([2]), [f([2])], { reduction: 'avg' }, ARG, /avg is not a valid value for reduction/),
  ];
}

export const NN_LOSS_CLASS_OPINFOS: readonly OpInfo[] = [
  opInfo({
    name: 'nn.functional.nll_loss',
    op: '_functional_nll_loss',
    family: 'loss',
    dtypes: ALL_FLOATS,
    sampleInputs: nllSamples,
    errorInputs: classErrors,
    ref: nllRef,
    resultDType: ofInput,
    tolerances: ROUNDED_STEPS,
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
    tolerances: ROUNDED_STEPS,
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
    tolerances: ROUNDED_STEPS,
  }),
];
