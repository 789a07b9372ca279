/**
 * References for view, copy and factory ops: plain loops over logical indices in float64. Every view is a
 * gather (`gatherRef`: output index -> input index); nothing here calls a runtime op or kernel.
 */
import type { DType } from '../../src/runtime/index.ts';
import { numelOf, type RefTensor, unravel } from './tensor.ts';

/** Row-major flat index of `idx` in `shape`. */
export function ravel(idx: readonly number[], shape: readonly number[]): number {
  let flat = 0;
  for (let d = 0; d < shape.length; d++) flat = flat * shape[d] + idx[d];
  return flat;
}

/** `out[i] = input[mapIndex(i)]`, where mapIndex turns an output multi-index into an input one. */
export function gatherRef(
  x: RefTensor,
  outShape: readonly number[],
  mapIndex: (out: number[]) => readonly number[],
): RefTensor {
  const n = numelOf(outShape);
  const re = new Float64Array(n);
  const im = x.im ? new Float64Array(n) : null;
  for (let i = 0; i < n; i++) {
    const j = ravel(mapIndex(unravel(i, outShape)), x.shape);
    re[i] = x.re[j];
    if (im) im[i] = x.im![j];
  }
  return { shape: [...outShape], dtype: x.dtype, re, im };
}

/** maybe_wrap_dim: a 0-dim tensor takes dims -1 and 0. */
export const wrapDim = (d: number, ndim: number): number => (d < 0 ? d + Math.max(ndim, 1) : d);

/** A size list with one -1 resolved against `numel`. */
export function inferShape(size: readonly number[], numel: number): number[] {
  const known = numelOf(size.filter((s) => s !== -1));
  return size.map((s) => (s === -1 ? numel / known : s));
}

/** Same row-major values, new shape (view, reshape, flatten). */
export function reshapeRef(x: RefTensor, size: readonly number[]): RefTensor {
  const shape = inferShape(size, x.re.length);
  return { ...x, shape, re: x.re.slice(), im: x.im ? x.im.slice() : null };
}

export function flattenRef(x: RefTensor, start = 0, end = -1): RefTensor {
  if (x.shape.length === 0) return reshapeRef(x, [1]);
  const s = wrapDim(start, x.shape.length);
  const e = wrapDim(end, x.shape.length);
  return reshapeRef(x, [...x.shape.slice(0, s), numelOf(x.shape.slice(s, e + 1)), ...x.shape.slice(e + 1)]);
}

export function permuteRef(x: RefTensor, dims: readonly number[]): RefTensor {
  const p = dims.map((d) => wrapDim(d, x.shape.length));
  return gatherRef(
    x,
    p.map((d) => x.shape[d]),
    (o) => {
      const idx = new Array<number>(p.length);
      p.forEach((d, i) => {
        idx[d] = o[i];
      });
      return idx;
    },
  );
}

export function transposeRef(x: RefTensor, d0: number, d1: number): RefTensor {
  const n = x.shape.length;
  const perm = x.shape.map((_, i) => i);
  const a = wrapDim(d0, n);
  const b = wrapDim(d1, n);
  if (n === 0) return permuteRef(x, []);
  [perm[a], perm[b]] = [perm[b], perm[a]];
  return permuteRef(x, perm);
}

/** movedim: one dim (movedim.int) or lists of dims (movedim.intlist), each source[i] moved to destination[i]. */
export function movedimRef(
  x: RefTensor,
  source: number | readonly number[],
  destination: number | readonly number[],
): RefTensor {
  const n = x.shape.length;
  if (n === 0) return permuteRef(x, []);
  const src = (Array.isArray(source) ? source : [source]).map((d) => wrapDim(d, n));
  const dst = (Array.isArray(destination) ? destination : [destination]).map((d) => wrapDim(d, n));
  const placed = new Map(dst.map((d, i) => [d, src[i]]));
  const rest = x.shape.map((_, i) => i).filter((i) => !src.includes(i));
  return permuteRef(
    x,
    x.shape.map((_, i) => placed.get(i) ?? (rest.shift() as number)),
  );
}

