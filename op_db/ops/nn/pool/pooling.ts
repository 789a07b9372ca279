/**
 * OpInfos for max / average pooling and max_unpool in 1, 2 and 3 spatial dims, called with torch.nn.functional's
 * signatures. Each sample combines several arguments (stride, padding, dilation, ceil_mode, count_include_pad,
 * divisor_override, unbatched input, return_indices); gradient samples are the tiny float64 ones (random values:
 * no ties in a max window). Unpool samples carry hand-written indices, distinct within each plane.
 */
import type { DType } from '../../../../src/runtime/index.ts';
import { indexOf } from '../../../families/shape.ts';
import { sample } from '../../../families/unary.ts';
import { opInfo } from '../../../info.ts';
import { maker } from '../../../make.ts';
import type { RefSample, SampleContext, SampleInput } from '../../../types.ts';
import { atenUnpool2dErrors, poolErrors, unpoolErrors } from './pooling_errors.ts';
import { avgPoolRef, maxPoolRef, maxUnpoolAtenRef, maxUnpoolRef } from './pooling_refs.ts';

const FLOATS = ['float16', 'bfloat16', 'float32', 'float64'] as const satisfies readonly DType[];

/** NaN and -inf in the windows: NaN wins (its index is the window's last NaN), ties keep the first maximum. */
const SPECIALS = [1, Number.NaN, 3, 3, Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY, 2, Number.NaN];

function maxPool1dSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const grad = [
    sample(make([1, 2, 6]), [2, 1, 1], { return_indices: true }, { name: 'stride 1, padding 1, indices' }),
    sample(
      make([2, 7]),
      [[3]],
      { stride: [2], padding: [1], dilation: [2], ceil_mode: true },
      { name: 'unbatched, dilation, ceil' },
    ),
  ];
  if (ctx.requiresGrad) return grad;
  return [
    ...grad,
    sample(make([2, 3, 7]), [3], {}, { name: 'k=3' }),
    sample(make.values(SPECIALS, [1, 1, 8]), [2], { return_indices: true }, { name: 'nan and -inf' }),
    sample(make([0, 2, 5]), [2], {}, { name: 'empty batch' }),
  ];
}

function maxPool2dSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const grad = [
    sample(make([1, 1, 4, 4]), [2], {}, { name: 'k=2' }),
    sample(make([1, 1, 5, 4]), [2, 2, 1], { return_indices: true }, { name: 'padding 1, indices' }),
  ];
  if (ctx.requiresGrad) return grad;
  return [
    ...grad,
    sample(
      make([2, 5, 5]),
      [[3, 2]],
      { stride: [2, 1], padding: [1, 0], dilation: [1, 2], ceil_mode: true, return_indices: true },
      { name: 'unbatched, per-dim arguments, ceil' },
    ),
    sample(
      make.values(SPECIALS, [1, 1, 2, 4]),
      [2],
      { stride: 1, return_indices: true },
      { name: 'nan and -inf' },
    ),
    sample(make([0, 2, 4, 4]), [2], {}, { name: 'empty batch' }),
    // Each batch's maxima at other places: batch 1's indices written over batch 0's would show.
    sample(
      make.values([1, 5, 2, 0, 3, 4, 8, 6, 7, 0, 0, 1, 2, 3, 4, 9], [2, 1, 2, 4]),
      [2],
      { return_indices: true },
      { name: 'batch 2, indices differ per batch' },
    ),
  ];
}

function maxPool3dSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const grad = [
    sample(make([1, 1, 3, 3, 3]), [2, 1], { return_indices: true }, { name: 'stride 1, indices' }),
  ];
  if (ctx.requiresGrad) return grad;
  return [
    ...grad,
    sample(
      make([2, 2, 4, 3]),
      [[2, 2, 1]],
      { stride: [1, 2, 1], padding: [1, 0, 0], dilation: [2, 1, 1], ceil_mode: true },
      { name: 'unbatched, per-dim arguments, ceil' },
    ),
    sample(
      make.values(SPECIALS, [1, 1, 2, 2, 2]),
      [[1, 2, 2]],
      { return_indices: true },
      { name: 'nan and -inf' },
    ),
  ];
}

function avgPool1dSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const grad = [
    sample(make([1, 2, 5]), [2, 1, 1], {}, { name: 'stride 1, padding 1' }),
    sample(
      make([2, 6]),
      [[3]],
      { stride: [2], padding: [1], ceil_mode: true, count_include_pad: false },
      { name: 'unbatched, ceil, no pad count' },
    ),
  ];
  if (ctx.requiresGrad) return grad;
  return [...grad, sample(make([2, 3, 7]), [3], {}, { name: 'k=3' })];
}

