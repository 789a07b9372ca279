/**
 * Which input elements (and with what weight) each output element of a resampling op reads along one spatial
 * dim: PyTorch 1.13's index arithmetic (aten/src/ATen/native/UpSample.h and UpSampleKernel.cpp), reproduced in its
 * precision. The index choice of nearest modes is discontinuous, so it is computed in float32 (or the op-math
 * type) exactly as aten does; a different rounding there picks a different element, not a nearby value.
 * Every resampling kind is separable: an output element is a weighted sum over the product of its per-dim taps.
 */
import {
  bf16BitsToNumber,
  type DType,
  f16BitsToNumber,
  numberToBf16Bits,
  numberToF16Bits,
} from '../../../core/index.ts';

export type TapKind = 'nearest' | 'nearest-exact' | 'linear' | 'cubic' | 'aa-linear' | 'aa-cubic';

/** Taps of one dim in CSR form: output o reads index[start[o] .. start[o + 1]) with the matching weights. */
export interface Taps {
  readonly start: Int32Array;
  readonly index: Int32Array;
  readonly weight: Float64Array;
}

/** Rounding to the type aten computes indices and weights in (opmath: float32, double for float64). */
export function opmathRound(dtype: DType): (v: number) => number {
  return dtype === 'float64' ? (v) => v : Math.fround;
}

/** Rounding to a floating dtype (aten stores the weights in the input's dtype). */
export function dtypeRound(dtype: DType): (v: number) => number {
  if (dtype === 'float16') return (v) => f16BitsToNumber(numberToF16Bits(v));
  if (dtype === 'bfloat16') return (v) => bf16BitsToNumber(numberToBf16Bits(v));
  return opmathRound(dtype);
}

/** compute_scales_value: 1 / scale when a positive scale factor was given, else input / output. */
function scalesValue(scale: number | null, input: number, output: number, r: (v: number) => number): number {
  return scale !== null && scale > 0 ? r(1 / scale) : r(input / output);
}

/** area_pixel_compute_scale. */
export function pixelScale(
  input: number,
  output: number,
  alignCorners: boolean,
  scale: number | null,
  r: (v: number) => number,
): number {
  if (alignCorners) return output > 1 ? r((input - 1) / (output - 1)) : 0;
  return scalesValue(scale, input, output, r);
}

/** area_pixel_compute_source_index (the half-pixel offset is computed in double, then stored in op-math). */
export function sourceIndex(
  scale: number,
  dst: number,
  alignCorners: boolean,
  cubic: boolean,
  r: (v: number) => number,
): number {
  if (alignCorners) return r(scale * dst);
  const src = r(scale * (dst + 0.5) - 0.5);
  return !cubic && src < 0 ? 0 : src;
}

/**
 * The cubic convolution coefficients (A = -0.75) at fraction t, in double: aten's float32 evaluation loses up to
 * ~1e-5 to cancellation (its float32 and float64 results differ by that much); the double one is the exact value.
 */
function cubicCoefficients(t: number): number[] {
  const A = -0.75;
  const c1 = (x: number) => ((A + 2) * x - (A + 3)) * x * x + 1;
  const c2 = (x: number) => ((A * x - 5 * A) * x + 8 * A) * x - 4 * A;
  return [c2(t + 1), c1(t), c1(1 - t), c2(2 - t)];
}

/** The antialiasing filters of aten's _upsample_{bilinear,bicubic}2d_aa: a triangle, and Keys' cubic (a = -0.5). */
const AA_FILTERS = {
  'aa-linear': { size: 2, f: (x: number) => Math.max(0, 1 - Math.abs(x)) },
  'aa-cubic': {
    size: 4,
    f: (x: number) => {
      const a = -0.5;
      const ax = Math.abs(x);
      if (ax < 1) return ((a + 2) * ax - (a + 3)) * ax * ax + 1;
      if (ax < 2) return (((ax - 5) * ax + 8) * ax - 4) * a;
      return 0;
    },
  },
} as const;

