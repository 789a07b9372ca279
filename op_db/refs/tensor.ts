/**
 * RefTensor: the plain float64 data references compute on — logical row-major values (complex as a separate
 * imaginary array), no strides, no runtime kernels. Converting a runtime tensor reads its values (readback),
 * it never calls an op.
 */
import { DTYPE_INFO, type DType, flatValues, type Tensor } from '../../src/runtime/index.ts';

export interface RefTensor {
  readonly shape: readonly number[];
  readonly dtype: DType;
  readonly re: Float64Array;
  /** Imaginary parts for complex dtypes, else null. */
  readonly im: Float64Array | null;
  /**
   * An int64 tensor's exact values, where it came from the runtime (not from a float64 reference): beyond 2^53
   * `re` rounds, and a kernel that computed through float64 would round the same way.
   */
  readonly int64?: readonly bigint[];
}

export const numelOf = (shape: readonly number[]): number => shape.reduce((a, b) => a * b, 1);

export function refTensor(
  shape: readonly number[],
  dtype: DType,
  re: ArrayLike<number>,
  im: ArrayLike<number> | null = null,
): RefTensor {
  return { shape: [...shape], dtype, re: Float64Array.from(re), im: im ? Float64Array.from(im) : null };
}

export function fromRuntime(t: Tensor): RefTensor {
  const vals = flatValues(t);
  const n = vals.length;
  const re = new Float64Array(n);
  const complex = DTYPE_INFO[t.dtype].kind === 'complex';
  const im = complex ? new Float64Array(n) : null;
  const int64 = t.dtype === 'int64' ? (vals as bigint[]) : undefined;
  for (let i = 0; i < n; i++) {
    const v = vals[i];
    if (Array.isArray(v)) {
      re[i] = v[0];
      im![i] = v[1];
    } else re[i] = typeof v === 'boolean' ? (v ? 1 : 0) : Number(v);
  }
  return { shape: [...t.shape], dtype: t.dtype, re, im, ...(int64 && { int64 }) };
}

export function rowMajorStrides(shape: readonly number[]): number[] {
  const s = new Array<number>(shape.length);
  let acc = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    s[i] = acc;
    acc *= shape[i];
  }
  return s;
}

/** Multi-index of logical element `i` of `shape`. */
export function unravel(i: number, shape: readonly number[]): number[] {
  const idx = new Array<number>(shape.length);
  for (let d = shape.length - 1; d >= 0; d--) {
    idx[d] = i % shape[d];
    i = Math.floor(i / shape[d]);
  }
  return idx;
}

export function broadcastShape(shapes: readonly (readonly number[])[]): number[] {
  const n = Math.max(0, ...shapes.map((s) => s.length));
  const out = new Array<number>(n).fill(1);
  for (const s of shapes) {
    for (let i = 0; i < s.length; i++) {
      const d = n - s.length + i;
      if (s[i] !== 1) out[d] = s[i];
    }
  }
  return out;
}

/** Flat index into `t` of the element at `idx` of the broadcast shape (size-1 dims repeat). */
export function broadcastIndex(t: RefTensor, idx: readonly number[]): number {
  const off = idx.length - t.shape.length;
  let flat = 0;
  for (let d = 0; d < t.shape.length; d++) flat = flat * t.shape[d] + (t.shape[d] === 1 ? 0 : idx[off + d]);
  return flat;
}

const BITS: Partial<Record<DType, number>> = { uint8: 8, int8: 8, int16: 16, int32: 32, int64: 64 };

/** What storing a float64 value into `dtype` yields (integer wrap-around, bool, float32 rounding). */
export function castValue(v: number, dtype: DType): number {
  if (dtype === 'bool') return v !== 0 ? 1 : 0;
  const bits = BITS[dtype];
  if (bits !== undefined) {
    if (!Number.isFinite(v)) return v;
    const t = Math.trunc(v);
    if (bits === 64) return Math.abs(t) < 2 ** 63 ? t : Number(BigInt.asIntN(64, BigInt(t)));
    const m = 2 ** bits;
    let w = ((t % m) + m) % m;
    if (dtype !== 'uint8' && w >= m / 2) w -= m;
    return w;
  }
  if (dtype === 'float32' || dtype === 'complex64') return Math.fround(v);
  if (dtype === 'float16') return roundToBinary(v, 11, -14, 15);
  if (dtype === 'bfloat16') return roundToBinary(v, 8, -126, 127);
  return v;
}

/**
 * Rounds to a binary float with `precision` significant bits and exponents in [minExp, maxExp] (round half to
 * even, gradual underflow, overflow to infinity) — an independent model of float16/bfloat16 storage.
 */
export function roundToBinary(v: number, precision: number, minExp: number, maxExp: number): number {
  if (!Number.isFinite(v) || v === 0) return v;
  const a = Math.abs(v);
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--;
  e = Math.max(e, minExp);
  const ulp = 2 ** (e - (precision - 1));
  const q = a / ulp;
  let r = Math.floor(q);
  const d = q - r;
  if (d > 0.5 || (d === 0.5 && r % 2 === 1)) r += 1;
  const out = r * ulp;
  const maxFinite = (2 - 2 ** (1 - precision)) * 2 ** maxExp;
  return Math.sign(v) * (out > maxFinite ? Number.POSITIVE_INFINITY : out);
}

/** A reference input as the op sees it after casting to the compute dtype (int -> float32 rounds, ...). */
export function castRef(t: RefTensor, dtype: DType): RefTensor {
  if (t.dtype === dtype) return t;
  return {
    ...t,
    dtype,
    re: t.re.map((x) => castValue(x, dtype)),
    im: t.im ? t.im.map((x) => castValue(x, dtype)) : null,
  };
}