/** Broadcast to `size` (-1 keeps the existing size); new leading dims and size-1 dims repeat. */
export function expandRef(x: RefTensor, size: readonly number[]): RefTensor {
  const lead = size.length - x.shape.length;
  const shape = size.map((s, i) => (s === -1 ? x.shape[i - lead] : s));
  return gatherRef(x, shape, (o) => x.shape.map((s, d) => (s === 1 ? 0 : o[d + lead])));
}

export function squeezeRef(x: RefTensor, dim?: number): RefTensor {
  if (dim === undefined)
    return reshapeRef(
      x,
      x.shape.filter((s) => s !== 1),
    );
  const d = wrapDim(dim, x.shape.length);
  if (x.shape.length === 0 || x.shape[d] !== 1) return reshapeRef(x, x.shape);
  return reshapeRef(
    x,
    x.shape.filter((_, i) => i !== d),
  );
}

export function unsqueezeRef(x: RefTensor, dim: number): RefTensor {
  const shape = [...x.shape];
  shape.splice(dim < 0 ? dim + x.shape.length + 1 : dim, 0, 1);
  return reshapeRef(x, shape);
}

/** Python slicing along `dim`: negative bounds wrap, bounds clamp, empty when end <= start. */
export function sliceRef(
  x: RefTensor,
  dim: number,
  start: number | null,
  end: number | null,
  step: number,
): RefTensor {
  const d = wrapDim(dim, x.shape.length);
  const n = x.shape[d];
  const clamp = (v: number) => Math.min(Math.max(v < 0 ? v + n : v, 0), n);
  const s = start === null ? 0 : clamp(start);
  const e = end === null ? n : clamp(end);
  const shape = [...x.shape];
  shape[d] = e > s ? Math.ceil((e - s) / step) : 0;
  return gatherRef(x, shape, (o) => o.map((v, i) => (i === d ? s + v * step : v)));
}

export const narrowRef = (x: RefTensor, dim: number, start: number, length: number): RefTensor => {
  const size = x.shape[wrapDim(dim, x.shape.length)];
  const s = start < 0 ? start + size : start;
  return sliceRef(x, dim, s, s + length, 1);
};

export function selectRef(x: RefTensor, dim: number, index: number): RefTensor {
  const d = wrapDim(dim, x.shape.length);
  const i = index < 0 ? index + x.shape[d] : index;
  return gatherRef(
    x,
    x.shape.filter((_, k) => k !== d),
    (o) => [...o.slice(0, d), i, ...o.slice(d)],
  );
}

export function diagonalRef(x: RefTensor, offset = 0, dim1 = 0, dim2 = 1): RefTensor {
  const d1 = wrapDim(dim1, x.shape.length);
  const d2 = wrapDim(dim2, x.shape.length);
  const len =
    offset >= 0 ? Math.min(x.shape[d1], x.shape[d2] - offset) : Math.min(x.shape[d1] + offset, x.shape[d2]);
  const keep = x.shape.map((_, i) => i).filter((i) => i !== d1 && i !== d2);
  return gatherRef(x, [...keep.map((i) => x.shape[i]), Math.max(len, 0)], (o) => {
    const k = o[o.length - 1];
    const idx = new Array<number>(x.shape.length);
    keep.forEach((dim, j) => {
      idx[dim] = o[j];
    });
    idx[d1] = offset >= 0 ? k : k - offset;
    idx[d2] = offset >= 0 ? k + offset : k;
    return idx;
  });
}

/** Windows of `size` every `step` along `dim`, as a new last dim (a 0-dim input acts as shape [1]). */
export function unfoldRef(x: RefTensor, dim: number, size: number, step: number): RefTensor {
  if (x.shape.length === 0) return gatherRef(x, [size], () => []);
  const d = wrapDim(dim, x.shape.length);
  const shape = [...x.shape, size];
  shape[d] = Math.floor((x.shape[d] - size) / step) + 1;
  return gatherRef(x, shape, (o) => {
    const idx = o.slice(0, -1);
    idx[d] = o[d] * step + o[o.length - 1];
    return idx;
  });
}

/** Consecutive pieces of the given sizes along `dim`. */
export function splitWithSizesRef(x: RefTensor, sizes: readonly number[], dim = 0): RefTensor[] {
  const d = wrapDim(dim, x.shape.length);
  let start = 0;
  return sizes.map((s) => {
    const piece = sliceRef(x, d, start, start + s, 1);
    start += s;
    return piece;
  });
}

