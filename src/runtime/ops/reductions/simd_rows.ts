/**
 * A reduce loop whose contiguous rows into one accumulator (stride 0 along the row) go to a SIMD row kernel
 * (backends/cpu/wasm): `row` returns the row's partial result, or null to leave that row to the JS loop (no wasm
 * SIMD, or a result whose exact value only the sequential loop decides); `fold` merges it into the accumulator.
 * `cols`, when given, takes reductions over an outer dim: a run of contiguous accumulators fed row by row.
 */
import type { ColumnFold } from '../../backends/cpu/index.ts';
import type { ReduceLoop } from './codegen.ts';

/** Rows of at least this many elements go to the SIMD kernel. */
const SIMD_MIN = 16;
/** Column reductions of at least this many columns go to the column kernel (its per-row copy costs ~0.2 µs). */
const COLS_MIN = 128;

export function withSimdRows(
  loop: ReduceLoop,
  row: (X: Float32Array, ix: number, n: number) => number | null,
  fold: (acc: number, s: number) => number,
  cols?: ColumnFold,
): ReduceLoop {
  return (n0, n1, A, X, io, so0, so1, ix, sx0, sx1, M, k) => {
    // A reduction over an outer dim (sum(x, 0)): contiguous accumulators, each fed by one contiguous row.
    if (cols && so0 === 1 && sx0 === 1 && so1 === 0 && n0 >= COLS_MIN && n1 > 1) {
      if (cols(A as Float64Array, io, X as Float32Array, ix, n0, n1, sx1)) return;
    }
    if (so0 !== 0 || sx0 !== 1 || n0 < SIMD_MIN) return loop(n0, n1, A, X, io, so0, so1, ix, sx0, sx1, M, k);
    const acc = A as Float64Array;
    for (let r = 0; r < n1; r++, io += so1, ix += sx1) {
      const s = row(X as Float32Array, ix, n0);
      if (s === null) loop(n0, 1, A, X, io, so0, so1, ix, sx0, sx1, M, k);
      else acc[io] = fold(acc[io], s);
    }
  };
}
