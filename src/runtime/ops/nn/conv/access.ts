/**
 * Storage-level helpers of the cpu convolution kernels: whether a tensor's trailing dims flatten into one strided
 * dim (else a packed contiguous copy for the gemm), and element access that is raw for every dtype whose storage
 * holds its values (numbers, bigints, complex pairs) and decodes float16 / bfloat16.
 */
import { logicalOffsets, numberReader, numberWriter } from '../../../backends/cpu/index.ts';
import { DTYPE_INFO, type StorageArray, Tensor } from '../../../core/index.ts';

/**
 * The stride that walks dims `from`.. of t as one flattened dim (row-major over them), or null when they do
 * not collapse (then the caller packs the tensor first). Size-1 dims never matter.
 */
export function collapsedStride(t: Tensor, from: number): number | null {
  let inner: number | null = null;
  let expected = -1;
  for (let i = t.ndim - 1; i >= from; i--) {
    if (t.shape[i] === 1) continue;
    if (inner !== null && t.strides[i] !== expected) return null;
    inner ??= t.strides[i];
    expected = t.strides[i] * t.shape[i];
  }
  return inner ?? 1;
}

/** A contiguous copy (packing for the gemm, when the dims it flattens do not collapse in `t`). */
function packed(t: Tensor): Tensor {
  const out = Tensor.empty(t.shape, t.dtype, 'cpu');
  const w = DTYPE_INFO[t.dtype].kind === 'complex' ? 2 : 1;
  const src = t.storage.data! as unknown as (number | bigint)[];
  const dst = out.storage.data! as unknown as (number | bigint)[];
  const offs = logicalOffsets(t.shape, t.strides, t.storageOffset);
  for (let i = 0; i < offs.length; i++) for (let j = 0; j < w; j++) dst[i * w + j] = src[offs[i] * w + j];
  return out;
}

/** t itself when dims `from`.. collapse, else a packed copy; with the flattened dim's stride. */
export function flat(t: Tensor, from: number): { t: Tensor; cs: number } {
  const cs = collapsedStride(t, from);
  if (cs !== null) return { t, cs };
  const p = packed(t);
  return { t: p, cs: 1 };
}

/** Element access over storage arrays of any dtype: raw numbers / bigints, or decoded halves. */
export interface Access {
  readonly w: number;
  get(a: StorageArray, i: number): number | bigint;
  set(a: StorageArray, i: number, v: number | bigint): void;
}

export function accessFor(t: Tensor): Access {
  const info = DTYPE_INFO[t.dtype];
  const w = info.kind === 'complex' ? 2 : 1;
  if (t.dtype === 'float16' || t.dtype === 'bfloat16') {
    const read = numberReader(t.dtype);
    const write = numberWriter(t.dtype);
    return { w, get: (a, i) => read(a, i), set: (a, i, v) => write(a, i, v as number) };
  }
  type Raw = { [i: number]: number | bigint };
  return { w, get: (a, i) => (a as Raw)[i], set: (a, i, v) => ((a as Raw)[i] = v) };
}

export const addVals = (x: number | bigint, y: number | bigint) =>
  ((x as number) + (y as number)) as number | bigint;
