/**
 * Where PyTorch 1.13's CPU products round a bfloat16 sum (probed bit for bit against Debian's 1.13.1, an AVX2
 * build without oneDNN's bfloat16 gemm, which needs AVX-512; the 1.13 sources take oneDNN only on AVX-512 CPUs
 * and for products over 16^3 multiply-adds). Its native loops (cpublas gemm without a transposed first operand,
 * gemv, dot, and bmm's own kernel below 400 multiply-adds per matrix) round each product to bfloat16 and add it
 * into a bfloat16 partial sum, k = 0..K-1: 'steps'. Its gemm with a transposed first operand alone (gemm_transa_)
 * sums the products in float32 and rounds once: 'float32'. Which one a call takes follows from the strides
 * addmm_impl_cpu_ sees, so matmul's folds and batch reshapes are replayed here on strides alone.
 */
import { computeViewStrides, contiguousStrides, numelOf, type Tensor } from '../../core/index.ts';
import type { HalfOrder } from './gemm.ts';

type Strides2 = readonly [number, number];

/** bmm's own kernel (baddbmm_cpu_kernel) runs below this many multiply-adds per matrix; gemm at or above. */
const BMM_KERNEL_MACS = 400;

/**
 * addmm_impl_cpu_ (aten/src/ATen/native/LinearAlgebra.cpp): it casts result, m1 and m2 as column-major BLAS
 * operands, swapping m1 and m2 when the result is row-major, and cpublas picks gemm_transa_ for (t, n).
 */
export function addmmOrder(
  n: number,
  k: number,
  m: number,
  s1: Strides2,
  s2: Strides2,
  so: Strides2,
): HalfOrder {
  let [m1, m2] = [s1, s2];
  let tc = false;
  if (so[0] === 1 && (m === 1 || so[1] >= Math.max(1, n))) tc = false;
  else if (so[1] === 1 && (n === 1 || so[0] >= Math.max(1, m))) {
    [m1, m2] = [m2, m1];
    tc = true;
  }
  const [rows, cols] = tc ? [m, n] : [n, m];
  const [r, c] = tc ? [1, 0] : [0, 1];
  let ta = !tc;
  if (m1[r] === 1 && m1[c] >= Math.max(1, rows)) ta = false;
  else if (m1[c] === 1 && m1[r] >= Math.max(1, k)) ta = true;
  let tb = !tc;
  if (m2[r] === 1 && m2[c] >= Math.max(1, k)) tb = false;
  else if (m2[c] === 1 && m2[r] >= Math.max(1, cols)) tb = true;
  return ta && !tb ? 'float32' : 'steps';
}

/** bmm (bmm_out_or_baddbmm_): its own kernel for small matrices, else addmm_impl_cpu_ per batch. */
export function bmmOrder(
  n: number,
  k: number,
  m: number,
  s1: Strides2,
  s2: Strides2,
  so: Strides2,
): HalfOrder {
  return k * n * m < BMM_KERNEL_MACS ? 'steps' : addmmOrder(n, k, m, s1, s2, so);
}

const last2 = (s: readonly number[]): Strides2 => [s[s.length - 2], s[s.length - 1]];

interface Layout {
  readonly shape: readonly number[];
  readonly strides: readonly number[];
}

/** PyTorch's expand: a new dim of size 1 keeps a stride (the next size times its stride), a broadcast one gets 0. */
function expandTo(t: Layout, target: readonly number[]): Layout {
  const strides = new Array<number>(target.length);
  const offset = target.length - t.shape.length;
  let next = 1;
  for (let i = target.length - 1; i >= 0; i--) {
    const j = i - offset;
    const size = j >= 0 ? t.shape[j] : 1;
    strides[i] = size !== target[i] ? 0 : j >= 0 ? t.strides[j] : next;
    next = target[i] * strides[i];
  }
  return { shape: target, strides };
}

/** reshape: a view where computeStride allows one, else a contiguous copy. */
const reshape = (t: Layout, shape: readonly number[]): Layout => ({
  shape,
  strides: computeViewStrides(t.shape, t.strides, shape) ?? contiguousStrides(shape),
});

