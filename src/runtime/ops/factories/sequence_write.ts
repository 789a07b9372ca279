/**
 * Writing the range factories' values (arange, linspace; randperm's draws): element i of a fresh contiguous 1-D
 * tensor from a function of i, on the host or as a WGSL sequence on webgpu, and the conversions those values go
 * through (an integral dtype's truncation and wrap, the half types' rounding per step).
 */
import { numberWriter } from '../../backends/cpu/index.ts';
import { writeThroughHost } from '../../backends/privateuse1/index.ts';
import { type Sequence, sequenceGPU, uploadStorage } from '../../backends/webgpu/index.ts';
import {
  bf16BitsToNumber,
  type DType,
  f16BitsToNumber,
  isRegisteredDevice,
  numberToBf16Bits,
  numberToF16Bits,
  Tensor,
} from '../../core/index.ts';

/** `Scalar::to<scalar_t>()` for an integral dtype: truncated toward zero, wrapped into the dtype's range. */
export function toIntegral(v: number, dtype: DType): number {
  const t = Math.trunc(v);
  switch (dtype) {
    case 'uint8':
      return t & 0xff;
    case 'int8':
      return (t << 24) >> 24;
    case 'int16':
      return (t << 16) >> 16;
    case 'int32':
      return t | 0;
    default:
      return t;
  }
}

export const LINSPACE_ROUNDING: Partial<Record<DType, (x: number) => number>> = {
  float32: Math.fround,
  float16: (x) => f16BitsToNumber(numberToF16Bits(x)),
  bfloat16: (x) => bf16BitsToNumber(numberToBf16Bits(x)),
};

/**
 * Writes `at(i)` into element i of a fresh contiguous 1-D `t`. On webgpu `seq` (the same values as a WGSL
 * sequence) runs as a kernel; without one the values are computed on the host and uploaded.
 */
export function writeSequence(t: Tensor, at: (i: number) => number, seq: Sequence | null = null): void {
  if (t.device === 'webgpu') {
    if (seq) sequenceGPU(t, seq);
    else {
      const host = Tensor.empty(t.shape, t.dtype, 'cpu');
      writeSequence(host, at);
      uploadStorage(t.storage, host.storage);
    }
    return;
  }
  if (isRegisteredDevice(t.device)) {
    writeThroughHost(t, (host) => writeSequence(host, at));
    return;
  }
  // t is freshly allocated and contiguous, so logical index i is storage index i.
  const write = numberWriter(t.dtype);
  const data = t.storage.data!;
  for (let i = 0; i < t.numel; i++) write(data, i, at(i));
}

/** int64 arange's values, start + step * i, exactly (BigInt), into a fresh contiguous 1-D `t`. */
export function writeInt64Sequence(t: Tensor, s: bigint, st: bigint): void {
  if (isRegisteredDevice(t.device)) {
    writeThroughHost(t, (host) => writeInt64Sequence(host, s, st));
    return;
  }
  const data = t.storage.data as BigInt64Array;
  for (let i = 0; i < t.numel; i++) data[i] = BigInt.asIntN(64, s + st * BigInt(i));
}
