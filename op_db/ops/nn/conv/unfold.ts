/**
 * OpInfos for nn.functional.unfold (im2col) and nn.functional.fold (col2im), floating and complex dtypes as
 * PyTorch's cpu kernels. The float64 references walk the windows by the definition in torch.nn.Unfold's docs:
 * unfold copies each window (zeros in the padding) into a column; fold sums the columns back into the image.
 */
import { DTYPE_GROUPS, type DType, type Tensor } from '../../../../src/runtime/index.ts';
import { errorCase, f32, sample } from '../../../families/shape.ts';
import { opInfo } from '../../../info.ts';
import { maker } from '../../../make.ts';
import { type RefTensor, refTensor } from '../../../refs/tensor.ts';
import type { ErrorInput, OpInfo, RefSample, SampleContext, SampleInput } from '../../../types.ts';

const DTYPES: readonly DType[] = ['float16', 'bfloat16', 'float32', 'float64', 'complex64', 'complex128'];

const two = (v: unknown): number[] => (Array.isArray(v) ? v.map(Number) : [Number(v), Number(v)]);

interface Geometry {
  k: number[];
  d: number[];
  p: number[];
  s: number[];
}

/** F.unfold / F.fold's optional arguments, positional (after `skip` leading ones) or by keyword. */
function geometry(s: RefSample, skip: number): Geometry {
  const arg = (i: number, name: string, dflt: number) => two(s.args[skip + i] ?? s.kwargs[name] ?? dflt);
  return {
    k: arg(0, 'kernel_size', 0),
    d: arg(1, 'dilation', 1),
    p: arg(2, 'padding', 0),
    s: arg(3, 'stride', 1),
  };
}

/** Calls `visit(image index, column index)` for every in-image window element of [n, c, h, w] / [n, c kk, L]. */
function windows(
  n: number,
  c: number,
  h: number,
  w: number,
  g: Geometry,
  visit: (img: number, col: number) => void,
) {
  const blocks = (size: number, i: number) =>
    Math.floor((size + 2 * g.p[i] - g.d[i] * (g.k[i] - 1) - 1) / g.s[i]) + 1;
  const [oh, ow] = [blocks(h, 0), blocks(w, 1)];
  const kk = g.k[0] * g.k[1];
  for (let b = 0; b < n; b++)
    for (let ch = 0; ch < c; ch++)
      for (let ki = 0; ki < g.k[0]; ki++)
        for (let kj = 0; kj < g.k[1]; kj++)
          for (let y = 0; y < oh; y++)
            for (let x = 0; x < ow; x++) {
              const ih = y * g.s[0] - g.p[0] + ki * g.d[0];
              const iw = x * g.s[1] - g.p[1] + kj * g.d[1];
              const col = ((b * c * kk + (ch * g.k[0] + ki) * g.k[1] + kj) * oh + y) * ow + x;
              visit(ih >= 0 && ih < h && iw >= 0 && iw < w ? ((b * c + ch) * h + ih) * w + iw : -1, col);
            }
  return { oh, ow };
}

function unfoldRef(s: RefSample): RefTensor {
  const x = s.input;
  const g = geometry(s, 0);
  const batched = x.shape.length === 4;
  const [n, c, h, w] = batched ? x.shape : [1, ...x.shape];
  const kk = g.k[0] * g.k[1];
  const blocks = (size: number, i: number) =>
    Math.floor((size + 2 * g.p[i] - g.d[i] * (g.k[i] - 1) - 1) / g.s[i]) + 1;
  const length = blocks(h, 0) * blocks(w, 1);
  const size = n * c * kk * length;
  const re = new Float64Array(size);
  const im = x.im ? new Float64Array(size) : null;
  windows(n, c, h, w, g, (img, col) => {
    re[col] = img < 0 ? 0 : x.re[img];
    if (im) im[col] = img < 0 ? 0 : x.im![img];
  });
  const shape = batched ? [n, c * kk, length] : [c * kk, length];
  return refTensor(shape, x.dtype, re, im ?? undefined);
}

