/**
 * The CPU matrix-multiply kernel behind mm, bmm, mv, dot and matmul: out[b] = A[b] @ B[b] over a (broadcast)
 * batch, every operand read and written through its own strides, no copies. Loops run i-k-j with a row
 * accumulator so the innermost loop streams along a row of B and of the accumulator. Floats accumulate in
 * float64 (then round once to the output dtype; bfloat16 as its caller's HalfOrder says), small ints in wrapping
 * int32, int64 exactly as bigint.
 */

import {
  type FloatMatrix,
  logicalOffsets,
  numberReader,
  numberWriter,
  WASM_GEMM_MIN_MACS,
  wasmGemm,
} from '../../backends/cpu/index.ts';
import { DTYPE_INFO, roundBf16, type StorageArray, type Tensor } from '../../core/index.ts';

/** A tensor seen as a batch of matrices: batch strides (broadcast dims have stride 0), row and column strides. */
export interface MatrixView {
  readonly t: Tensor;
  readonly batchStrides: readonly number[];
  readonly rs: number;
  readonly cs: number;
}

interface Plane {
  arr: StorageArray;
  off: number;
  rs: number;
  cs: number;
}

type Kernel2D = (o: Plane, a: Plane, b: Plane, n: number, k: number, m: number) => void;

/**
 * float32 / float64: direct typed-array reads; the accumulator row keeps float64 sums. The source is compiled
 * once per array type so each copy stays monomorphic (one shared function would see both array maps).
 */
const FLOAT_SRC = `return function floatKernel(o, a, b, n, k, m) {
  const acc = new Float64Array(m);
  const A = a.arr, B = b.arr, O = o.arr;
  const ars = a.rs, acs = a.cs, brs = b.rs, bcs = b.cs, ors = o.rs, ocs = o.cs;
  if (bcs !== 1 && brs === 1) {
    // B is column-major (a transposed matrix): dot products along k read both operands sequentially.
    for (let i = 0; i < n; i++) {
      const ai = a.off + i * ars;
      const oi = o.off + i * ors;
      let j = 0;
      // Four columns at once: independent sums hide the add latency and share the loads of A.
      for (; j + 4 <= m; j += 4) {
        const b0 = b.off + j * bcs, b1 = b0 + bcs, b2 = b1 + bcs, b3 = b2 + bcs;
        let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        for (let p = 0; p < k; p++) {
          const x = A[ai + p * acs];
          s0 += x * B[b0 + p];
          s1 += x * B[b1 + p];
          s2 += x * B[b2 + p];
          s3 += x * B[b3 + p];
        }
        O[oi + j * ocs] = s0;
        O[oi + (j + 1) * ocs] = s1;
        O[oi + (j + 2) * ocs] = s2;
        O[oi + (j + 3) * ocs] = s3;
      }
      for (; j < m; j++) {
        const bj = b.off + j * bcs;
        let sum = 0;
        for (let p = 0; p < k; p++) sum += A[ai + p * acs] * B[bj + p];
        O[oi + j * ocs] = sum;
      }
    }
    return;
  }
  for (let i = 0; i < n; i++) {
    acc.fill(0);
    const ai = a.off + i * ars;
    let p = 0;
    if (bcs === 1) {
      // Four rows of B per pass: a quarter of the accumulator loads and stores.
      for (; p + 4 <= k; p += 4) {
        const x0 = A[ai + p * acs], x1 = A[ai + (p + 1) * acs], x2 = A[ai + (p + 2) * acs], x3 = A[ai + (p + 3) * acs];
        const b0 = b.off + p * brs, b1 = b0 + brs, b2 = b1 + brs, b3 = b2 + brs;
        for (let j = 0; j < m; j++) acc[j] += x0 * B[b0 + j] + x1 * B[b1 + j] + x2 * B[b2 + j] + x3 * B[b3 + j];
      }
    }
    for (; p < k; p++) {
      const x = A[ai + p * acs];
      const bp = b.off + p * brs;
      for (let j = 0, bj = bp; j < m; j++, bj += bcs) acc[j] += x * B[bj];
    }
    const oi = o.off + i * ors;
    for (let j = 0; j < m; j++) O[oi + j * ocs] = acc[j];
  }
};`;
/**
 * Products from WASM_GEMM_MIN_MACS multiply-adds on go to the WebAssembly SIMD kernel (backends/cpu/wasm/gemm.ts:
 * packed panels, float64 sums in order p = 0..k-1); the JS kernel runs below it and without wasm SIMD.
 */
