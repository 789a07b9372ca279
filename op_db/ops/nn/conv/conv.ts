/**
 * OpInfos for torch.nn.functional.conv1d / conv2d / conv3d and conv_transpose1d / 2d / 3d. A few small samples
 * each, combining stride, padding (numbers, 'same' with an even kernel, 'valid'), dilation, groups, output_padding,
 * bias or none, and an unbatched input. References: direct float64 loops (refs/conv.ts).
 */
import type { DType, Tensor } from '../../../../src/runtime/index.ts';
import { sample } from '../../../families/unary.ts';
import { opInfo } from '../../../info.ts';
import { maker } from '../../../make.ts';
import { convRef } from '../../../refs/conv.ts';
import type { OpInfo, SampleContext, SampleInput, Tolerance } from '../../../types.ts';
import { convErrors, transposedErrors } from './conv_errors.ts';

/**
 * PyTorch 1.13 CPU: slow_conv2d / compute_columns3d run every dtype but bool and float16 (float16 is computed
 * anyway, a declared deviation); the transposed kernels run float32, float64 and int64 (conv_transpose1d also
 * complex, through complex_convolution; bfloat16 is a declared deviation: PyTorch's mkldnn path misreads it).
 */
const CONV_DTYPES: readonly DType[] = [
  'float16',
  'bfloat16',
  'float32',
  'float64',
  'complex64',
  'complex128',
  'int64',
  'int32',
  'uint8',
  'int8',
  'int16',
];
const TRANSPOSED_DTYPES: readonly DType[] = ['float16', 'bfloat16', 'float32', 'float64', 'int64'];
const WEBGPU = { webgpu: ['float32'] as DType[] };
/**
 * Complex gradients need the conjugated weight and input (PyTorch's convention), and the runtime has no conj op
 * yet: complex convolutions are computed, not differentiated.
 */
const BACKWARD: readonly DType[] = ['float16', 'bfloat16', 'float32', 'float64'];

/**
 * Sums of up to ~30 products of values in [-2, 2], rounded once to a half dtype: where a sum cancels, the rounding
 * of its terms (PyTorch's float16/bfloat16 kernels round the products; the runtime's im2col rounds the columns)
 * leaves an absolute error. atol per op and dtype, calibrated to a few times the largest such error the samples
 * show (the reference oracle fails a tolerance ten times looser than that); float32 and complex keep the defaults.
 */
const TOLERANCES: Readonly<Record<string, Readonly<Partial<Record<DType, Tolerance>>>>> = {
  conv1d: { float16: { rtol: 1e-3, atol: 1e-3 }, bfloat16: { rtol: 1.6e-2, atol: 1.5e-2 } },
  conv2d: { float16: { rtol: 1e-3, atol: 1.5e-3 }, bfloat16: { rtol: 1.6e-2, atol: 6e-3 } },
  conv3d: { float16: { rtol: 1e-3, atol: 2e-3 }, bfloat16: { rtol: 1.6e-2, atol: 1.5e-2 } },
  conv_transpose1d: { float16: { rtol: 1e-3, atol: 5e-4 }, bfloat16: { rtol: 1.6e-2, atol: 1e-2 } },
  conv_transpose2d: { float16: { rtol: 1e-3, atol: 6e-3 }, bfloat16: { rtol: 1.6e-2, atol: 5e-2 } },
  conv_transpose3d: { float16: { rtol: 1e-3, atol: 2.5e-3 }, bfloat16: { rtol: 1.6e-2, atol: 2.5e-2 } },
};

type Mk = (shape: number[]) => Tensor;

function mk(ctx: SampleContext): Mk {
  const make = maker(ctx);
  return (shape) => make(shape, { low: ctx.dtype === 'uint8' ? 0 : -2, high: 2 });
}

/**
 * PyTorch 1.13 runs a dilated convolution through slow_conv_dilated, which has no int32 / int16 / int8 / uint8
 * kernel: those dtypes get the samples undilated (and an error input for the dilated call).
 */
const NOT_DILATED: readonly DType[] = ['int32', 'int16', 'int8', 'uint8'];
type Dil = <T extends number | number[]>(d: T) => T;
const dilFor =
  (ctx: SampleContext): Dil =>
  (d) =>
    (NOT_DILATED.includes(ctx.dtype) ? (Array.isArray(d) ? d.map(() => 1) : 1) : d) as typeof d;

const s = (x: Tensor, args: unknown[], kwargs: Record<string, unknown>, name: string): SampleInput =>
  sample(x, args, kwargs, { name });