function foldRef(s: RefSample): RefTensor {
  const x = s.input;
  const [h, w] = two(s.args[0] ?? s.kwargs.output_size);
  const g = geometry(s, 1);
  const batched = x.shape.length === 3;
  const [n, planes] = batched ? x.shape : [1, ...x.shape];
  const c = planes / (g.k[0] * g.k[1]);
  const re = new Float64Array(n * c * h * w);
  const im = x.im ? new Float64Array(n * c * h * w) : null;
  windows(n, c, h, w, g, (img, col) => {
    if (img < 0) return;
    re[img] += x.re[col];
    if (im) im[img] += x.im![col];
  });
  return refTensor(batched ? [n, c, h, w] : [c, h, w], x.dtype, re, im ?? undefined);
}

function unfoldSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  return [
    sample(make([1, 2, 3, 4]), [2], {}, { name: 'kernel 2' }),
    sample(
      make([1, 4, 5]),
      [[2, 3]],
      { dilation: [1, 2], padding: [1, 0], stride: [2, 1] },
      { name: 'unbatched, dilation, padding, stride' },
    ),
    sample(make([1, 1, 3, 3]), [2, 1, 1, 2], {}, { name: 'positional, padding 1, stride 2' }),
    ...(ctx.requiresGrad ? [] : [sample(make([0, 2, 3, 3]), [2], {}, { name: 'zero batch' })]),
    // Two images: each batch element's planes start one batch stride further.
    sample(make([2, 1, 3, 3]), [2], {}, { name: 'batch 2' }),
    // The last window's right column lies in the padding at iw = W exactly (the bound's edge).
    sample(make([1, 2, 3, 4]), [[2, 3]], { padding: [0, 1] }, { name: 'width padding' }),
  ];
}

function foldSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  return [
    sample(make([1, 4, 4]), [[3, 3], 2], {}, { name: 'kernel 2, overlapping' }),
    sample(
      make([6, 3]),
      [
        [4, 5],
        [2, 3],
      ],
      { dilation: [1, 2], padding: [1, 0], stride: [2, 1] },
      { name: 'unbatched, dilation, padding, stride' },
    ),
    sample(make([1, 4, 4]), [3, 2, 1, 1, 2], {}, { name: 'positional, padding 1, stride 2' }),
    // Columns whose right tap lies at iw = W exactly, in the padding: fold must drop them (windows that do not
    // overlap, so no sum rounds).
    sample(
      make([1, 2, 9]),
      [
        [3, 4],
        [1, 2],
      ],
      { padding: [0, 1], stride: [1, 2] },
      { name: 'width padding' },
    ),
    ...(ctx.requiresGrad ? [] : [sample(make([0, 4, 4]), [[3, 3], 2], {}, { name: 'zero batch' })]),
  ];
}

const [ARG, SHAPE] = ['E_INVALID_ARGUMENT', 'E_SHAPE_MISMATCH'] as const;

function unfoldErrors(ctx: SampleContext): ErrorInput[] {
  const f = f32(ctx);
  const x = () => f([1, 2, 4, 5]);
  return [
    errorCase(
      x(),
      [6],
      {},
      SHAPE,
      /Given input with spatial size \(4, 4\), kernel_size=\(6, 6\), dilation=\(1, 1\), padding=\(0, 0\), calculated shape of the array of sliding blocks as \(-1, 0\), but its components must be at least one./,
    ),
    errorCase(
      x(),
      [0],
      {},
      ARG,
      /kernel size should be greater than zero, but got kernel_height: 0 kernel_width: 0/,
    ),
    // A zero width alone (the check is per dimension: a positive height must not let it through).
    errorCase(
      x(),
      [[2, 0]],
      {},
      ARG,
      /kernel size should be greater than zero, but got kernel_height: 2 kernel_width: 0/,
    ),
    // ... and a zero height alone, past a positive width.
    errorCase(
      x(),
      [[0, 2]],
      {},
      ARG,
      /kernel size should be greater than zero, but got kernel_height: 0 kernel_width: 2/,
    ),
    errorCase(
      x(),
      [2],
      { dilation: 0 },
      ARG,
      /dilation should be greater than zero, but got dilation_height: 0/,
    ),
    errorCase(
      x(),
      [2],
      { padding: -1 },
      ARG,
      /padding should be non-negative, but got pad_height: -1 pad_width: -1/,
    ),
    errorCase(x(), [2], { stride: 0 }, ARG, /stride should be greater than zero, but got stride_height: 0/),
    errorCase(
      f([1, 0, 4, 5]),
      [2],
      {},
      SHAPE,
      /Expected 3D or 4D \(batch mode\) tensor with possibly 0 batch size and other non-zero dimensions for input, but got: \[1, 0, 4, 5\]/,
    ),
    errorCase(
      f([4, 5]),
      [2],
      {},
      'E_DIM_OUT_OF_RANGE',
      /Dimension out of range \(expected to be in range of \[-2, 1\], but got 2\)/,
    ),
    errorCase(x().to('int64'), [2], {}, 'E_DTYPE_UNSUPPORTED', /"im2col_out_cpu" not implemented for 'Long'/),
  ];
}

