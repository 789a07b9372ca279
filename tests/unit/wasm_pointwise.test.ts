/**
 * The WebAssembly SIMD pointwise rows (backends/cpu/wasm/pointwise.ts) and float32 sum (wasm/reduce.ts) against
 * the JS loops they replace: bit for bit (sign of zero, NaN, ±inf, int32 wrap-around) for every lowered op and
 * dtype, contiguous and broadcast (stride 0) operands, lengths around the chunk and vector sizes, in-place on
 * the same storage (a partial overlap is refused before the kernel, as in PyTorch); a sum
 * equals the sequential float64 sum rounded to float32.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as T from '../../src/runtime/index.ts';

const SPECIAL = [
  0,
  -0,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  3.4e38,
  -1e-45,
  2 ** 31 - 1,
  -(2 ** 31),
];
const JS: Record<string, (a: number, b: number) => number> = {
  add: (a, b) => a + b,
  sub: (a, b) => a - b,
  mul: (a, b) => a * b,
  div: (a, b) => a / b,
  neg: (a) => -a,
  abs: (a) => Math.abs(a),
  sqrt: (a) => Math.sqrt(a),
};
const INT: Record<string, (a: number, b: number) => number> = {
  add: (a, b) => (a + b) | 0,
  sub: (a, b) => (a - b) | 0,
  mul: (a, b) => Math.imul(a, b),
  neg: (a) => -a | 0,
  abs: (a) => Math.abs(a) | 0,
};
const UNARY = new Set(['neg', 'abs', 'sqrt']);

function values(n: number, seed: number, int: boolean): number[] {
  let s = seed | 0;
  return Array.from({ length: n }, () => {
    s = (Math.imul(s, 1103515245) + 12345) | 0;
    if ((s & 7) === 0) return SPECIAL[(s >>> 3) % SPECIAL.length];
    return int ? s >> 8 : ((s >>> 8) / 2 ** 24 - 0.5) * 1e3;
  });
}

const expectBits = (got: number[], want: number[]) => expect(got).toEqual(want); // toEqual: -0 !== 0, NaN === NaN

describe('wasm SIMD pointwise', () => {
  it('equals the scalar results bit for bit, every op and dtype, contiguous and broadcast', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('add', 'sub', 'mul', 'div', 'neg', 'abs', 'sqrt'),
        fc.constantFrom('float32', 'float64', 'int32'),
        fc.constantFrom(16, 17, 31, 4095, 4096, 4097, 9000),
        fc.boolean(),
        fc.integer(),
        async (name, dtype, n, broadcast, seed) => {
          if (dtype === 'int32' && !INT[name]) return;
          const int = dtype === 'int32';
          const av = values(n, seed, int);
          const bv = broadcast ? values(1, seed + 1, int) : values(n, seed + 1, int);
          const a = T.tensor(av, { dtype: dtype as 'float32' });
          const b = T.tensor(bv, { dtype: dtype as 'float32' });
          const f = T.torch[name as 'add'] as (x: T.Tensor, y?: T.Tensor) => T.Tensor;
          const got = (await (UNARY.has(name) ? f(a) : f(a, b)).toArray()) as number[];
          const A = (await a.toArray()) as number[];
          const B = (await b.toArray()) as number[];
          const round = dtype === 'float32' ? Math.fround : (x: number) => x;
          const scalar = int ? INT[name] : JS[name];
          expectBits(
            got,
            A.map((x, i) => round(scalar(x, B[broadcast ? 0 : i]))),
          );
        },
      ),
      { numRuns: 120 },
    );
  });

  it('in place on the same storage; a shifted overlap is refused before anything is written', async () => {
    const a = T.torch.linspace(-2, 2, 5000);
    const before = (await a.toArray()) as number[];
    a.add_(a);
    expectBits(
      (await a.toArray()) as number[],
      before.map((x) => Math.fround(x + x)),
    );
    // x[1:] + x[:-1] into x[1:]: PyTorch's partial-overlap error, so no chunk ever reads what it wrote.
    const x = T.torch.arange(0, 200, { dtype: 'float32' });
    const narrow = (start: number) => T.callOp('narrow', [x, 0, start, 199]) as T.Tensor;
    expect(() => T.callOp('add', [narrow(1), narrow(0)], { out: narrow(1) })).toThrow(
      expect.objectContaining({ code: 'E_INTERNAL_OVERLAP' }),
    );
    expect((await x.toArray()) as number[]).toEqual(Array.from({ length: 200 }, (_, i) => i));
  });

  it('a float32 sum equals the sequential float64 sum rounded once, for lengths around the chunk', async () => {
    for (const n of [16, 17, 100, 8191, 8192, 8193, 20000]) {
      const v = values(n, n, false).map((x) => (Number.isFinite(x) && Math.abs(x) < 1e30 ? x : 1.5));
      const x = T.tensor(v, { dtype: 'float32' });
      const xs = (await x.toArray()) as number[];
      const seq = xs.reduce((s, e) => s + e, 0);
      expect(((await T.torch.sum(x).toArray()) as number[])[0], `n = ${n}`).toBe(Math.fround(seq));
    }
  });

  it('float32 sums over an outer dim (the column kernel) equal the per-column float64 sums in row order', async () => {
    for (const [rows, cols] of [
      [2, 128],
      [3, 131],
      [5, 4095],
      [2, 4097],
      [40, 300],
    ] as const) {
      const v = values(rows * cols, rows * 7919 + cols, false).map((x) =>
        Number.isNaN(x) && cols !== 131 ? 2.5 : x,
      );
      const x = T.tensor(v, { dtype: 'float32' }).reshape([rows, cols]);
      const xs = (await x.toArray()) as number[]; // flat, row-major
      const seq = Array.from({ length: cols }, (_, j) => {
        let s = 0;
        for (let r = 0; r < rows; r++) s += xs[r * cols + j];
        return s;
      });
      expect((await T.torch.sum(x, 0).toArray()) as number[], `${rows}x${cols}`).toEqual(
        seq.map(Math.fround),
      );
      const mean = (await T.torch.mean(x, 0).toArray()) as number[];
      expect(mean, `mean ${rows}x${cols}`).toEqual(seq.map((s) => Math.fround(s / rows)));
      expect((await T.torch.sum(x, 0, true).toArray()) as number[]).toEqual(seq.map(Math.fround));
    }
    // Two reduced dims that do not coalesce (every other block of a [4, rows, cols] input): the kernel runs once per
    // block into accumulators that already hold the earlier blocks' sums (and a NaN, in the second block).
    const [rows, cols] = [3, 150];
    const v = values(4 * rows * cols, 97, false).map((x, i) =>
      Number.isNaN(x) && i < 2 * rows * cols ? 1 : x,
    );
    const blocks = T.callOp('slice', [
      T.tensor(v, { dtype: 'float32' }).reshape([4, rows, cols]),
      0,
      null,
      null,
      2,
    ]) as T.Tensor;
    const picked = (await (T.callOp('contiguous', [blocks]) as T.Tensor).toArray()) as number[];
    const want = Array.from({ length: cols }, (_, j) => {
      let s = 0;
      for (let r = 0; r < 2 * rows; r++) s += picked[r * cols + j];
      return Math.fround(s);
    });
    expect((await T.torch.sum(blocks, [0, 1]).toArray()) as number[]).toEqual(want);
  });

  it('float32 amax / amin over an outer dim (the column kernel) equal the sequential fold per column', async () => {
    for (const [rows, cols] of [
      [2, 128],
      [3, 131],
      [4, 4097],
      [30, 200],
    ] as const) {
      // Specials (NaN, ±0, ±inf) in some columns; zeros of both signs often enough to tie.
      const v = values(rows * cols, rows * 31 + cols, false).map((x, i) =>
        i % 5 === 0 ? (i % 2 ? -0 : 0) : x,
      );
      const x = T.tensor(v, { dtype: 'float32' }).reshape([rows, cols]);
      const xs = (await x.toArray()) as number[];
      for (const which of ['amax', 'amin'] as const) {
        const better = which === 'amax' ? (a: number, b: number) => a > b : (a: number, b: number) => a < b;
        const want = Array.from({ length: cols }, (_, j) => {
          let a = which === 'amax' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
          for (let r = 0; r < rows; r++) {
            const e = xs[r * cols + j];
            if (better(e, a) || Number.isNaN(e)) a = e;
          }
          return a;
        });
        expect((await T.torch[which](x, 0).toArray()) as number[], `${which} ${rows}x${cols}`).toEqual(want);
      }
    }
    // Every other block of a [4, 3, 150] input over dims [0, 1]: the second block folds into running extremes (a NaN
    // only in some columns of it).
    const v = values(4 * 3 * 150, 41, false).map((x, i) => (i % 7 === 0 ? -0 : x));
    const blocks = T.callOp('slice', [
      T.tensor(v, { dtype: 'float32' }).reshape([4, 3, 150]),
      0,
      null,
      null,
      2,
    ]) as T.Tensor;
    const picked = (await (T.callOp('contiguous', [blocks]) as T.Tensor).toArray()) as number[];
    for (const which of ['amax', 'amin'] as const) {
      const better = which === 'amax' ? (a: number, b: number) => a > b : (a: number, b: number) => a < b;
      const want = Array.from({ length: 150 }, (_, j) => {
        let a = which === 'amax' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
        for (let r = 0; r < 6; r++)
          if (better(picked[r * 150 + j], a) || Number.isNaN(picked[r * 150 + j])) a = picked[r * 150 + j];
        return a;
      });
      expect((await T.torch[which](blocks, [0, 1]).toArray()) as number[], `${which} blocks`).toEqual(want);
    }
  });

  it('float32 amax / amin equal the sequential NaN-propagating fold, a tie of zeros keeping the first', async () => {
    for (const n of [16, 17, 100, 8191, 8193, 20000]) {
      for (const seed of [1, 2, 3]) {
        const v = values(n, seed * n, false);
        const x = T.tensor(v, { dtype: 'float32' });
        const xs = (await x.toArray()) as number[];
        for (const which of ['amax', 'amin'] as const) {
          const better = which === 'amax' ? (a: number, b: number) => a > b : (a: number, b: number) => a < b;
          let want = which === 'amax' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
          for (const e of xs) if (better(e, want) || Number.isNaN(e)) want = e;
          expect(((await T.torch[which](x).toArray()) as number[])[0], `${which} n = ${n}`).toBe(want);
        }
      }
    }
    const zeros = T.tensor([-0, 0, ...Array.from({ length: 20 }, (_, i) => -1 - i)], { dtype: 'float32' });
    expect(((await T.torch.amax(zeros).toArray()) as number[])[0]).toBe(-0);
  });

  it('float32 argmax / argmin / max.dim equal the sequential scan: the first extreme, the first NaN, ties', async () => {
    /** The index the JS scan gives: the first NaN if any, else the first element no other beats. */
    const scan = (xs: number[], which: 'max' | 'min') => {
      let bi = 0;
      for (let j = 1; j < xs.length && !Number.isNaN(xs[bi]); j++)
        if ((which === 'max' ? xs[j] > xs[bi] : xs[j] < xs[bi]) || Number.isNaN(xs[j])) bi = j;
      return bi;
    };
    for (const n of [64, 65, 100, 8191, 8193, 20000]) {
      for (const seed of [1, 2, 3]) {
        // Rounded to a few values so the extreme repeats; NaN kept for seed 3 only (the others take the SIMD path).
        const v = values(n, seed * n, false).map((x) =>
          Number.isNaN(x) ? (seed === 3 ? x : 1) : Number.isFinite(x) ? Math.round(x / 100) : x,
        );
        const x = T.tensor(v, { dtype: 'float32' });
        const xs = (await x.toArray()) as number[];
        const rows = n % 2 === 0 ? 2 : 1;
        const x2 = x.reshape([rows, n / rows]);
        for (const which of ['max', 'min'] as const) {
          const arg = which === 'max' ? T.torch.argmax : T.torch.argmin;
          expect((await arg(x).toArray()) as bigint[], `arg${which} n = ${n} seed ${seed}`).toEqual([
            BigInt(scan(xs, which)),
          ]);
          const lines = Array.from({ length: rows }, (_, r) =>
            xs.slice((r * n) / rows, ((r + 1) * n) / rows),
          );
          const [values2, indices] = T.callOp(which, [x2, 1]) as [T.Tensor, T.Tensor];
          expect((await indices.toArray()) as bigint[]).toEqual(lines.map((l) => BigInt(scan(l, which))));
          expect((await values2.toArray()) as number[]).toEqual(lines.map((l) => l[scan(l, which)]));
        }
      }
    }
    // A zero extreme (either sign) is the first zero, found by the sequential scan.
    const zeros = T.tensor([-1, -0, 0, ...Array.from({ length: 80 }, (_, i) => -2 - i)], {
      dtype: 'float32',
    });
    expect((await T.torch.argmax(zeros).toArray()) as bigint[]).toEqual([1n]);
  });
});