function avgPool2dSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const grad = [
    sample(make([1, 1, 4, 4]), [2], {}, { name: 'k=2' }),
    sample(
      make([1, 4, 4]),
      [[3, 2]],
      { stride: [2, 1], padding: [1, 1], ceil_mode: true, count_include_pad: false },
      { name: 'unbatched, per-dim arguments, ceil, no pad count' },
    ),
  ];
  if (ctx.requiresGrad) return grad;
  return [
    ...grad,
    sample(
      make([1, 1, 5, 5]),
      [3, 2, 1],
      { ceil_mode: true, divisor_override: 2 },
      { name: 'divisor_override' },
    ),
    sample(make([0, 2, 4, 4]), [2], {}, { name: 'empty batch' }),
  ];
}

function avgPool3dSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const grad = [
    sample(
      make([1, 3, 3, 2]),
      [[2, 3, 2]],
      { stride: [1, 2, 1], padding: [1, 1, 0], ceil_mode: true, count_include_pad: false },
      { name: 'unbatched, per-dim arguments, ceil, no pad count' },
    ),
  ];
  if (ctx.requiresGrad) return grad;
  return [
    ...grad,
    sample(make([1, 1, 3, 3, 3]), [2, 1], {}, { name: 'stride 1' }),
    sample(make([1, 2, 3, 4, 3]), [3, 2, 1], { divisor_override: 3 }, { name: 'divisor_override' }),
  ];
}

function maxUnpool1dSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const idx = (v: number[], shape: number[]) => indexOf(ctx, v, shape);
  const grad = [
    sample(make([1, 2, 3]), [idx([1, 2, 5, 0, 3, 4], [1, 2, 3]), 2], {}, { name: 'k=2' }),
    sample(
      make([2, 3]),
      [idx([1, 2, 6, 0, 3, 4], [2, 3]), [2]],
      { stride: [2], padding: [0], output_size: [7] },
      { name: 'unbatched, output_size' },
    ),
  ];
  if (ctx.requiresGrad) return grad;
  return [
    ...grad,
    sample(
      make([1, 1, 3]),
      [idx([0, 2, 4], [1, 1, 3]), 3, 2, 1],
      { output_size: [1, 1, 5] },
      { name: 'padding, N and C in output_size' },
    ),
  ];
}

function maxUnpool2dSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const idx = (v: number[], shape: number[]) => indexOf(ctx, v, shape);
  const grad = [
    sample(make([1, 2, 2, 2]), [idx([1, 6, 8, 15, 4, 2, 13, 11], [1, 2, 2, 2]), 2], {}, { name: 'k=2' }),
    sample(
      make([1, 2, 3]),
      [idx([0, 4, 8, 19, 30, 44], [1, 2, 3]), [2, 3]],
      { stride: [2, 3], padding: [0, 0], output_size: [5, 9] },
      { name: 'unbatched, output_size' },
    ),
  ];
  if (ctx.requiresGrad) return grad;
  return [
    ...grad,
    sample(
      make([1, 1, 2, 2]),
      [idx([0, 2, 6, 8], [1, 1, 2, 2]), 3, 2, 1],
      { output_size: [1, 1, 3, 3] },
      { name: 'padding, N and C in output_size' },
    ),
  ];
}

function maxUnpool3dSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const idx = (v: number[], shape: number[]) => indexOf(ctx, v, shape);
  const grad = [
    sample(
      make([1, 1, 2, 2, 2]),
      [idx([0, 3, 9, 14, 21, 42, 50, 63], [1, 1, 2, 2, 2]), 2],
      {},
      { name: 'k=2' },
    ),
    sample(
      make([1, 2, 2, 1]),
      [idx([0, 7, 11, 17], [1, 2, 2, 1]), [2, 2, 2]],
      { stride: [1, 2, 1], padding: [0, 1, 0], output_size: [3, 3, 2] },
      { name: 'unbatched, padding, output_size' },
    ),
  ];
  return grad;
}

/**
 * aten::max_unpool2d itself: F's path is a scatter, but its out= variant runs the strided cpu kernel, which the
 * reference oracle's out= check reaches with every layout of self and indices (their storage offsets included).
 */
function atenMaxUnpool2dSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const idx = (v: number[], shape: number[]) => indexOf(ctx, v, shape);
  const aten = (name: string) => ({ name, aten: true });
  return [
    sample(
      make([2, 2, 2, 2]),
      [idx([0, 2, 6, 8, 1, 3, 5, 7, 4, 0, 8, 2, 7, 6, 1, 3], [2, 2, 2, 2]), [3, 3]],
      {},
      aten('batch 2, channels 2, output 3x3'),
    ),
    sample(make([2, 1, 3]), [idx([4, 0, 9, 1, 3, 11], [2, 1, 3]), [3, 4]], {}, aten('unbatched, output 3x4')),
  ];
}

/**
 * aten::max_pool2d_with_indices / max_pool3d_with_indices themselves: F's path returns fresh tensors, but the
 * `.out(out, indices)` overload writes both through the given outs' strides and offsets, which the reference
 * oracle's out= checks reach (views in the middle of a larger storage). Batch and channels above 1, so every
 * per-plane offset term moves.
 */
