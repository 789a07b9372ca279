/**
 * OpInfos for nn.functional.multi_margin_loss and multilabel_margin_loss (aten kernels of their own; references in
 * refs/loss_margin.ts). PyTorch 1.13's CPU kernels are float32 / float64 only. Samples cover both p, margin, the
 * class weight, unbatched and 0-dim inputs, the reductions and the legacy flags. A mean over no frames is left out:
 * PyTorch 1.13 returns uninitialised memory for it. Gradient samples have no weight: PyTorch has no derivative for
 * it and raises when it requires grad.
 */
import type { DType, Tensor } from '../../../../src/runtime/index.ts';
import { claims, errorCase, exact, f32, indexOf, onValues } from '../../../families/shape.ts';
import { sample } from '../../../families/unary.ts';
import { opInfo } from '../../../info.ts';
import { maker, rng } from '../../../make.ts';
import { multilabelMarginRef, multiMarginRef } from '../../../refs/loss_margin.ts';
import type { ErrorInput, OpInfo, SampleContext, SampleInput, SkipRule } from '../../../types.ts';

const DTYPES: readonly DType[] = ['float32', 'float64'];
const WEBGPU = 'the kernel reads the class targets on the host (no webgpu kernel)';

/** Class indices in [0, classes), one per frame. */
function classes(ctx: SampleContext, n: number, c: number, shape: number[] = [n]): Tensor {
  const r = rng(ctx.seed ^ 0x51);
  return indexOf(
    ctx,
    Array.from({ length: n }, () => Math.min(c - 1, Math.floor(r() * c))),
    shape,
  );
}

function multiMarginSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const weighted = ctx.requiresGrad ? {} : { weight: make([4], { low: 0.5, high: 2 }) };
  return [
    sample(make([3, 4]), [classes(ctx, 3, 4)], {}, { name: '[3, 4]' }),
    sample(make([2, 5]), [classes(ctx, 2, 5), 2, 0.5], { reduction: 'none' }, { name: 'p 2, margin 0.5' }),
    sample(make([4]), [classes(ctx, 1, 4)], { ...weighted, p: 2, reduction: 'sum' }, { name: 'unbatched' }),
    sample(
      make([3, 4]),
      [classes(ctx, 3, 4), 1, 2, weighted.weight ?? null],
      { size_average: false },
      {
        name: 'weight, margin 2, legacy sum',
      },
    ),
    sample(
      make([5]),
      [classes(ctx, 1, 5, [])],
      { reduce: false, margin: 1.5 },
      { name: '0-dim target, none' },
    ),
    sample(make([]), [classes(ctx, 1, 1, [])], { reduction: 'mean' }, { name: '0-dim' }),
    // Targets [2, 0, 3] read through their own offset and stride (column 1 of a [3, 2] matrix): the layouts
    // re-stride only the input, and the other column holds other classes.
    sample(
      make([3, 4]),
      [indexOf(ctx, [1, 2, 3, 0, 0, 3], [3, 2]).select(1, 1)],
      { reduction: 'none' },
      { name: 'target with offset and stride' },
    ),
    ...(ctx.requiresGrad || !claims(ctx, DTYPES)
      ? []
      : [sample(make([0, 4]), [classes(ctx, 0, 4)], { reduction: 'none' }, { name: 'no frames' })]),
    ...(ctx.dtype === 'float64' && !ctx.requiresGrad ? [hugeFrames(ctx, indexOf(ctx, [0, 1], [2]))] : []),
    ...(ctx.dtype === 'float64' && !ctx.requiresGrad ? [marginExactlyMet(ctx)] : []),
  ];
}

/**
 * A class exactly at the margin (z = 1 - 1.5 + 0.5 = 0) with the target's weight inf: aten adds a class's term only
 * for z > 0, so the loss is 0, where adding z = 0 times the weight would make it NaN.
 */
