/**
 * A reduce loop whose contiguous rows into one accumulator (stride 0 along the row) go to a SIMD row kernel
 * (backends/cpu/wasm): `row` returns the row's partial result, or null to leave that row to the JS loop (no wasm
 * SIMD, or a result whose exact value only the sequential loop decides); `fold` merges it into the accumulator.
 */
import type { ReduceLoop } from './codegen.ts';

/** Rows of at least this many elements go to the SIMD kernel. */
const SIMD_MIN = 16;

export function withSimdRows(
  loop: ReduceLoop,
  row: (X: Float32Array, ix: number, n: number) => number | null,
  fold: (acc: number, s: number) => number,
): ReduceLoop {
  return (n0, n1, A, X, io, so0, so1, ix, sx0, sx1, M, k) => {
    if (so0 !== 0 || sx0 !== 1 || n0 < SIMD_MIN) return loop(n0, n1, A, X, io, so0, so1, ix, sx0, sx1, M, k);
    const acc = A as Float64Array;
    for (let r = 0; r < n1; r++, io += so1, ix += sx1) {
      const s = row(X as Float32Array, ix, n0);
      if (s === null) loop(n0, 1, A, X, io, so0, so1, ix, sx0, sx1, M, k);
      else acc[io] = fold(acc[io], s);
    }
  };
}