/** torch.split(int): pieces of `size` (the last may be smaller); one empty piece for an empty dim. */
export function splitRef(x: RefTensor, size: number, dim = 0): RefTensor[] {
  const n = x.shape[wrapDim(dim, x.shape.length)];
  const sizes: number[] = [];
  for (let s = 0; s < n; s += size) sizes.push(Math.min(size, n - s));
  return splitWithSizesRef(x, sizes.length ? sizes : [0], dim);
}

/** torch.chunk: split by ceil(n / chunks); an empty dim gives `chunks` empty pieces. */
export function chunkRef(x: RefTensor, chunks: number, dim = 0): RefTensor[] {
  const n = x.shape[wrapDim(dim, x.shape.length)];
  if (n === 0) return splitWithSizesRef(x, new Array<number>(chunks).fill(0), dim);
  return splitRef(x, Math.ceil(n / chunks), dim);
}

export function unbindRef(x: RefTensor, dim = 0): RefTensor[] {
  const d = wrapDim(dim, x.shape.length);
  return Array.from({ length: x.shape[d] }, (_, i) => selectRef(x, d, i));
}

/** as_strided over the input's row-major values taken as its storage (valid for a fresh contiguous input). */
export function asStridedRef(
  x: RefTensor,
  size: readonly number[],
  stride: readonly number[],
  offset = 0,
): RefTensor {
  const n = numelOf(size);
  const re = new Float64Array(n);
  const im = x.im ? new Float64Array(n) : null;
  for (let i = 0; i < n; i++) {
    const idx = unravel(i, size);
    const j = offset + idx.reduce((acc, v, d) => acc + v * stride[d], 0);
    re[i] = x.re[j];
    if (im) im[i] = x.im![j];
  }
  return { shape: [...size], dtype: x.dtype, re, im };
}

/** A tensor of `shape` holding `value` everywhere (zeros, ones, full, fill_, *_like). */
export function fullRef(shape: readonly number[], value: number, dtype: DType): RefTensor {
  return { shape: [...shape], dtype, re: new Float64Array(numelOf(shape)).fill(value), im: null };
}

/** A 1-D tensor of `n` values `at(i)`. */
export function sequenceRef(n: number, at: (i: number) => number, dtype: DType): RefTensor {
  return { shape: [n], dtype, re: Float64Array.from({ length: n }, (_, i) => at(i)), im: null };
}

/**
 * The values a dtype conversion stores before rounding: complex to real keeps the real part, except complex to
 * bool, which tests both parts (the comparison applies the rounding/wrap of the target dtype).
 */
export function convertRef(x: RefTensor, dtype: DType): RefTensor {
  if (dtype === 'bool' && x.im) {
    return { ...x, dtype, re: x.re.map((v, i) => (v !== 0 || x.im![i] !== 0 ? 1 : 0)), im: null };
  }
  const complex = dtype === 'complex64' || dtype === 'complex128';
  const fromFloat = !['bool', 'uint8', 'int8', 'int16', 'int32', 'int64'].includes(x.dtype);
  const re = fromFloat && INTEGRAL.has(dtype) ? x.re.map((v) => floatToIntX86(v, dtype)) : x.re.slice();
  return { ...x, dtype, re, im: complex ? (x.im?.slice() ?? null) : null };
}

const INTEGRAL = new Set<DType>(['uint8', 'int8', 'int16', 'int32', 'int64']);

/**
 * PyTorch 1.13's float -> integer cast on x86 (cvttsd2si): truncation; NaN and values outside the converting
 * register's range give its minimum. int64 converts through a 64-bit register, uint8 too (its low byte; measured:
 * float64 -2147483649.0 -> 255), int8 / int16 / int32 through a 32-bit one (the comparison then keeps the low
 * bits of INT32_MIN: 0).
 */
function floatToIntX86(v: number, dtype: DType): number {
  const t = Math.trunc(v);
  if (dtype === 'int64' || dtype === 'uint8') {
    const inRange = Math.abs(t) < 2 ** 63;
    if (dtype === 'int64') return inRange ? t : -(2 ** 63);
    return inRange ? ((t % 256) + 256) % 256 : 0;
  }
  return t > -2147483649 && t < 2147483648 ? t : -2147483648;
}
