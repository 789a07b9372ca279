/**
 * Shared pieces of the shape / indexing / linalg / sorting ops: out= overloads with PyTorch's own overload
 * names and dtype rules, Scalar -> element conversion with c10's overflow check, and small layout helpers.
 */

import { forEachLine, numberReader } from '../backends/cpu/index.ts';
import type { GpuOperand } from '../backends/webgpu/index.ts';
import {
  bf16BitsToNumber,
  CPP_TYPE_NAMES,
  DTYPE_INFO,
  type DType,
  DTypeUnsupportedError,
  f16BitsToNumber,
  IndexOutOfRangeError,
  InvalidArgumentError,
  integralRange,
  isNonOverlappingAndDense,
  numberToBf16Bits,
  numberToF16Bits,
  pointwiseOutputStrides,
  Scalar,
  type StorageArray,
  type Tensor,
} from '../core/index.ts';
import { callOp } from '../dispatch/index.ts';

// The out= registration helpers live in out_define.ts; ops import them from here with the other helpers.
export { checkOut, defineOut, type OutImpl, type OutRule } from './out_define.ts';

const SCALAR_TO_NAME: Record<DType, string> = {
  ...CPP_TYPE_NAMES,
  uint8: 'uint8_t',
  int8: 'int8_t',
  int16: 'int16_t',
  int64: 'int64_t',
  float16: 'at::Half',
  bfloat16: 'at::BFloat16',
};

/** empty_like(self, preserve_format): a dense self keeps its strides, others get dense strides in its order. */
export function preserveStrides(t: Tensor): number[] {
  if (isNonOverlappingAndDense(t.shape, t.strides)) return [...t.strides];
  return pointwiseOutputStrides(t.shape, [t]);
}

/** A Scalar argument, or a 0-dim tensor bound to a Scalar parameter, as a Scalar (reads the tensor). */
export function asScalar(v: Scalar | Tensor): Scalar {
  if (v instanceof Scalar) return v;
  if (v.device === 'webgpu')
    // CUDA's item() blocks on the device; WebGPU has no blocking readback.
    throw new InvalidArgumentError(
      'cannot read a webgpu tensor as a Scalar synchronously: pass a number or a cpu tensor',
      { arg: 'value', got: 'webgpu', expected: 'cpu' },
    );
  const data = v.storage.data;
  if (data === null)
    throw new InvalidArgumentError('cannot read the value of a meta tensor', { arg: 'value', got: 'meta' });
  const kind = DTYPE_INFO[v.dtype].kind;
  const i = v.storageOffset;
  if (v.dtype === 'int64') return new Scalar('int', data[i] as bigint);
  if (kind === 'bool') return new Scalar('bool', data[i] !== 0);
  if (kind === 'int') return new Scalar('int', BigInt(data[i] as number));
  if (kind === 'complex') return new Scalar('complex', data[2 * i] as number, data[2 * i + 1] as number);
  return new Scalar('float', numberReader(v.dtype)(data, i));
}

/** The PromotionOperand kind a Scalar (or 0-dim tensor standing in for one) contributes. */
export function scalarKindOf(v: Scalar | Tensor): Scalar['kind'] {
  if (v instanceof Scalar) return v.kind;
  const k = DTYPE_INFO[v.dtype].kind;
  return k;
}

const FLOAT_MAX: Partial<Record<DType, number>> = {
  float16: 65504,
  bfloat16: 3.3895313892515355e38,
  float32: 3.4028234663852886e38,
  float64: Number.MAX_VALUE,
};

/** An element value in a dtype's compute domain: number, bigint (int64) or [re, im] (complex). */
export type ElementValue = number | bigint | [number, number];

/**
 * c10::Scalar::to<T>(): converts with checked_convert, which refuses values outside the dtype's range (ints
 * from a signed int may wrap into unsigned types) and complex values with an imaginary part for real dtypes.
 * Floats are rounded to the dtype, so kernels compare against exactly what PyTorch compares against.
 */
export function scalarTo(s: Scalar, dtype: DType, op: string, arg = 'value'): ElementValue {
  const kind = DTYPE_INFO[dtype].kind;
  const overflow = () =>
    new InvalidArgumentError(`value cannot be converted to type ${SCALAR_TO_NAME[dtype]} without overflow`, {
      op,
      arg,
      got: s.toString(),
      expected: dtype,
    });
  if (kind === 'complex') return [s.toNumber(), s.kind === 'complex' ? s.imag : 0];
  if (s.kind === 'complex' && s.imag !== 0) throw overflow();
  if (kind === 'float') {
    const v = s.toNumber();
    if (Number.isFinite(v) && Math.abs(v) > FLOAT_MAX[dtype]!) throw overflow();
    return roundToFloat(dtype, v);
  }
  const [lo, hi] = integralRange(dtype);
  if (s.kind === 'int' || s.kind === 'bool') {
    const b = s.toBigInt();
    // Like two's complement arithmetic, a negative int may wrap into an unsigned dtype (-1 -> 255).
    const unsignedWrap = !DTYPE_INFO[dtype].isSigned && b < 0n && -b <= hi;
    if (!unsignedWrap && (b < lo || b > hi)) throw overflow();
    if (dtype === 'bool') return b !== 0n ? 1 : 0;
    if (dtype === 'int64') return b;
    return Number(unsignedWrap ? b + hi + 1n : b);
  }
  const v = s.toNumber();
  if (Number.isNaN(v) || v < Number(lo) || v > Number(hi)) throw overflow();
  const t = Math.trunc(v);
  if (dtype === 'bool') return v !== 0 ? 1 : 0;
  return dtype === 'int64' ? BigInt(t) : t;
}