const CONV_SAMPLES: Record<number, (m: Mk, dil: Dil) => SampleInput[]> = {
  1: (m, dil) => [
    s(m([1, 2, 5]), [m([3, 2, 2]), m([3])], { dilation: dil([2]) }, 'bias, dilation 2'),
    s(
      m([1, 4, 5]),
      [m([4, 2, 3])],
      { bias: null, stride: 2, padding: 1, groups: 2 },
      'groups 2, stride 2, padding 1',
    ),
    s(
      m([2, 5]),
      [m([4, 1, 2]), m([4])],
      { padding: 'same', stride: 1, groups: 2 },
      "unbatched, 'same' even kernel, groups 2",
    ),
    s(m([1, 2, 5]), [m([3, 2, 3])], { padding: 'valid', dilation: dil(2) }, "'valid', dilation 2"),
  ],
  2: (m, dil) => [
    s(m([2, 2, 3, 3]), [m([3, 2, 2, 2]), m([3]), [2, 1], [1, 0]], {}, 'bias, stride (2, 1), padding (1, 0)'),
    s(
      m([1, 4, 3, 4]),
      [m([2, 2, 3, 3])],
      { groups: 2, padding: 1, dilation: dil([1, 2]) },
      'groups 2, dilation (1, 2)',
    ),
    s(
      m([4, 4, 4]),
      [m([2, 2, 2, 3]), m([2])],
      { padding: 'same', stride: 1, dilation: dil([1, 2]), groups: 2 },
      "unbatched, 'same' even kernel, groups 2",
    ),
    s(m([1, 2, 3, 4]), [m([2, 2, 2, 2])], { padding: 'valid', bias: null }, "'valid', bias=None"),
    // Slices of bigger tensors: im2col reads the input from its storage offset, the gemm the weight from its
    // own (and the input's gradient, a transposed convolution, reads the same weight), addBias the bias.
    s(
      m([2, 2, 3, 3]).narrow(0, 1, 1),
      [m([3, 2, 2, 2]).narrow(0, 1, 2), m([3]).narrow(0, 1, 2)],
      {},
      'input, weight and bias with storage offsets',
    ),
    // A channels-last input (NHWC memory): 2-d convolutions keep that layout in their output, as PyTorch's do.
    s(m([2, 3, 3, 2]).permute([0, 3, 1, 2]), [m([3, 2, 2, 2]), m([3])], {}, 'channels-last input'),
  ],
  3: (m, dil) => [
    s(m([1, 2, 3, 3, 3]), [m([2, 2, 2, 2, 2]), m([2])], { dilation: 1 }, 'bias'),
    s(
      m([2, 3, 3, 3]),
      [m([2, 1, 2, 2, 2])],
      { groups: 2, stride: 2, padding: 1 },
      'unbatched, groups 2, stride 2',
    ),
    s(
      m([1, 2, 3, 3, 3]),
      [m([2, 1, 2, 1, 2]), m([2])],
      { padding: 'same', stride: 1, dilation: dil([1, 1, 2]), groups: 2 },
      "'same', dilation, groups 2",
    ),
  ],
};

/**
 * float64 only: four output channels (every accumulator row of the blocked gemm's 4x4 register block) whose
 * 8-term sums first reach 1e6 + 0.01, then cancel the 1e6 over the second block of four terms. An accumulator
 * narrowed to float32 loses the 0.01 (float32's spacing at 1e6 is 0.0625).
 */
function cancelling(ctx: SampleContext): SampleInput[] {
  if (ctx.dtype !== 'float64' || ctx.requiresGrad) return [];
  const make = maker(ctx);
  const x = make.values([1e6 + 0.01, 1, 2, 3, 1e6, 4, 5, 6], [1, 1, 1, 8]);
  const rows = [1, 2, 3, 4].flatMap((r) => [1, 0, 0, 0, -1, 0, 0, r]);
  return [s(x, [make.values(rows, [4, 1, 1, 8])], { bias: null }, 'float64 sums that cancel 1e6')];
}

/**
 * float32: an inf weight at the start of output channel 1 (flat index K = C * kH * kW of the weight): only that
 * channel is non-finite, so a kernel that reads one weight past a row's K (times a zero-padded input) turns
 * channel 0 into NaN.
 */
function infNeighbours(ctx: SampleContext): SampleInput[] {
  if (ctx.requiresGrad || ctx.dtype !== 'float32') return [];
  const make = maker(ctx);
  const w = Array.from({ length: 16 }, (_, i) => (i === 8 ? Number.POSITIVE_INFINITY : ((i % 5) - 2) / 4));
  return [
    s(
      make([1, 2, 3, 3], { low: 0.5, high: 2 }),
      [make.values(w, [2, 2, 2, 2])],
      { bias: null },
      'inf weight in channel 1',
    ),
    // An inf at the start of the input's batch item 1: a read one channel past C in item 0 would meet it.
    s(
      make.values(
        Array.from({ length: 36 }, (_, i) => (i === 18 ? Number.POSITIVE_INFINITY : ((i % 7) - 3) / 4)),
        [2, 2, 3, 3],
      ),
      [make([2, 2, 2, 2], { low: 0.5, high: 2 })],
      { bias: null },
      'inf input in item 1',
    ),
  ];
}