/**
 * compute_indices_weights_aa: the filter stretched by the scale when downsampling (so every input element counts),
 * over the window around the output's centre, its weights normalised to sum to 1.
 */
function aaTaps(
  kind: 'aa-linear' | 'aa-cubic',
  input: number,
  i: number,
  scale: number,
  push: (i: number, w: number) => void,
): void {
  const { size, f } = AA_FILTERS[kind];
  const support = scale >= 1 ? (size / 2) * scale : size / 2;
  const center = scale * (i + 0.5);
  const invscale = scale >= 1 ? 1 / scale : 1;
  const lo = Math.max(Math.trunc(center - support + 0.5), 0);
  const n = Math.min(Math.trunc(center + support + 0.5), input) - lo;
  const w = Array.from({ length: n }, (_, j) => f((j + lo - center + 0.5) * invscale));
  const total = w.reduce((a, b) => a + b, 0);
  for (let j = 0; j < n; j++) push(lo + j, total !== 0 ? w[j] / total : w[j]);
}

export interface TapOptions {
  readonly kind: TapKind;
  readonly input: number;
  readonly output: number;
  readonly alignCorners: boolean;
  /** The scale factor given for this dim (output / input), or null. */
  readonly scale: number | null;
  /** The input's dtype: indices and weights are computed in its op-math type, weights stored in it. */
  readonly dtype: DType;
}

/** The taps of one dim. */
export function computeTaps(o: TapOptions): Taps {
  const { kind, input, output, alignCorners } = o;
  const r = opmathRound(o.dtype === 'uint8' ? 'float32' : o.dtype);
  const w = dtypeRound(o.dtype === 'uint8' ? 'float32' : o.dtype);
  const start = new Int32Array(output + 1);
  const index: number[] = [];
  const weight: number[] = [];
  const push = (i: number, wt: number) => {
    index.push(i);
    weight.push(wt);
  };
  const last = input - 1;
  // PyTorch 1.13's bfloat16 kernels hold the linear and cubic scale in bfloat16 (so 1 / 2.5 is 0.400390625): that
  // is where its samples lie, so the runtime puts them there too.
  const scaleRound = o.dtype === 'bfloat16' && (kind === 'linear' || kind === 'cubic') ? w : r;
  const scale = pixelScale(input, output, alignCorners, o.scale, scaleRound);
  for (let i = 0; i < output; i++) {
    start[i] = index.length;
    if (kind === 'nearest') {
      // floorf: the op-math product is rounded to float before the floor.
      push(Math.min(Math.floor(Math.fround(r(scale * i))), last), 1);
    } else if (kind === 'nearest-exact') {
      const src = sourceIndex(scale, i, false, false, r);
      push(Math.min(Math.floor(Math.fround(src + 0.5)), last), 1);
    } else if (kind === 'linear') {
      if (output === input) {
        push(i, 1);
        push(i, 0);
        continue;
      }
      const src = sourceIndex(scale, i, alignCorners, false, r);
      const i0 = Math.min(Math.trunc(src), last);
      const l1 = r(Math.min(Math.max(src - i0, 0), 1));
      push(i0, w(1 - l1));
      push(i0 + (i0 < last ? 1 : 0), w(l1));
    } else if (kind === 'cubic') {
      const src = sourceIndex(scale, i, alignCorners, true, r);
      const i0 = Math.floor(Math.fround(src));
      const t = r(src - i0);
      const coeffs = cubicCoefficients(t);
      for (let j = 0; j < 4; j++) push(Math.max(Math.min(i0 - 1 + j, last), 0), w(coeffs[j]));
    } else {
      aaTaps(kind, input, i, scale, (j, wt) => push(j, w(wt)));
    }
  }
  start[output] = index.length;
  return { start, index: Int32Array.from(index), weight: Float64Array.from(weight) };
}
