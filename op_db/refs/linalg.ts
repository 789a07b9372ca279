/**
 * References for mm, bmm, mv, dot and matmul: one float64 batched product over logical indices (complex as
 * (re, im) pairs), with matmul's rules for 1-D operands (prepended / appended dim, removed afterwards) and
 * broadcast batch dims. Sums are exact enough in float64 to stand in for the real-number result.
 */
import type { RefSample } from '../types.ts';
import { broadcastShape, numelOf, type RefTensor, unravel } from './tensor.ts';

/** Flat offset of batch index `b` (of the broadcast batch shape) in an operand with batch dims `shape`. */
function batchOffset(b: readonly number[], shape: readonly number[]): number {
  const off = b.length - shape.length;
  let flat = 0;
  for (let d = 0; d < shape.length; d++) flat = flat * shape[d] + (shape[d] === 1 ? 0 : b[off + d]);
  return flat;
}

/** torch.matmul semantics in float64 (mm, bmm, mv and dot are its 2-D, 3-D, matrix-vector and 1-D cases). */
export function matmulRef(a: RefTensor, b: RefTensor): RefTensor {
  const aVec = a.shape.length === 1;
  const bVec = b.shape.length === 1;
  const as = aVec ? [1, a.shape[0]] : [...a.shape];
  const bs = bVec ? [b.shape[0], 1] : [...b.shape];
  const [n, k] = as.slice(-2);
  const m = bs[bs.length - 1];
  const aBatch = as.slice(0, -2);
  const bBatch = bs.slice(0, -2);
  const batch = broadcastShape([aBatch, bBatch]);
  const complex = a.im !== null || b.im !== null;
  const total = numelOf(batch) * n * m;
  const re = new Float64Array(total);
  const im = complex ? new Float64Array(total) : null;
  for (let bi = 0; bi < numelOf(batch); bi++) {
    const bidx = unravel(bi, batch);
    const ao = batchOffset(bidx, aBatch) * n * k;
    const bo = batchOffset(bidx, bBatch) * k * m;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < m; j++) {
        let sr = 0;
        let si = 0;
        for (let p = 0; p < k; p++) {
          const x = ao + i * k + p;
          const y = bo + p * m + j;
          const [xr, xi] = [a.re[x], a.im ? a.im[x] : 0];
          const [yr, yi] = [b.re[y], b.im ? b.im[y] : 0];
          sr += xr * yr - xi * yi;
          si += xr * yi + xi * yr;
        }
        const o = (bi * n + i) * m + j;
        re[o] = sr;
        if (im) im[o] = si;
      }
    }
  }
  const shape = [...batch, ...(aVec ? [] : [n]), ...(bVec ? [] : [m])];
  return { shape, dtype: a.dtype, re, im };
}

/** The reference for every product op: input times its first argument. */
export const productRef = (s: RefSample): RefTensor => matmulRef(s.input, s.args[0] as RefTensor);