function withWasm(js: Kernel2D): Kernel2D {
  return (o, a, b, n, k, m) => {
    if (
      n * k * m >= WASM_GEMM_MIN_MACS &&
      wasmGemm(o as FloatMatrix, a as FloatMatrix, b as FloatMatrix, n, k, m)
    )
      return;
    js(o, a, b, n, k, m);
  };
}

const float32Kernel = withWasm(new Function(FLOAT_SRC)() as Kernel2D);
const float64Kernel = withWasm(new Function(FLOAT_SRC)() as Kernel2D);

/** uint8..int32: products and sums wrap modulo 2^32; the store wraps further to the dtype's width. */
const intKernel: Kernel2D = (o, a, b, n, k, m) => {
  const acc = new Int32Array(m);
  const A = a.arr as Int32Array;
  const B = b.arr as Int32Array;
  const O = o.arr as Int32Array;
  for (let i = 0; i < n; i++) {
    acc.fill(0);
    const ai = a.off + i * a.rs;
    for (let p = 0; p < k; p++) {
      const x = A[ai + p * a.cs];
      const bp = b.off + p * b.rs;
      for (let j = 0; j < m; j++) acc[j] = (acc[j] + Math.imul(x, B[bp + j * b.cs])) | 0;
    }
    const oi = o.off + i * o.rs;
    for (let j = 0; j < m; j++) O[oi + j * o.cs] = acc[j];
  }
};

/** int64: BigInt64Array stores wrap to 64 bits, matching C++ int64 overflow. */
const bigKernel: Kernel2D = (o, a, b, n, k, m) => {
  const acc = new BigInt64Array(m);
  const A = a.arr as BigInt64Array;
  const B = b.arr as BigInt64Array;
  const O = o.arr as BigInt64Array;
  for (let i = 0; i < n; i++) {
    acc.fill(0n);
    const ai = a.off + i * a.rs;
    for (let p = 0; p < k; p++) {
      const x = A[ai + p * a.cs];
      const bp = b.off + p * b.rs;
      for (let j = 0; j < m; j++) acc[j] += x * B[bp + j * b.cs];
    }
    const oi = o.off + i * o.rs;
    for (let j = 0; j < m; j++) O[oi + j * o.cs] = acc[j];
  }
};

/** complex64 / complex128: interleaved (re, im); offsets and strides are in logical elements. */
const complexKernel: Kernel2D = (o, a, b, n, k, m) => {
  const acc = new Float64Array(2 * m);
  const A = a.arr as Float64Array;
  const B = b.arr as Float64Array;
  const O = o.arr as Float64Array;
  for (let i = 0; i < n; i++) {
    acc.fill(0);
    const ai = a.off + i * a.rs;
    for (let p = 0; p < k; p++) {
      const xa = 2 * (ai + p * a.cs);
      const [xr, xi] = [A[xa], A[xa + 1]];
      const bp = b.off + p * b.rs;
      for (let j = 0; j < m; j++) {
        const bj = 2 * (bp + j * b.cs);
        acc[2 * j] += xr * B[bj] - xi * B[bj + 1];
        acc[2 * j + 1] += xr * B[bj + 1] + xi * B[bj];
      }
    }
    const oi = o.off + i * o.rs;
    for (let j = 0; j < m; j++) {
      const oj = 2 * (oi + j * o.cs);
      O[oj] = acc[2 * j];
      O[oj + 1] = acc[2 * j + 1];
    }
  }
};

/**
 * How a bfloat16 product sums (product_order.ts says which PyTorch 1.13 takes): 'once' accumulates in float64 and
 * rounds on store (float16, and the kernels PyTorch has no bfloat16 loop for); 'steps' rounds each product to
 * bfloat16 and each partial sum to float32 then bfloat16, k = 0..K-1; 'float32' sums the (exact) products in
 * float32, k = 0..K-1, rounded once on store.
 */