function foldErrors(ctx: SampleContext): ErrorInput[] {
  const f = f32(ctx);
  return [
    errorCase(
      f([1, 1, 4, 4]),
      [[3, 3], 2],
      {},
      SHAPE,
      /Expected 2D or 3D \(batch mode\) tensor for input with possibly 0 batch size and non-zero dimensions for input, but got: \[1, 1, 4, 4\]/,
    ),
    errorCase(
      f([1, 5, 4]),
      [[3, 3], 2],
      {},
      SHAPE,
      /Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got input.size\(1\)=5 and kernel_size=\(2, 2\)./,
    ),
    errorCase(
      f([1, 4, 5]),
      [[3, 3], 2],
      {},
      SHAPE,
      /Given output_size=\(3, 3\), kernel_size=\(2, 2\), dilation=\(1, 1\), padding=\(0, 0\), stride=\(1, 1\), expected size of input's dimension 2 to match the calculated number of sliding blocks 2 \* 2 = 4, but got input.size\(2\)=5./,
    ),
    errorCase(
      f([1, 4, 4]),
      [[3, 3], 0],
      {},
      ARG,
      /kernel size should be greater than zero, but got kernel_height: 0/,
    ),
    errorCase(
      f([1, 4, 4]),
      [[3, 3], 2],
      { stride: 0 },
      ARG,
      /stride should be greater than zero, but got stride_height: 0/,
    ),
    errorCase(
      f([1, 4, 4]).to('int64'),
      [[3, 3], 2],
      {},
      'E_DTYPE_UNSUPPORTED',
      /"col2im_out_cpu" not implemented for 'Long'/,
    ),
    // A kernel wider than the output: -2 blocks each way, whose product 4 passes the input.size(2) check.
    errorCase(
      f([1, 16, 4]),
      [[1, 1], 4],
      {},
      SHAPE,
      /Given output_size=\(1, 1\), kernel_size=\(4, 4\), dilation=\(1, 1\), padding=\(0, 0\), stride=\(1, 1\), calculated shape of the array of sliding blocks as \(-2, -2\), which is too small \(non-positive\)/,
    ),
  ];
}

const inputDType = (s: SampleInput) => (s.input as Tensor).dtype;

export const NN_UNFOLD_OPINFOS: readonly OpInfo[] = [
  opInfo({
    name: 'nn.functional.unfold',
    op: '_functional_unfold',
    family: 'shape',
    dtypes: DTYPES,
    // The meta functions check shapes, not the cpu kernel's dtypes (PyTorch's meta device takes every dtype).
    dtypesIf: { meta: DTYPE_GROUPS.all },
    sampleInputs: unfoldSamples,
    errorInputs: unfoldErrors,
    ref: unfoldRef,
    resultDType: inputDType,
  }),
  opInfo({
    name: 'nn.functional.fold',
    op: '_functional_fold',
    family: 'shape',
    dtypes: DTYPES,
    // The meta functions check shapes, not the cpu kernel's dtypes (PyTorch's meta device takes every dtype).
    dtypesIf: { meta: DTYPE_GROUPS.all },
    sampleInputs: foldSamples,
    errorInputs: foldErrors,
    ref: foldRef,
    resultDType: inputDType,
  }),
];
