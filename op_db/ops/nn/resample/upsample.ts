/**
 * aten-level OpInfos for upsample_nearest2d and upsample_bilinear2d: F.interpolate (nn/resample/interpolate.ts) reaches the
 * explicit overloads but never their `.out` forms, nor the `.vec` overload's own checks (Python checks first). The
 * out= checks write into a view at a storage offset (the kernel's output offset and batch / channel loops), the
 * error inputs call `.vec` with both or neither of output_size and scale_factors. float64 references written from
 * PyTorch's index formulas (nearest_idx, area_pixel_compute_source_index) over sizes whose scales are exact.
 */
import type { Tensor } from '../../../../src/runtime/index.ts';
import { errorCase, f32 } from '../../../families/shape.ts';
import { sample } from '../../../families/unary.ts';
import { opInfo } from '../../../info.ts';
import { maker } from '../../../make.ts';
import { type RefTensor, refTensor } from '../../../refs/tensor.ts';
import type { ErrorInput, OpInfo, RefSample, SampleContext, SampleInput } from '../../../types.ts';

const FLOATING = ['float16', 'bfloat16', 'float32', 'float64'] as const;
const inputDType = (s: SampleInput) => (s.input as Tensor).dtype;

/** Per output index of one dim: the (input index, weight) taps. */
type Taps = (o: number) => [number, number][];

/** aten's nearest_idx: identity, the 2x shortcut, else floor(o * scale) clamped (scale = 1 / scales or in / out). */
const nearestTaps =
  (inSize: number, outSize: number, scales: number | null): Taps =>
  (o) => {
    if (outSize === inSize) return [[o, 1]];
    if (outSize === 2 * inSize) return [[o >> 1, 1]];
    const scale = scales !== null && scales > 0 ? 1 / scales : inSize / outSize;
    return [[Math.min(Math.floor(o * scale), inSize - 1), 1]];
  };

/** aten's linear taps: the source index (align_corners or half-pixel, clamped at 0) between two neighbours. */
const linearTaps =
  (inSize: number, outSize: number, align: boolean, scales: number | null): Taps =>
  (o) => {
    const src = align
      ? outSize > 1
        ? (o * (inSize - 1)) / (outSize - 1)
        : 0
      : Math.max(0, (o + 0.5) * (scales !== null && scales > 0 ? 1 / scales : inSize / outSize) - 0.5);
    const i0 = Math.min(Math.floor(src), inSize - 1);
    const i1 = Math.min(i0 + 1, inSize - 1);
    const l = src - i0;
    return [
      [i0, 1 - l],
      [i1, l],
    ];
  };

/** x [N, C, H, W] resampled to [N, C, oh, ow] through per-dim taps. */
function resample2d(x: RefTensor, size: readonly number[], th: Taps, tw: Taps): RefTensor {
  const [n, c, h, w] = x.shape;
  const [oh, ow] = size;
  const out = new Float64Array(n * c * oh * ow);
  for (let p = 0; p < n * c; p++)
    for (let i = 0; i < oh; i++)
      for (let j = 0; j < ow; j++) {
        let v = 0;
        for (const [a, wa] of th(i)) for (const [b, wb] of tw(j)) v += wa * wb * x.re[(p * h + a) * w + b];
        out[(p * oh + i) * ow + j] = v;
      }
  return refTensor([n, c, oh, ow], x.dtype, out);
}

/** The explicit overload (self, output_size, [align_corners,] scales_h, scales_w) or .vec's scale_factors. */
function sizesOf(s: RefSample, aligned: boolean): { size: number[]; scales: (number | null)[] } {
  const [h, w] = s.input.shape.slice(2);
  const size = s.args[0] as number[] | null;
  const rest = s.args.slice(aligned ? 2 : 1);
  if (Array.isArray(rest[0])) {
    const f = rest[0] as number[];
    return { size: [Math.trunc(h * f[0]), Math.trunc(w * f[1])], scales: f };
  }
  return {
    size: size ?? [],
    scales: [(rest[0] as number | undefined) ?? null, (rest[1] as number | undefined) ?? null],
  };
}

function nearestRef(s: RefSample): RefTensor {
  const [h, w] = s.input.shape.slice(2);
  const { size, scales } = sizesOf(s, false);
  return resample2d(s.input, size, nearestTaps(h, size[0], scales[0]), nearestTaps(w, size[1], scales[1]));
}

function bilinearRef(s: RefSample): RefTensor {
  const [h, w] = s.input.shape.slice(2);
  const { size, scales } = sizesOf(s, true);
  const align = s.args[1] as boolean;
  return resample2d(
    s.input,
    size,
    linearTaps(h, size[0], align, scales[0]),
    linearTaps(w, size[1], align, scales[1]),
  );
}

function nearestSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const samples = [
    sample(make([2, 2, 2, 3]), [[4, 6]], {}, { name: '2x (the shortcut), batch 2' }),
    sample(make([1, 3, 5, 4]), [[3, 2]], {}, { name: 'down, channels 3' }),
    sample(make([1, 2, 2, 2]), [[3, 3], 1.0, null], {}, { name: 'scales_h=1 (not in / out)' }),
    sample(make([2, 1, 2, 3]), [null, [1.5, 2]], {}, { name: '.vec, scale_factors [1.5, 2]' }),
  ];
  return ctx.requiresGrad ? samples.slice(0, 2) : samples;
}

function bilinearSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const samples = [
    sample(make([2, 2, 2, 3]), [[3, 5], true], {}, { name: 'align_corners, batch 2' }),
    sample(make([1, 3, 3, 2]), [[4, 3], false], {}, { name: 'half-pixel, channels 3' }),
    sample(make([2, 1, 2, 2]), [null, false, [1.5, 2]], {}, { name: '.vec, scale_factors [1.5, 2]' }),
  ];
  return ctx.requiresGrad ? samples.slice(0, 2) : samples;
}

/** The .vec overload's own checks (F.interpolate checks the same in Python before it calls aten). */
function vecErrors(aligned: boolean) {
  return (ctx: SampleContext): ErrorInput[] => {
    const x = f32(ctx)([1, 2, 2, 2]);
    const align = aligned ? [false] : [];
    const both = /Must specify exactly one of output_size and scale_factors/;
    return [
      errorCase(
        x,
        [[4, 4], ...align, [2, 2]],
        {},
        'E_INVALID_ARGUMENT',
        both,
        'both sizes and scale_factors',
      ),
      errorCase(x, [null, ...align, null], {}, 'E_INVALID_ARGUMENT', both, 'neither sizes nor scale_factors'),
      errorCase(
        x,
        [null, ...align, [2]],
        {},
        'E_INVALID_ARGUMENT',
        /Expected static_cast<int64_t>\(scale_factors->size\(\)\) == spatial_dimensions to be true, but got false/,
        'one scale factor',
      ),
      // Named, scale_factors picks .vec (positionally the explicit overload takes the None as scales_h).
      errorCase(
        x,
        [],
        { output_size: [4], ...(aligned ? { align_corners: false } : {}), scale_factors: null },
        'E_INVALID_ARGUMENT',
        /Expected static_cast<int64_t>\(output_size->size\(\)\) == spatial_dimensions to be true, but got false/,
        '.vec, one output size',
      ),
      errorCase(
        x,
        [[4, 4, 4], ...align],
        {},
        'E_INVALID_ARGUMENT',
        /It is expected output_size equals to 2, but got size 3/,
        'three output sizes',
      ),
      errorCase(
        f32(ctx)([2, 2, 2]),
        [[4, 4], ...align],
        {},
        'E_SHAPE_MISMATCH',
        /It is expected input_size equals to 4, but got size 3/,
        'a 3-d input',
      ),
      // A zero spatial size fails the size check (before the empty-input check, whose error is another).
      errorCase(
        f32(ctx)([1, 2, 0, 2]),
        [[3, 3], ...align],
        {},
        'E_INVALID_ARGUMENT',
        /Input and output sizes should be greater than 0, but got input \(H: 0, W: 2\) output \(H: 3, W: 3\)/,
        'zero input height',
      ),
      errorCase(
        x,
        [[4, 4], ...align],
        { out: f32({ ...ctx, dtype: 'float64' })([0]).double() },
        'E_RESULT_TYPE',
        /Expected out tensor to have dtype float, but got double instead/,
        'out of another dtype',
      ),
    ];
  };
}

export const NN_RESAMPLE_ATEN_OPINFOS: readonly OpInfo[] = [
  opInfo({
    name: 'upsample_nearest2d',
    family: 'nn',
    dtypes: ['uint8', ...FLOATING],
    sampleInputs: nearestSamples,
    errorInputs: vecErrors(false),
    ref: nearestRef,
    resultDType: inputDType,
  }),
  opInfo({
    name: 'upsample_bilinear2d',
    family: 'nn',
    dtypes: [...FLOATING],
    sampleInputs: bilinearSamples,
    errorInputs: vecErrors(true),
    ref: bilinearRef,
    resultDType: inputDType,
    skips: [
      {
        kind: 'skip',
        oracle: 'reference',
        dtype: 'bfloat16',
        reason:
          "PyTorch 1.13's bfloat16 linear kernel holds the scale and the weights in bfloat16 (the runtime does too): " +
          'samples a bfloat16 ulp of the scale away from the exact ones; the golden oracle compares them',
      },
    ],
  }),
];
