/**
 * The float32 / float64 product behind a convolution: out[i, j] = sum_p W[i, p] * cols[p, j], cols being the
 * contiguous im2col buffer. A 4x4 register block (four output rows by four rows of cols) gives 16 multiply-adds
 * per four loads of cols and four of the accumulators, against the generic gemm's 4 per 5; columns go in blocks
 * that keep the accumulators and the rows of cols in cache. Sums are float64, rounded once on store, as gemm.ts.
 * The source is compiled once per array type so each copy stays monomorphic.
 */
import { WASM_GEMM_MIN_MACS, wasmGemm } from '../../../backends/cpu/index.ts';
import type { StorageArray } from '../../../core/index.ts';

export type ConvGemm = (
  O: StorageArray,
  o: number,
  ors: number,
  ocs: number,
  W: StorageArray,
  w: number,
  wrs: number,
  wcs: number,
  B: StorageArray,
  n: number,
  k: number,
  m: number,
) => void;

const JB = 512;

const SRC = `return function convGemm(O, o, ors, ocs, W, w, wrs, wcs, B, n, k, m) {
  const a0 = new Float64Array(${JB}), a1 = new Float64Array(${JB}), a2 = new Float64Array(${JB}), a3 = new Float64Array(${JB});
  const accs = [a0, a1, a2, a3];
  for (let j0 = 0; j0 < m; j0 += ${JB}) {
    const jb = Math.min(${JB}, m - j0);
    for (let i = 0; i < n; i += 4) {
      const rows = Math.min(4, n - i);
      a0.fill(0); a1.fill(0); a2.fill(0); a3.fill(0);
      // Missing rows (n not a multiple of 4) read row i again and are never stored.
      const r0 = w + i * wrs, r1 = rows > 1 ? r0 + wrs : r0, r2 = rows > 2 ? r0 + 2 * wrs : r0, r3 = rows > 3 ? r0 + 3 * wrs : r0;
      let p = 0;
      for (; p + 4 <= k; p += 4) {
        const c0 = p * wcs, c1 = c0 + wcs, c2 = c1 + wcs, c3 = c2 + wcs;
        const w00 = W[r0 + c0], w01 = W[r0 + c1], w02 = W[r0 + c2], w03 = W[r0 + c3];
        const w10 = W[r1 + c0], w11 = W[r1 + c1], w12 = W[r1 + c2], w13 = W[r1 + c3];
        const w20 = W[r2 + c0], w21 = W[r2 + c1], w22 = W[r2 + c2], w23 = W[r2 + c3];
        const w30 = W[r3 + c0], w31 = W[r3 + c1], w32 = W[r3 + c2], w33 = W[r3 + c3];
        const b0 = p * m + j0, b1 = b0 + m, b2 = b1 + m, b3 = b2 + m;
        for (let j = 0; j < jb; j++) {
          const x0 = B[b0 + j], x1 = B[b1 + j], x2 = B[b2 + j], x3 = B[b3 + j];
          a0[j] += w00 * x0 + w01 * x1 + w02 * x2 + w03 * x3;
          a1[j] += w10 * x0 + w11 * x1 + w12 * x2 + w13 * x3;
          a2[j] += w20 * x0 + w21 * x1 + w22 * x2 + w23 * x3;
          a3[j] += w30 * x0 + w31 * x1 + w32 * x2 + w33 * x3;
        }
      }
      for (; p < k; p++) {
        const c = p * wcs;
        const w0 = W[r0 + c], w1 = W[r1 + c], w2 = W[r2 + c], w3 = W[r3 + c];
        const b = p * m + j0;
        for (let j = 0; j < jb; j++) {
          const x = B[b + j];
          a0[j] += w0 * x; a1[j] += w1 * x; a2[j] += w2 * x; a3[j] += w3 * x;
        }
      }
      for (let r = 0; r < rows; r++) {
        const acc = accs[r];
        const base = o + (i + r) * ors + j0 * ocs;
        for (let j = 0; j < jb; j++) O[base + j * ocs] = acc[j];
      }
    }
  }
};`;

/** Products from WASM_GEMM_MIN_MACS multiply-adds on run in the WebAssembly SIMD gemm, as ops/gemm.ts's. */
function withWasm(js: ConvGemm): ConvGemm {
  return (O, o, ors, ocs, W, w, wrs, wcs, B, n, k, m) => {
    const F = (x: StorageArray) => x as Float32Array | Float64Array;
    if (
      n * k * m >= WASM_GEMM_MIN_MACS &&
      wasmGemm(
        { arr: F(O), off: o, rs: ors, cs: ocs },
        { arr: F(W), off: w, rs: wrs, cs: wcs },
        { arr: F(B), off: 0, rs: m, cs: 1 },
        n,
        k,
        m,
      )
    )
      return;
    js(O, o, ors, ocs, W, w, wrs, wcs, B, n, k, m);
  };
}

const float32 = withWasm(new Function(SRC)() as ConvGemm);
const float64 = withWasm(new Function(SRC)() as ConvGemm);

/** The blocked kernel for float32 / float64 (whose storages hold the values themselves); null otherwise. */
export const convGemmFor = (dtype: string): ConvGemm | null =>
  dtype === 'float32' ? float32 : dtype === 'float64' ? float64 : null;
