/**
 * Per-dtype element accessors for kernels that are not plain pointwise loops (reductions, scans, sorting,
 * indexing). Values are read as JS numbers (int64 as number may lose precision; kernels that must be exact on
 * int64 use the bigint accessors) and written with the dtype's rounding / wrap-around.
 */
import {
  bf16BitsToNumber,
  type DType,
  f16BitsToNumber,
  numberToBf16Bits,
  numberToF16Bits,
  type StorageArray,
} from '../../core/index.ts';

export type Reader = (a: StorageArray, i: number) => number;
export type Writer = (a: StorageArray, i: number, v: number) => void;

const i64Min = -(2n ** 63n);

export function numberReader(d: DType): Reader {
  switch (d) {
    case 'float16':
      return (a, i) => f16BitsToNumber(a[i] as number);
    case 'bfloat16':
      return (a, i) => bf16BitsToNumber(a[i] as number);
    case 'int64':
      return (a, i) => Number(a[i]);
    case 'complex64':
    case 'complex128':
      return (a, i) => a[2 * i] as number;
    default:
      return (a, i) => a[i] as number;
  }
}

export function numberWriter(d: DType): Writer {
  switch (d) {
    case 'float16':
      return (a, i, v) => {
        a[i] = numberToF16Bits(v);
      };
    case 'bfloat16':
      return (a, i, v) => {
        a[i] = numberToBf16Bits(v);
      };
    case 'int64':
      return (a, i, v) => {
        a[i] = Math.abs(v) < 2 ** 63 ? BigInt(Math.trunc(v)) : i64Min;
      };
    case 'bool':
      return (a, i, v) => {
        a[i] = v !== 0 ? 1 : 0;
      };
    case 'uint8':
      return (a, i, v) => {
        a[i] = f2u8(v);
      };
    case 'complex64':
    case 'complex128':
      return (a, i, v) => {
        a[2 * i] = v;
        a[2 * i + 1] = 0;
      };
    case 'float32':
    case 'float64':
      return (a, i, v) => {
        a[i] = v;
      };
    default:
      return (a, i, v) => {
        // x86 semantics, as in codegen's F2I: NaN / out of int32 range give INT32_MIN (low bits for narrower ints).
        a[i] = v > -2147483649 && v < 2147483648 ? Math.trunc(v) : -2147483648;
      };
  }
}

/**
 * A float stored as uint8, as x86 PyTorch casts it: truncated through a 64-bit register (NaN and |v| >= 2^63 give
 * INT64_MIN), then its low byte. `%` is exact on doubles, so values past 2^53 keep their low bits.
 */
export function f2u8(v: number): number {
  return Math.abs(v) < 2 ** 63 ? ((Math.trunc(v) % 256) + 256) % 256 : 0;
}

/** Exact int64 read (other integer dtypes widen). */
export function bigReader(d: DType): (a: StorageArray, i: number) => bigint {
  if (d === 'int64') return (a, i) => a[i] as bigint;
  const r = numberReader(d);
  return (a, i) => BigInt(Math.trunc(r(a, i)));
}

/** Copies one element between arrays of the same dtype (any dtype, complex included). */
export function elementCopier(
  d: DType,
): (dst: StorageArray, di: number, src: StorageArray, si: number) => void {
  if (d === 'complex64' || d === 'complex128') {
    return (dst, di, src, si) => {
      dst[2 * di] = src[2 * si];
      dst[2 * di + 1] = src[2 * si + 1];
    };
  }
  return (dst, di, src, si) => {
    dst[di] = src[si];
  };
}

/** Visits every 1-D line along `dim`: `line(offsets)` gets each operand's start offset (logical elements). */
export function forEachLine(
  shape: readonly number[],
  dim: number,
  operandStrides: readonly (readonly number[])[],
  offsets: readonly number[],
  line: (offs: number[]) => void,
): void {
  const outer = shape.map((s, d) => (d === dim ? 1 : s));
  for (const s of outer) if (s === 0) return;
  const nd = shape.length;
  const idx = new Array<number>(nd).fill(0);
  const offs = [...offsets];
  let total = 1;
  for (const s of outer) total *= s;
  for (let i = 0; i < total; i++) {
    line([...offs]);
    for (let d = nd - 1; d >= 0; d--) {
      if (outer[d] === 1) continue;
      idx[d]++;
      for (let k = 0; k < offs.length; k++) offs[k] += operandStrides[k][d];
      if (idx[d] < outer[d]) break;
      for (let k = 0; k < offs.length; k++) offs[k] -= operandStrides[k][d] * outer[d];
      idx[d] = 0;
    }
  }
}