const swapLast = (t: Layout): Layout => {
  const [shape, strides] = [[...t.shape], [...t.strides]];
  const n = shape.length;
  [shape[n - 2], shape[n - 1]] = [shape[n - 1], shape[n - 2]];
  [strides[n - 2], strides[n - 1]] = [strides[n - 1], strides[n - 2]];
  return { shape, strides };
};

/**
 * matmul (_matmul_impl): dot and mv step; 1-D @ 2-D is mm of a.unsqueeze(0); a fold is mm of the folded operand
 * (b.mT when b is the batched one); the batched path is bmm of both operands expanded and reshaped to 3-D.
 */
function matmulOrder(a: Tensor, b: Tensor, out: Tensor): HalfOrder {
  const [da, db] = [a.ndim, b.ndim];
  if (db === 1 && da <= 2) return 'steps';
  const k = a.shape[da - 1];
  if (da <= 2 && db === 2) {
    const s1: Strides2 = da === 1 ? [k * a.strides[0], a.strides[0]] : last2(a.strides);
    const n = da === 1 ? 1 : a.shape[0];
    const so: Strides2 = da === 2 ? last2(out.strides) : [b.shape[1], 1];
    return addmmOrder(n, k, b.shape[1], s1, last2(b.strides), so);
  }
  const foldsA = shouldFold(a, db);
  if (foldsA || shouldFold(b, da)) {
    // PyTorch's `transpose = dim_tensor2 > dim_tensor1`: b is the one folded.
    const transpose = !foldsA;
    const t1 = transpose ? swapLast(b) : a;
    const t2: Layout = transpose ? (da === 2 ? swapLast(a) : a) : b;
    if (t2.shape.length === 1) return 'steps';
    const kk = t1.shape[t1.shape.length - 1];
    const rows = numelOf(t1.shape.slice(0, -1));
    const folded = reshape(t1, [rows, kk]);
    const p = t2.shape[1];
    return addmmOrder(rows, kk, p, last2(folded.strides), last2(t2.strides), [p, 1]);
  }
  // Batched: both operands have 2 dims or more (a 1-D one always folds, or is dot / mv).
  const n = a.shape[da - 2];
  const p = b.shape[db - 1];
  const batchA = a.shape.slice(0, -2);
  const batchB = b.shape.slice(0, -2);
  const nb = Math.max(batchA.length, batchB.length);
  const batch = Array.from({ length: nb }, (_, i) => {
    const x = batchA[i - (nb - batchA.length)] ?? 1;
    const y = batchB[i - (nb - batchB.length)] ?? 1;
    return x === 1 ? y : x;
  });
  const bs = numelOf(batch);
  const a3 = reshape(expandTo(a, [...batch, n, k]), [bs, n, k]);
  const b3 = reshape(expandTo(b, [...batch, k, p]), [bs, k, p]);
  return bmmOrder(n, k, p, last2(a3.strides), last2(b3.strides), [p, 1]);
}

/** at::native::should_fold: fold a >= 3-D operand's batch into mm rows, unless it is a transposed 3-D batch. */
export function shouldFold(t: Layout, otherDim: number): boolean {
  const nd = t.shape.length;
  if (nd < 3 || (otherDim !== 1 && otherDim !== 2)) return false;
  const s = t.strides;
  return !(nd === 3 && otherDim === 2 && s[2] !== 1 && s[0] === t.shape[1] * t.shape[2]);
}

/** The order of one bfloat16 product op (mm, bmm, mv, dot, matmul; out is where it writes). */
export function productOrder(op: string, a: Tensor, b: Tensor, out: Tensor): HalfOrder {
  if (op === 'mm')
    return addmmOrder(
      a.shape[0],
      a.shape[1],
      b.shape[1],
      last2(a.strides),
      last2(b.strides),
      last2(out.strides),
    );
  if (op === 'bmm')
    return bmmOrder(
      a.shape[1],
      a.shape[2],
      b.shape[2],
      last2(a.strides),
      last2(b.strides),
      last2(out.strides),
    );
  if (op === 'matmul') return matmulOrder(a, b, out);
  return 'steps';
}