function atenMaxPoolSamples(nd: 2 | 3) {
  return (ctx: SampleContext): SampleInput[] => {
    const make = maker(ctx);
    const aten = (name: string) => ({ name, aten: true });
    if (nd === 2)
      return [
        sample(
          make([2, 2, 5, 4]),
          [[2, 2], [2, 1], [1, 0], [1, 1], true],
          {},
          aten('batch 2, channels 2, ceil'),
        ),
        sample(make([2, 5, 5]), [[3, 2], [2, 1], [1, 0], [1, 2], false], {}, aten('unbatched, dilation')),
      ];
    return [
      sample(
        make([2, 2, 3, 4, 3]),
        [
          [2, 2, 2],
          [1, 2, 1],
          [1, 0, 1],
        ],
        {},
        aten('batch 2, channels 2, padding'),
      ),
      sample(
        make([2, 3, 3, 4]),
        [
          [2, 1, 2],
          [2, 1, 1],
        ],
        {},
        aten('unbatched'),
      ),
    ];
  };
}

/** The aten op always returns the indices too. */
const withIndices = (nd: number) => (s: RefSample) =>
  maxPoolRef(nd)({ ...s, kwargs: { ...s.kwargs, return_indices: true } });

const common = { family: 'nn' } as const;

export const NN_POOLING_OPINFOS = [
  opInfo({
    ...common,
    name: 'nn.functional.max_pool1d',
    op: '_functional_max_pool1d',
    dtypes: FLOATS,
    sampleInputs: maxPool1dSamples,
    ref: maxPoolRef(1),
    errorInputs: poolErrors(1, 'max'),
  }),
  opInfo({
    ...common,
    name: 'nn.functional.max_pool2d',
    op: '_functional_max_pool2d',
    dtypes: FLOATS,
    sampleInputs: maxPool2dSamples,
    ref: maxPoolRef(2),
    errorInputs: poolErrors(2, 'max'),
  }),
  opInfo({
    ...common,
    name: 'nn.functional.max_pool3d',
    op: '_functional_max_pool3d',
    dtypes: FLOATS,
    sampleInputs: maxPool3dSamples,
    ref: maxPoolRef(3),
    errorInputs: poolErrors(3, 'max'),
  }),
  opInfo({
    ...common,
    name: 'nn.functional.avg_pool1d',
    op: 'avg_pool1d',
    dtypes: ['int64', ...FLOATS],
    sampleInputs: avgPool1dSamples,
    ref: avgPoolRef(1),
    errorInputs: poolErrors(1, 'avg'),
  }),
  opInfo({
    ...common,
    name: 'nn.functional.avg_pool2d',
    op: 'avg_pool2d',
    dtypes: ['int64', ...FLOATS],
    sampleInputs: avgPool2dSamples,
    ref: avgPoolRef(2),
    errorInputs: poolErrors(2, 'avg'),
  }),
  opInfo({
    ...common,
    name: 'nn.functional.avg_pool3d',
    op: 'avg_pool3d',
    dtypes: ['int64', ...FLOATS],
    sampleInputs: avgPool3dSamples,
    ref: avgPoolRef(3),
    errorInputs: poolErrors(3, 'avg'),
  }),
  opInfo({
    ...common,
    name: 'nn.functional.max_unpool1d',
    op: '_functional_max_unpool1d',
    dtypes: FLOATS,
    sampleInputs: maxUnpool1dSamples,
    ref: maxUnpoolRef(1),
    errorInputs: unpoolErrors(1),
  }),
  opInfo({
    ...common,
    name: 'nn.functional.max_unpool2d',
    op: '_functional_max_unpool2d',
    dtypes: FLOATS,
    sampleInputs: maxUnpool2dSamples,
    ref: maxUnpoolRef(2),
    errorInputs: unpoolErrors(2),
  }),
  opInfo({
    ...common,
    name: 'max_unpool2d',
    op: 'max_unpool2d',
    dtypes: FLOATS,
    unsupported: {
      webgpu:
        "max_unpool2d.out has a cpu kernel only; F.max_unpool2d's OpInfo checks the webgpu function path",
    },
    sampleInputs: atenMaxUnpool2dSamples,
    ref: maxUnpoolAtenRef(2),
    errorInputs: atenUnpool2dErrors,
  }),
  ...([2, 3] as const).map((nd) =>
    opInfo({
      ...common,
      name: `max_pool${nd}d_with_indices`,
      op: `max_pool${nd}d_with_indices`,
      dtypes: FLOATS,
      sampleInputs: atenMaxPoolSamples(nd),
      ref: withIndices(nd),
    }),
  ),
  opInfo({
    ...common,
    name: 'nn.functional.max_unpool3d',
    op: '_functional_max_unpool3d',
    dtypes: FLOATS,
    sampleInputs: maxUnpool3dSamples,
    ref: maxUnpoolRef(3),
    errorInputs: unpoolErrors(3),
  }),
];