export type HalfOrder = 'once' | 'steps' | 'float32';

/** bfloat16 / float16: decode on read, accumulate as `order` says, round on store. */
function halfKernel(dtype: Tensor['dtype'], order: HalfOrder): Kernel2D {
  const read = numberReader(dtype);
  const write = numberWriter(dtype);
  const step =
    order === 'steps'
      ? (s: number, p: number) => roundBf16(s + roundBf16(p))
      : order === 'float32'
        ? (s: number, p: number) => Math.fround(s + p)
        : (s: number, p: number) => s + p;
  return (o, a, b, n, k, m) => {
    const acc = new Float64Array(m);
    for (let i = 0; i < n; i++) {
      acc.fill(0);
      const ai = a.off + i * a.rs;
      for (let p = 0; p < k; p++) {
        const x = read(a.arr, ai + p * a.cs);
        const bp = b.off + p * b.rs;
        for (let j = 0; j < m; j++) acc[j] = step(acc[j], x * read(b.arr, bp + j * b.cs));
      }
      const oi = o.off + i * o.rs;
      for (let j = 0; j < m; j++) write(o.arr, oi + j * o.cs, acc[j]);
    }
  };
}

const HALF_KERNELS = new Map<string, Kernel2D>();

function kernelFor(dtype: Tensor['dtype'], order: HalfOrder = 'once'): Kernel2D {
  if (dtype === 'float32') return float32Kernel;
  if (dtype === 'float64') return float64Kernel;
  if (dtype === 'int64') return bigKernel;
  if (DTYPE_INFO[dtype].kind === 'complex') return complexKernel;
  if (dtype === 'float16' || dtype === 'bfloat16') {
    const o = dtype === 'bfloat16' ? order : 'once';
    const key = `${dtype}:${o}`;
    if (!HALF_KERNELS.has(key)) HALF_KERNELS.set(key, halfKernel(dtype, o));
    return HALF_KERNELS.get(key)!;
  }
  return intKernel;
}

/** A matrix at an explicit storage offset (element units): a caller walking its own batch, e.g. convolution. */
export interface MatrixAt {
  readonly t: Tensor;
  readonly off: number;
  readonly rs: number;
  readonly cs: number;
}

/** out = a @ b for one n x k by k x m product; out's dtype picks the kernel (a and b share it). */
export function gemmAt(out: MatrixAt, a: MatrixAt, b: MatrixAt, n: number, k: number, m: number): void {
  if (n === 0 || m === 0) return;
  const plane = (v: MatrixAt): Plane => ({ arr: v.t.storage.data!, off: v.off, rs: v.rs, cs: v.cs });
  kernelFor(out.t.dtype)(plane(out), plane(a), plane(b), n, k, m);
}

/**
 * out[batch] = a[batch] @ b[batch] for every index of `batch`; a is n x k, b is k x m, out is n x m. All three
 * share one dtype (PyTorch's mm family refuses mixed dtypes before getting here).
 */
export function gemm(
  out: MatrixView,
  a: MatrixView,
  b: MatrixView,
  batch: readonly number[],
  n: number,
  k: number,
  m: number,
  order: HalfOrder = 'once',
): void {
  if (n === 0 || m === 0) return;
  const oBase = logicalOffsets(batch, out.batchStrides, out.t.storageOffset);
  const aBase = logicalOffsets(batch, a.batchStrides, a.t.storageOffset);
  const bBase = logicalOffsets(batch, b.batchStrides, b.t.storageOffset);
  const kernel = kernelFor(out.t.dtype, order);
  const o: Plane = { arr: out.t.storage.data!, off: 0, rs: out.rs, cs: out.cs };
  const pa: Plane = { arr: a.t.storage.data!, off: 0, rs: a.rs, cs: a.cs };
  const pb: Plane = { arr: b.t.storage.data!, off: 0, rs: b.rs, cs: b.cs };
  for (let i = 0; i < oBase.length; i++) {
    o.off = oBase[i];
    pa.off = aBase[i];
    pb.off = bBase[i];
    kernel(o, pa, pb, n, k, m);
  }
}
