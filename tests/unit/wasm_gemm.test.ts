/**
 * The WebAssembly SIMD gemm (backends/cpu/wasm/gemm.ts) against a plain float64 triple loop summing in the same
 * order p = 0..k-1: bit for bit, for every shape class the packing pads (n, m not multiples of 4, k = 0 and 1),
 * strided and transposed operands, NaN and ±inf, float32 and float64 outputs; and through the public matmul /
 * conv2d, which reach it from 64 multiply-adds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type FloatMatrix, wasmGemm, wasmGemmAvailable } from '../../src/runtime/backends/cpu/index.ts';
import * as T from '../../src/runtime/index.ts';

/** A strided n x k matrix in a larger buffer: row stride, column stride and offset chosen by the caller. */
function strided(Ctor: typeof Float32Array | typeof Float64Array, rows: number, cols: number, t: boolean) {
  const off = 3;
  const rs = t ? 1 : cols + 1;
  const cs = t ? rows + 2 : 1;
  const arr = new Ctor(off + rows * Math.max(rs, 1) + cols * cs + 8);
  return { arr, off, rs, cs } satisfies FloatMatrix;
}

function sequential(out: FloatMatrix, a: FloatMatrix, b: FloatMatrix, n: number, k: number, m: number) {
  for (let i = 0; i < n; i++)
    for (let j = 0; j < m; j++) {
      let s = 0;
      for (let p = 0; p < k; p++)
        s += a.arr[a.off + i * a.rs + p * a.cs] * b.arr[b.off + p * b.rs + j * b.cs];
      out.arr[out.off + i * out.rs + j * out.cs] = s;
    }
}

const SPECIAL = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0, 1e300, 5e-324];

function fill(x: FloatMatrix, rows: number, cols: number, next: () => number) {
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) x.arr[x.off + i * x.rs + j * x.cs] = next();
}

describe('wasm SIMD gemm', () => {
  it('is available on this engine (Node 20 validates 128-bit SIMD)', () => {
    expect(wasmGemmAvailable()).toBe(true);
  });

  it('equals the sequential float64 loop bit for bit, over padded shapes, strides and special values', () => {
    fc.assert(
      fc.property(
        fc.record({
          n: fc.integer({ min: 1, max: 13 }),
          k: fc.integer({ min: 0, max: 11 }),
          m: fc.integer({ min: 1, max: 13 }),
          f32: fc.boolean(),
          ta: fc.boolean(),
          tb: fc.boolean(),
          special: fc.boolean(),
          seed: fc.integer(),
        }),
        ({ n, k, m, f32, ta, tb, special, seed }) => {
          const Ctor = f32 ? Float32Array : Float64Array;
          let s = seed;
          const next = () => {
            s = (Math.imul(s, 1103515245) + 12345) | 0;
            if (special && (s & 15) === 0) return SPECIAL[(s >>> 4) % SPECIAL.length];
            return ((s >>> 8) / 2 ** 24 - 0.5) * 8;
          };
          const a = strided(Ctor, n, k, ta);
          const b = strided(Ctor, k, m, tb);
          fill(a, n, k, next);
          fill(b, k, m, next);
          const got = strided(Ctor, n, m, false);
          const want = strided(Ctor, n, m, false);
          got.arr.fill(7);
          want.arr.fill(7);
          expect(wasmGemm(got, a, b, n, k, m)).toBe(true);
          sequential(want, a, b, n, k, m);
          // Bit for bit (toEqual tells -0 from 0 and matches NaN only with NaN); the 7s outside stay.
          expect(Array.from(got.arr)).toEqual(Array.from(want.arr));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('matmul and conv2d reach it: a 64x64 product and a convolution equal float64 references rounded once', async () => {
    const n = 64;
    const a = T.torch.linspace(-1, 1, n * n).reshape(n, n);
    const b = T.torch
      .linspace(3, -2, n * n)
      .reshape(n, n)
      .t();
    const got = (await T.torch.matmul(a, b).toArray()) as number[];
    const A = (await a.toArray()) as number[];
    const B = (await b.toArray()) as number[];
    const want = new Float32Array(n * n);
    sequential(
      { arr: want, off: 0, rs: n, cs: 1 },
      { arr: Float64Array.from(A), off: 0, rs: n, cs: 1 },
      { arr: Float64Array.from(B), off: 0, rs: n, cs: 1 },
      n,
      n,
      n,
    );
    expect(got).toEqual(Array.from(want));
    // conv2d as im2col + gemm: a 1x1 kernel is a product over channels.
    const x = T.torch.linspace(-2, 2, 8 * 5 * 5).reshape(1, 8, 5, 5);
    const w = T.torch.linspace(1, -1, 16 * 8).reshape(16, 8, 1, 1);
    const conv = (await (T.callOp('nn.functional.conv2d', [x, w]) as T.Tensor).toArray()) as number[];
    const viaMm = (await T.torch.mm(w.reshape(16, 8), x.reshape(8, 25)).toArray()) as number[];
    expect(conv).toEqual(viaMm);
  });
});
