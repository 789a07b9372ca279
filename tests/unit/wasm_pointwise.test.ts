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
});
