/**
 * OpInfos for nn.functional.pixel_shuffle and nn.functional.pixel_unshuffle, every dtype. The float64 reference
 * moves elements by the definition in PyTorch's docs: out[..., c, h r + i, w r + j] = in[..., c r^2 + i r + j, h, w].
 */
import { DTYPE_GROUPS, type Tensor } from '../../../../src/runtime/index.ts';
import { errorCase, f32, sample } from '../../../families/shape.ts';
import { opInfo } from '../../../info.ts';
import { maker } from '../../../make.ts';
import { numelOf, type RefTensor, refTensor, unravel } from '../../../refs/tensor.ts';
import type { ErrorInput, OpInfo, RefSample, SampleContext, SampleInput } from '../../../types.ts';

/** `shuffle`: [*, C r^2, H, W] -> [*, C, H r, W r]; else the inverse. */
function shuffleRef(x: RefTensor, r: number, shuffle: boolean): RefTensor {
  const nd = x.shape.length;
  const lead = x.shape.slice(0, nd - 3);
  const [c, h, w] = x.shape.slice(nd - 3);
  // PyTorch 1.13's pixel_unshuffle returns an empty input as it is (a clone), in the input's shape.
  if (!shuffle && numelOf(x.shape) === 0) return x;
  const shape = shuffle ? [...lead, c / (r * r), h * r, w * r] : [...lead, c * r * r, h / r, w / r];
  const n = numelOf(shape);
  const re = new Float64Array(n);
  const im = x.im ? new Float64Array(n) : null;
  for (let o = 0; o < n; o++) {
    const idx = unravel(o, shape);
    const [ch, y, xx] = idx.slice(nd - 3);
    const batch = idx.slice(0, nd - 3).reduce((f, v, d) => f * lead[d] + v, 0);
    // The input's (channel, row, column) of this element.
    const [pc, py, px] = shuffle
      ? [ch * r * r + (y % r) * r + (xx % r), Math.floor(y / r), Math.floor(xx / r)]
      : [Math.floor(ch / (r * r)), y * r + Math.floor((ch % (r * r)) / r), xx * r + (ch % r)];
    const i = ((batch * c + pc) * h + py) * w + px;
    re[o] = x.re[i];
    if (im) im[o] = x.im![i];
  }
  return refTensor(shape, x.dtype, re, im ?? undefined);
}

const factor = (s: RefSample, name: string) => Number(s.args[0] ?? s.kwargs[name]);

function shuffleSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  return [
    sample(make([1, 4, 2, 3]), [2], {}, { name: '[1, 4, 2, 3], 2' }),
    sample(make([4, 2, 1]), [], { upscale_factor: 2 }, { name: 'unbatched' }),
    sample(make([1, 2, 9, 1, 1]), [3], {}, { name: '5-d, 3' }),
    sample(make([1, 1, 2, 2]), [1], {}, { name: 'factor 1' }),
    ...(ctx.requiresGrad ? [] : [sample(make([0, 4, 1, 2]), [2], {}, { name: 'zero-size' })]),
  ];
}

function unshuffleSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  return [
    sample(make([1, 1, 4, 4]), [2], {}, { name: '[1, 1, 4, 4], 2' }),
    sample(make([1, 4, 2]), [], { downscale_factor: 2 }, { name: 'unbatched' }),
    sample(make([1, 2, 1, 3, 3]), [3], {}, { name: '5-d, 3' }),
    sample(make([1, 1, 2, 2]), [1], {}, { name: 'factor 1' }),
    ...(ctx.requiresGrad ? [] : [sample(make([0, 1, 2, 4]), [2], {}, { name: 'zero-size' })]),
  ];
}

function shuffleErrors(ctx: SampleContext): ErrorInput[] {
  const f = f32(ctx);
  return [
    errorCase(
      f([8, 3]),
      [2],
      {},
      'E_SHAPE_MISMATCH',
      /pixel_shuffle expects input to have at least 3 dimensions, but got input with 2 dimension\(s\)/,
    ),
    errorCase(
      f([1, 8, 2, 3]),
      [0],
      {},
      'E_INVALID_ARGUMENT',
      /pixel_shuffle expects a positive upscale_factor, but got 0/,
    ),
    errorCase(
      f([1, 8, 2, 3]),
      [3],
      {},
      'E_SHAPE_MISMATCH',
      /pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of upscale_factor, but input.size\(-3\)=8 is not divisible by 9/,
    ),
  ];
}

function unshuffleErrors(ctx: SampleContext): ErrorInput[] {
  const f = f32(ctx);
  return [
    errorCase(
      f([4, 6]),
      [2],
      {},
      'E_SHAPE_MISMATCH',
      /pixel_unshuffle expects input to have at least 3 dimensions, but got input with 2 dimension\(s\)/,
    ),
    errorCase(
      f([1, 2, 4, 6]),
      [-1],
      {},
      'E_INVALID_ARGUMENT',
      /pixel_unshuffle expects a positive downscale_factor, but got -1/,
    ),
    errorCase(
      f([1, 2, 3, 6]),
      [2],
      {},
      'E_SHAPE_MISMATCH',
      /pixel_unshuffle expects height to be divisible by downscale_factor, but input.size\(-2\)=3 is not divisible by 2/,
    ),
    errorCase(
      f([1, 2, 4, 5]),
      [2],
      {},
      'E_SHAPE_MISMATCH',
      /pixel_unshuffle expects width to be divisible by downscale_factor, but input.size\(-1\)=5 is not divisible by 2/,
    ),
  ];
}

const inputDType = (s: SampleInput) => (s.input as Tensor).dtype;

export const NN_PIXEL_SHUFFLE_OPINFOS: readonly OpInfo[] = [
  opInfo({
    name: 'nn.functional.pixel_shuffle',
    op: 'pixel_shuffle',
    family: 'shape',
    dtypes: DTYPE_GROUPS.all,
    sampleInputs: shuffleSamples,
    errorInputs: shuffleErrors,
    ref: (s) => shuffleRef(s.input, factor(s, 'upscale_factor'), true),
    resultDType: inputDType,
  }),
  opInfo({
    name: 'nn.functional.pixel_unshuffle',
    op: 'pixel_unshuffle',
    family: 'shape',
    dtypes: DTYPE_GROUPS.all,
    sampleInputs: unshuffleSamples,
    errorInputs: unshuffleErrors,
    ref: (s) => shuffleRef(s.input, factor(s, 'downscale_factor'), false),
    resultDType: inputDType,
  }),
];