function roundToFloat(dtype: DType, v: number): number {
  if (dtype === 'float32') return Math.fround(v);
  if (dtype === 'float16') return f16BitsToNumber(numberToF16Bits(v));
  if (dtype === 'bfloat16') return bf16BitsToNumber(numberToBf16Bits(v));
  return v;
}

/** Writes the dtype's zero into logical element `i`. */
export function zeroWriter(dtype: DType): (a: StorageArray, i: number) => void {
  if (dtype === 'int64')
    return (a, i) => {
      a[i] = 0n;
    };
  if (DTYPE_INFO[dtype].lanes === 2)
    return (a, i) => {
      a[2 * i] = 0;
      a[2 * i + 1] = 0;
    };
  return (a, i) => {
    a[i] = 0;
  };
}

/** PyTorch's `"name" not implemented for 'Half'` kernel-dispatch error. */
export function notImplementedFor(
  kernel: string,
  dtype: DType,
  op: string,
  arg = 'self',
  expected?: string,
): Error {
  return new DTypeUnsupportedError(`"${kernel}" not implemented for '${DTYPE_INFO[dtype].torchName}'`, {
    op,
    arg,
    got: dtype,
    ...(expected !== undefined && { expected }),
  });
}

/** aten's floating-only cpu kernels refuse other dtypes by kernel name ("glu_cpu" not implemented for 'Long'). */
export function requireFloating(x: Tensor, kernel: string, op: string, arg = 'self'): void {
  if (DTYPE_INFO[x.dtype].kind !== 'float')
    throw notImplementedFor(kernel, x.dtype, op, arg, 'a floating dtype');
}

/** An op called by name inside a composite, returning one tensor. */
export const callTensor = (name: string, args: unknown[], kwargs: Record<string, unknown> = {}): Tensor =>
  callOp(name, args, kwargs) as Tensor;

/** A 0-dim tensor seen as 1-D of size 1 (ensure_nonempty_dim / size / stride in scatter-gather kernels). */
export function nonEmptyShape(t: Tensor): { shape: number[]; strides: number[] } {
  return t.ndim === 0 ? { shape: [1], strides: [1] } : { shape: [...t.shape], strides: [...t.strides] };
}

/** Index values as numbers (int64 indices beyond 2^53 are out of bounds anyway). */
export function indexReader(t: Tensor): (i: number) => number {
  const data = t.storage.data!;
  if (t.dtype === 'int64') return (i) => Number(data[i] as bigint);
  return (i) => data[i] as number;
}

export function outOfBounds(op: string, idx: number, dim: number, size: number): IndexOutOfRangeError {
  return new IndexOutOfRangeError(`index ${idx} is out of bounds for dimension ${dim} with size ${size}`, {
    op,
    arg: 'index',
    got: idx,
    expected: `in [0, ${size - 1}]`,
  });
}

/**
 * Raises the first index outside [0, size), visiting the index lines along `dim` in the order the
 * scatter / gather kernels do (so the message names the same index). Run before the first write: an
 * out-of-range index leaves an in-place self or an out= tensor untouched, and the kernel loops stay check-free.
 */
export function checkIndexLines(index: Tensor, dim: number, size: number, op: string): void {
  if (index.numel === 0) return;
  const ix = nonEmptyShape(index);
  const read = indexReader(index);
  const step = ix.strides[dim];
  const n = ix.shape[dim];
  forEachLine(ix.shape, dim, [ix.strides], [index.storageOffset], (offs) => {
    for (let i = 0; i < n; i++) {
      const v = read(offs[0] + i * step);
      if (v < 0 || v >= size) throw outOfBounds(op, v, dim, size);
    }
  });
}

/**
 * A pointwise op's inputs as webgpu kernel operands: a 0-dim cpu tensor (a wrapped Python number joining a
 * webgpu op) travels as its value, read by `asScalar`.
 */
export function gpuOperands(inputs: readonly Tensor[]): GpuOperand[] {
  return inputs.map((t) => (t.device === 'cpu' ? { host: asScalar(t).toNumber() } : t));
}