const marginExactlyMet = (ctx: SampleContext): SampleInput =>
  sample(
    exact(ctx, [0.5, 1.5, -2], [1, 3], 'float64'),
    [indexOf(ctx, [1], [1])],
    { weight: exact(ctx, [1, Number.POSITIVE_INFINITY, 1], [3], 'float64'), reduction: 'none' },
    { name: 'a class exactly at the margin, target weight inf' },
  );

/**
 * float64 frames whose losses (~1e300) only float64 holds: a per-frame loss kept in float32 would be inf. Frame 0's
 * target 0 is below both other classes, frame 1's target 1 above one of them. No gradient: a step of 1e-6 is lost
 * in values this large.
 */
const hugeFrames = (ctx: SampleContext, target: Tensor): SampleInput =>
  sample(
    exact(ctx, [-1e300, 2e300, 5e299, 3e300, 1e299, -2e300], [2, 3], 'float64'),
    [target],
    { reduction: 'none' },
    { name: 'losses beyond float32' },
  );

/** Each row: some distinct targets, then -1 (when fewer than C), then filler the kernel never reads. */
function labelRows(ctx: SampleContext, n: number, c: number, shape: number[] = [n, c]): Tensor {
  const r = rng(ctx.seed ^ 0x77);
  const values: number[] = [];
  for (let i = 0; i < n; i++) {
    const order = Array.from({ length: c }, (_, k) => k).sort(() => r() - 0.5);
    const row = order.slice(0, i === 0 ? c : Math.floor(r() * c));
    // A repeated target counts twice (aten loops over the target list as given).
    if (i === 1 && row.length > 0 && row.length < c) row.push(row[0]);
    if (row.length < c) row.push(-1);
    while (row.length < c) row.push(Math.floor(r() * c));
    values.push(...row);
  }
  return exact(ctx, values, shape, 'int64');
}

function multilabelSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  return [
    sample(make([3, 4]), [labelRows(ctx, 3, 4)], {}, { name: '[3, 4]' }),
    sample(make([3, 5]), [labelRows(ctx, 3, 5)], { reduction: 'none' }, { name: 'none' }),
    sample(make([4]), [labelRows(ctx, 1, 4, [4])], { reduction: 'sum' }, { name: 'unbatched' }),
    sample(
      make([2, 3]),
      [labelRows(ctx, 2, 3)],
      { size_average: true, reduce: false },
      { name: 'reduce=False' },
    ),
    sample(make([]), [indexOf(ctx, [0], [])], { size_average: false }, { name: '0-dim' }),
    // Rows [2, 0, -1] and [1, -1, 0] through their own offset and strides (rows 1-2 of the transpose of a
    // [3, 3] matrix whose row 0 is [0, 1, 2]): every stride term and the offset select other values.
    sample(
      make([2, 3]),
      [indexOf(ctx, [0, 2, 1, 1, 0, -1, 2, -1, 0], [3, 3]).t().narrow(0, 1, 2)],
      { reduction: 'none' },
      { name: 'target with offset and strides' },
    ),
    ...(ctx.requiresGrad || !claims(ctx, DTYPES)
      ? []
      : [sample(make([0, 3]), [labelRows(ctx, 0, 3)], { reduction: 'none' }, { name: 'no frames' })]),
    ...(ctx.dtype === 'float64' && !ctx.requiresGrad
      ? [hugeFrames(ctx, indexOf(ctx, [0, -1, 0, 1, -1, 0], [2, 3]))]
      : []),
  ];
}

const SHAPE = 'E_SHAPE_MISMATCH';
const DTYPE = 'E_DTYPE_UNSUPPORTED';
const ARG = 'E_INVALID_ARGUMENT';
const RANGE = 'E_INDEX_OUT_OF_RANGE';
const nonEmpty = /Expected non-empty vector or matrix with optional 0-dim batch size, but got: \[2, 3, 4\]/;