/** 520 output columns: more than one 512-column block of the blocked gemm, which float32 / float64 run. */
function longOutput(ctx: SampleContext): SampleInput[] {
  if (ctx.requiresGrad || (ctx.dtype !== 'float32' && ctx.dtype !== 'float64')) return [];
  const m = mk(ctx);
  return [s(m([1, 1, 2, 261]), [m([2, 1, 1, 2])], { bias: null }, 'long output (two column blocks)')];
}

/**
 * The last two input channels' rows of a bigger weight: the transposed kernel's gemm reads the weight from its
 * storage offset. Not on half dtypes, whose rounding of the sums the calibrated atol does not cover here.
 */
function offsetWeight(ctx: SampleContext): SampleInput[] {
  if (ctx.dtype === 'float16' || ctx.dtype === 'bfloat16') return [];
  const m = mk(ctx);
  return [s(m([1, 2, 3]), [m([3, 2, 2]).narrow(0, 1, 2)], {}, 'weight with a storage offset')];
}

const TRANSPOSED_SAMPLES: Record<number, (m: Mk, dil: Dil) => SampleInput[]> = {
  1: (m) => [
    s(m([1, 2, 5]), [m([2, 3, 2]), m([3])], {}, 'bias'),
    s(
      m([2, 4, 3]),
      [m([4, 1, 3])],
      { bias: null, groups: 2, stride: 2, padding: 1, output_padding: 1 },
      'groups 2, stride 2, output_padding 1',
    ),
    s(
      m([2, 4]),
      [m([2, 2, 2])],
      { dilation: 2, output_padding: 1 },
      'unbatched, dilation 2, output_padding 1',
    ),
    // A bias sliced from a bigger tensor, per group: the kernel adds it from its own storage offset.
    s(
      m([1, 4, 3]),
      [m([4, 1, 2]), m([3]).narrow(0, 1, 2)],
      { groups: 2 },
      'groups 2, bias with a storage offset',
    ),
  ],
  2: (m) => [
    s(m([1, 2, 3, 3]), [m([2, 3, 2, 2]), m([3])], {}, 'bias'),
    s(
      m([2, 4, 2, 3]),
      [m([4, 1, 2, 2]), null, [2, 1], [1, 0], [1, 0], 2, [1, 2]],
      {},
      'groups 2, stride (2, 1), output_padding, dilation (1, 2)',
    ),
    s(m([2, 3, 3]), [m([2, 2, 3, 3])], { padding: 1 }, 'unbatched, padding 1'),
    s(m([1, 2, 2, 2]), [m([2, 2, 2, 2]), m([3]).narrow(0, 1, 2)], {}, 'bias with a storage offset'),
  ],
  3: (m) => [
    s(m([1, 2, 2, 2, 2]), [m([2, 2, 2, 2, 2]), m([2])], { dilation: [1, 2, 1] }, 'bias, dilation'),
    s(
      m([2, 2, 2, 2]),
      [m([2, 1, 2, 2, 2])],
      { groups: 2, stride: 2, padding: 1, output_padding: 1 },
      'unbatched, groups 2, stride 2, output_padding 1',
    ),
  ],
};

function convInfo(dims: number, transposed: boolean): OpInfo {
  const name = transposed ? `conv_transpose${dims}d` : `conv${dims}d`;
  const makers = transposed ? TRANSPOSED_SAMPLES : CONV_SAMPLES;
  const dtypes = transposed
    ? dims === 1
      ? [...TRANSPOSED_DTYPES, 'complex64' as const, 'complex128' as const]
      : TRANSPOSED_DTYPES
    : CONV_DTYPES;
  const sampleInputs = (ctx: SampleContext) => [
    ...makers[dims](mk(ctx), dilFor(ctx)),
    // Not gradient samples: values of 1e6 spoil finite differences, and 521 columns make gradcheck slow.
    ...(dims === 2 && !transposed ? [...cancelling(ctx), ...longOutput(ctx), ...infNeighbours(ctx)] : []),
    ...(dims === 1 && transposed ? offsetWeight(ctx) : []),
  ];
  return opInfo({
    name: `nn.functional.${name}`,
    op: name,
    family: 'nn',
    dtypes,
    // Meta checks shapes and dtypes, not which dtypes a cpu kernel exists for.
    dtypesIf: { meta: [...CONV_DTYPES, 'bool'], ...WEBGPU },
    backwardDtypes: BACKWARD,
    sampleInputs,
    errorInputs: transposed ? transposedErrors(dims) : convErrors(dims),
    ref: convRef(dims, transposed),
    resultDType: (x) => (x.input as Tensor).dtype,
    tolerances: TOLERANCES[name],
  });
}

export const NN_CONV_OPINFOS: readonly OpInfo[] = [1, 2, 3].flatMap((d) => [
  convInfo(d, false),
  convInfo(d, true),
]);