function multiMarginErrors(ctx: SampleContext): ErrorInput[] {
  const f = f32(ctx);
  const y = indexOf(ctx, [0, 3, 1], [3]);
  return [
    errorCase(f([3, 4]), [y], { p: 3 }, ARG, /only p == 1 and p == 2 supported/),
    errorCase(f([3, 4]), [y], { weight: f([2, 2]) }, ARG, /weight must be one-dimensional/),
    errorCase(f([2, 3, 4]), [indexOf(ctx, [0, 1], [2])], {}, SHAPE, nonEmpty),
    errorCase(f([3, 4]), [indexOf(ctx, [0, 1], [2])], {}, SHAPE, /inconsistent target size, got: \[2\]/),
    onValues(errorCase(f([3, 4]), [indexOf(ctx, [0, 4, 1], [3])], {}, RANGE, /target out of range/)),
    errorCase(
      f([3, 4]),
      [y],
      { weight: f([5]) },
      SHAPE,
      /inconsistent weight size, expected 4 but got \[5\]/,
      'weight of 5 for 4 classes',
    ),
    errorCase(f([3, 4]), [y.to('int32')], {}, DTYPE, /expected scalar type Long but found Int/),
    errorCase(
      f([3, 4]),
      [y],
      { weight: f([4]).double() },
      DTYPE,
      /expected scalar type Float but found Double/,
    ),
    errorCase(f([3, 4]).half(), [y], {}, DTYPE, /"multi_margin_loss_cpu_kernel" not implemented for 'Half'/),
  ];
}

function multilabelErrors(ctx: SampleContext): ErrorInput[] {
  const f = f32(ctx);
  const y = indexOf(ctx, [3, 0, -1, 1, 0, 1, 2, 3, -1, 0, 0, 0], [3, 4]);
  return [
    errorCase(f([2, 3, 4]), [indexOf(ctx, [0, 1, 0, 1, 0, 1], [2, 3])], {}, SHAPE, nonEmpty),
    errorCase(
      f([3, 4]),
      [indexOf(ctx, [0, 1, 2, 3, 0, 1, 2, 3], [2, 4])],
      {},
      SHAPE,
      /inconsistent size \[2, 4\] for argument #2 'target'/,
    ),
    onValues(
      errorCase(
        f([1, 4]),
        [indexOf(ctx, [4, 0, -1, 1], [1, 4])],
        {},
        RANGE,
        /argument #2 'target' is out of range/,
      ),
    ),
    errorCase(f([3, 4]), [y.to('int32')], {}, DTYPE, /expected scalar type Long but found Int/),
    errorCase(
      f([3, 4]).half(),
      [y],
      {},
      DTYPE,
      /"multilabel_margin_loss_forward_out_frame" not implemented for 'Half'/,
    ),
  ];
}

const inputDType = (s: SampleInput) => (s.input as Tensor).dtype;

/** PyTorch 1.13's multi_margin_loss (F's and aten's) misreads a non-contiguous class weight. */
export const MULTI_MARGIN_STRIDED_WEIGHT: SkipRule = {
  kind: 'xfail',
  oracle: 'golden',
  device: 'cpu',
  layout: 'strided',
  reason:
    "PyTorch 1.13's multi_margin_loss reads a non-contiguous weight as if it were contiguous (the data " +
    'pointer of the weight, not of weight.contiguous()): the weighted sample differs in the strided layout; ' +
    'the runtime reads the weight through its strides (the reference oracle checks it)',
};

export const NN_LOSS_MARGIN_KERNEL_OPINFOS: readonly OpInfo[] = [
  opInfo({
    name: 'nn.functional.multi_margin_loss',
    op: '_functional_multi_margin_loss',
    family: 'loss',
    dtypes: DTYPES,
    unsupported: { webgpu: WEBGPU },
    sampleInputs: multiMarginSamples,
    skips: [MULTI_MARGIN_STRIDED_WEIGHT],
    errorInputs: multiMarginErrors,
    ref: multiMarginRef,
    resultDType: inputDType,
  }),
  opInfo({
    name: 'nn.functional.multilabel_margin_loss',
    op: '_functional_multilabel_margin_loss',
    family: 'loss',
    dtypes: DTYPES,
    unsupported: { webgpu: WEBGPU },
    sampleInputs: multilabelSamples,
    errorInputs: multilabelErrors,
    ref: multilabelMarginRef,
    resultDType: inputDType,
  }),
];
